//! The x86-64 state as an ordered [`Snapshot`]: rax..r15, rip, rflags, then each named
//! status/control flag as a boolean.

use emu_core::snapshot::{Snapshot, Value};

use crate::state::{flags, X86State, GPR_NAMES};

/// Captures `st`.
pub fn capture(st: &X86State) -> Snapshot {
    let mut s = Snapshot::new();
    for (name, v) in GPR_NAMES.iter().zip(st.gpr.iter()) {
        s.push_hex(*name, *v);
    }
    s.push_hex("rip", st.rip);
    s.push_hex("rflags", st.rflags);
    for (name, bit) in flags::NAMES {
        s.push(format!("rflags.{name}"), Value::Bool(st.rflags & bit != 0));
    }
    s
}
