//! Translation of data and instruction addresses through the TLB model of `state/tlb.rs` (SDM
//! vol. 2 part I section 4.1, Figure 4-16 for the order of the checks): what a load, a store,
//! a fetch or an RSE reference asks, and the faults a miss or a failed check raises. See
//! `tlb.rs` for what is and is not modelled; its TLB instructions (probe, tpa, tak, ...) use
//! these checks, and the memory accesses (`access.rs`) translate through them, so they live
//! below both.

use super::interrupt::{vector, DataRef, Interruption, Translation};
use super::{unimplemented, Ctx, Trap};
use crate::state::psr::Psr;
use crate::state::tlb::{rights_allow, vhpt_hash_long, vhpt_hash_short, Access, Entry, Pta, Region, Side, MA_NATPAGE};
use crate::state::{cr, State};

/// ISR.code{3:0} of the non-access instructions (SDM vol. 2 Table 3-7, reference section 2).
pub(super) mod non_access {
    /// tpa.
    pub const TPA: u16 = 0;
    /// probe (regular form).
    pub const PROBE: u16 = 2;
    /// tak.
    pub const TAK: u16 = 3;
    /// lfetch / lfetch.fault.
    pub const LFETCH: u16 = 4;
    /// probe.fault.
    pub const PROBE_FAULT: u16 = 5;
}

/// The region register selected by `va{63:61}`.
pub(super) fn region(st: &State, va: u64) -> Region {
    Region::of(st.ind.rr[(va >> 61) as usize])
}

/// cr.iha for `va`: its VHPT entry address in the format PTA.vf selects.
pub(super) fn iha(st: &State, va: u64) -> u64 {
    let pta = Pta::of(st.cr[cr::PTA as usize]);
    let r = region(st, va);
    if pta.vf {
        vhpt_hash_long(pta, r, va)
    } else {
        vhpt_hash_short(pta, r, va)
    }
}

/// A reference a translation is checked for: the address, the access, and for a non-access
/// instruction its ISR.code{3:0}.
#[derive(Debug, Clone, Copy)]
pub(super) struct Reference {
    pub(super) va: u64,
    pub(super) access: Access,
    pub(super) na: Option<u16>,
}

/// A translation fault at `vec` for the reference `r`.
pub(super) fn fault(st: &State, r: Reference, vec: u16, code: u16, itir: u64, why: &str) -> Trap {
    let Reference { va, access, na } = r;
    let mut int = Interruption::fault(
        vec,
        code | na.unwrap_or(0),
        format!(
            "{why}: {} at {va:#x}",
            match access {
                Access::Read => "read",
                Access::Write => "write",
                Access::ReadWrite => "semaphore",
                Access::Exec => "instruction fetch",
            }
        ),
    );
    int.data = Some(DataRef { addr: va, read: access.reads(), write: access.writes() });
    int.translation = Some(Translation { itir, iha: iha(st, va), exec: access == Access::Exec });
    int.non_access = na.is_some();
    Trap::Guest(Box::new(int))
}

/// The fault of a TLB miss (Figure 4-16's left branch).
pub(super) fn miss(st: &State, va: u64, access: Access, na: Option<u16>) -> Trap {
    let r = region(st, va);
    let walker = Pta::of(st.cr[cr::PTA as usize]).ve && r.ve;
    let (vec, why) = match access {
        Access::Exec if walker => (vector::ITLB, "instruction TLB miss (the VHPT walker aborts its search)"),
        Access::Exec => (vector::ALT_ITLB, "alternate instruction TLB miss"),
        _ if !st.psr.contains(Psr::IC) => (vector::DATA_NESTED_TLB, "data nested TLB miss (PSR.ic = 0)"),
        _ if walker => (vector::DTLB, "data TLB miss (the VHPT walker aborts its search)"),
        _ => (vector::ALT_DTLB, "alternate data TLB miss"),
    };
    fault(st, Reference { va, access, na }, vec, 0, r.default_itir(), why)
}

/// The checks a found translation makes, in the SDM's priority order.
pub(super) fn check(st: &State, e: &Entry, va: u64, access: Access, level: u8, na: Option<u16>) -> Result<(), Trap> {
    let exec = access == Access::Exec;
    let f = |vec: u16, code: u16, why: &str| Err(fault(st, Reference { va, access, na }, vec, code, e.itir(), why));
    if !e.p {
        return f(vector::PAGE_NOT_PRESENT, 0, "page not present");
    }
    if e.ma == MA_NATPAGE {
        // NaT Page Consumption: ISR.code{7:4} = 2 (reference section 2).
        return f(vector::NAT_CONSUMPTION, 0x20, "NaT page consumption");
    }
    if st.psr.contains(Psr::PK) {
        // pkr: v bit 0, wd 1, rd 2, xd 3, key 31:8 (SDM vol. 2 Figure 4-9).
        let key = st.ind.pkr.iter().find(|&&k| k & 1 != 0 && (k >> 8) & 0xFF_FFFF == u64::from(e.key));
        let Some(&k) = key else {
            return f(if exec { vector::IKEY_MISS } else { vector::DKEY_MISS }, 0, "key miss");
        };
        let denied = (access.writes() && k & 2 != 0) || (access.reads() && k & 4 != 0) || (exec && k & 8 != 0);
        if denied {
            return f(vector::KEY_PERMISSION, 0, "key permission");
        }
    }
    if !rights_allow(e.ar, e.pl, level, access) {
        let vec = if exec { vector::IACCESS_RIGHTS } else { vector::DACCESS_RIGHTS };
        return f(vec, 0, &format!("access rights (ar {}, pl {} at level {level})", e.ar, e.pl));
    }
    // PSR.da disables the data dirty-bit and access-bit faults, PSR.ia the instruction one.
    if access.writes() && !e.d && !st.psr.contains(Psr::DA) {
        return f(vector::DIRTY_BIT, 0, "dirty bit");
    }
    if !e.a {
        if exec && !st.psr.contains(Psr::IA) {
            return f(vector::IACCESS_BIT, 0, "instruction access bit");
        }
        if !exec && !st.psr.contains(Psr::DA) {
            return f(vector::DACCESS_BIT, 0, "data access bit");
        }
    }
    Ok(())
}

