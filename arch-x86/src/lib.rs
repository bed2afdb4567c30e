//! x86-64 support for acctemu. Empty until the x86-64 core lands (issue 5).

pub mod timing;
