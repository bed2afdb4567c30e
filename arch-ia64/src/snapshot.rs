//! The IA-64 architectural state as an ordered [`Snapshot`]: ip, psr, cfm, the general
//! registers of the static part and of the current frame (NaT bits only where set),
//! predicates, branch registers, named application and control registers, and the
//! floating-point registers that differ from +0.0.

use crate::regs::{AR_NAMES, CR_NAMES};
use crate::state::fr::Fr;
use crate::state::{ar, State};
use emu_core::snapshot::{Snapshot, Value};

/// Captures `st`; `itc` is the current ar.itc (it derives from the clock).
pub fn capture(st: &State, itc: u64) -> Snapshot {
    let mut s = Snapshot::new();
    s.push_hex("ip", st.ip | u64::from(st.psr.ri()));
    s.push_hex("psr", st.psr.bits());
    s.push_hex("cfm", st.gr.cfm().to_bits());
    let sof = st.gr.cfm().sof;
    for r in (1u8..32).chain(32..32u8.saturating_add(sof)) {
        let (v, nat) = st.gr.read_or_zero(r);
        s.push_hex(format!("r{r}"), v);
        s.push_nat(&format!("r{r}"), nat);
    }
    s.push_hex("pr", st.pr | 1);
    for (b, v) in st.br.iter().enumerate() {
        s.push_hex(format!("b{b}"), *v);
    }
    for (n, name) in AR_NAMES {
        let v = match *n {
            ar::BSP => st.gr.bsp(),
            ar::BSPSTORE => st.gr.bspstore(),
            ar::RNAT => st.gr.rnat(),
            ar::ITC => itc,
            n => st.ar[usize::from(n)],
        };
        s.push_hex(*name, v);
    }
    for (n, name) in CR_NAMES {
        s.push_hex(*name, st.cr[usize::from(*n)]);
    }
    for (f, v) in st.fr.iter().enumerate().skip(2) {
        if *v != Fr::ZERO {
            s.push(
                format!("f{f}"),
                Value::Text(format!("{}0x{:05x}:{:#018x}", if v.sign { "-" } else { "+" }, v.exp, v.sig)),
            );
        }
    }
    s
}