/// The physical address of `va` through `side`, or the fault.
pub(super) fn translate(
    st: &State,
    side: &Side,
    va: u64,
    access: Access,
    level: u8,
    na: Option<u16>,
) -> Result<u64, Trap> {
    let r = region(st, va);
    let Some(e) = side.lookup(r.rid, va) else { return Err(miss(st, va, access, na)) };
    check(st, e, va, access, level, na)?;
    Ok(e.physical(va))
}

/// The physical address a data access of `size` bytes at `va` uses: `va` itself unless
/// translation is enabled and PSR.dt is set.
///
/// An access whose bytes straddle two pages that are not physically contiguous is not modelled
/// and stops the run.
pub(super) fn data_address(st: &State, ctx: &Ctx, va: u64, size: usize, access: Access) -> Result<u64, Trap> {
    data_address_as(st, ctx, va, size, access, None)
}

/// [`data_address`] for a non-access instruction with ISR.code{3:0} `na` (lfetch.fault).
pub(super) fn data_address_as(
    st: &State,
    ctx: &Ctx,
    va: u64,
    size: usize,
    access: Access,
    na: Option<u16>,
) -> Result<u64, Trap> {
    if !st.tlb.enabled || !st.psr.contains(Psr::DT) {
        return Ok(va);
    }
    let level = st.psr.cpl();
    let pa = translate(st, &st.tlb.d, va, access, level, na)?;
    let span = (size.max(1) - 1) as u64;
    let last = va.wrapping_add(span);
    if (last ^ va) >> 12 != 0 {
        let pa_last = translate(st, &st.tlb.d, last, access, level, na)?;
        if pa_last != pa.wrapping_add(span) {
            return Err(unimplemented(
                ctx,
                format!("a {size}-byte access at {va:#x} spanning two physically discontiguous pages"),
            ));
        }
    }
    Ok(pa)
}

/// The physical address of the bundle at `ip` when translation is enabled and PSR.it is set
/// (the caller checks both), or the instruction translation fault.
pub fn instruction_address(st: &State, ip: u64) -> Result<u64, Trap> {
    translate(st, &st.tlb.i, ip, Access::Exec, st.psr.cpl(), None)
}

/// With translation on and PSR.rt set, the RSE's spills and fills would go through the DTLB;
/// this model makes them at the backing-store addresses as they are. So when an instruction
/// moved ar.bspstore from `before`, every 4 KB page it spilled to or filled from must be
/// translated to itself, else the run stops (RSE translation faults are not modelled).
///
/// # Errors
/// The pages between `before` and the new ar.bspstore not identity-mapped.
pub fn rse_references(st: &State, ip: u64, slot: u8, before: u64) -> Result<(), super::ExecError> {
    let after = st.gr.bspstore();
    let (lo, hi) = (before.min(after), before.max(after));
    let r = |va: u64| region(st, va).rid;
    let mut page = lo & !0xFFF;
    while page < hi {
        let identity = st.tlb.d.lookup(r(page), page).is_some_and(|e| e.p && e.physical(page) == page);
        if !identity {
            return Err(super::ExecError::Unimplemented {
                pc: ip,
                slot,
                what: format!(
                    "RSE reference at {page:#x} with PSR.rt and translation on (RSE references are made \
                     untranslated: the backing store must be identity-mapped in the DTLB)"
                ),
            });
        }
        page = page.saturating_add(0x1000);
        if page == 0 {
            break;
        }
    }
    Ok(())
}

/// The privilege level `epc` at `ip` promotes to with PSR.it set: the ITLB entry of its page
/// has access rights 7 (execute, promote) and a privilege level more privileged than cpl (SDM
/// vol. 3 epc; reference section 4). Otherwise epc changes nothing.
pub(super) fn epc_promotion(st: &State, ip: u64) -> Option<u8> {
    let e = st.tlb.i.lookup(region(st, ip).rid, ip)?;
    (e.ar == 7 && e.pl < st.psr.cpl()).then_some(e.pl)
}
