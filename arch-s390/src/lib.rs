//! s390x support for acctemu. Empty until the s390x core lands (issue 6).
