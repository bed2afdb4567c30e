//! The TLB instructions (SDM vol. 3 itc, itr, ptc, ptr, probe, tak, thash, ttag, tpa) and the
//! translation of data and instruction addresses through the TLB model of `state/tlb.rs`
//! (SDM vol. 2 part I section 4.1, Figure 4-16 for the order of the checks).
//!
//! Translation applies only when the harness enables it (`translation = true`): paths written
//! for a flat address space run with PSR.dt/PSR.it set and no TLB entries, and keep their
//! untranslated accesses. With it enabled, an access with PSR.dt (a fetch with PSR.it) finds
//! its translation in the TRs or TCs of its side, or faults:
//! - a miss raises Alternate Data/Instruction TLB (walker disabled by PTA.ve = 0 or RR.ve = 0),
//!   or Data/Instruction TLB when the walker is enabled: the VHPT walker is modelled as one
//!   that always aborts its search, which the SDM permits ("if the VHPT walker does not find
//!   the required translation in the VHPT or the search is aborted, an Instruction/Data TLB
//!   Miss fault is raised", vol. 2 section 4.1.8); a data miss with PSR.ic = 0 is a Data
//!   Nested TLB fault;
//! - a hit is checked for, in order, page not present, NaT page, key miss and key permission
//!   (PSR.pk), access rights, dirty bit (writes) and access bit.
//!
//! Each fault records cr.ifa (the address), cr.itir (the region's defaults on a miss, the
//! entry's ps and key otherwise), cr.iha (the VHPT address of cr.ifa) and ISR.r/w/x, plus
//! ISR.na and the non-access code for probe, tpa, tak and lfetch.
//!
//! Not modelled: the unimplemented-address checks (Itanium 2's 51 implemented bits), the DCR
//! deferral controls (speculative loads defer every fault, as before), PSR.ed, the serialisation
//! requirement after an insert or purge (changes apply at once), and machine checks (an insert
//! overlapping a TR, which the SDM makes a Machine Check Abort, stops the run). The unaligned
//! reference check stays where it was, before translation, though the SDM ranks it below the
//! translation faults. RSE spills and fills are made untranslated; with PSR.rt set they must
//! fall on identity-mapped pages, else the run stops ([`rse_references`]).
//!
//! Timing: the rows keep their classes (`Tlb` on M2 only, reference `itanium2-timing.md`
//! section 1; its latency is the GUESS `tlb` parameter); a translation costs no cycles and a
//! fault the interruption cost, and the `srlz` software issues after an insert or purge is
//! charged as any `srlz`.

use super::access::{gr, gr_no_nat, set_gr};
use super::interrupt::{
    illegal_operation, nat_consumption_non_access, privileged_operation, reserved_field, vector, DataRef, Interruption,
    Translation,
};
use super::op::{Op, TlbOp};
use super::predecode::Exec;
use super::{unimplemented, Ctx, ExecResult, Flow, Trap};
use crate::state::psr::Psr;
use crate::state::tlb::{
    page_size_supported, rights_allow, vhpt_hash_long, vhpt_hash_short, vhpt_tag, Access, Entry, Pta, Region, Side,
    ITIR_RESERVED, MA_NATPAGE, N_TR, PTE_RESERVED,
};
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
fn region(st: &State, va: u64) -> Region {
    Region::of(st.ind.rr[(va >> 61) as usize])
}

/// cr.iha for `va`: its VHPT entry address in the format PTA.vf selects.
fn iha(st: &State, va: u64) -> u64 {
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
struct Reference {
    va: u64,
    access: Access,
    na: Option<u16>,
}

/// A translation fault at `vec` for the reference `r`.
fn fault(st: &State, r: Reference, vec: u16, code: u16, itir: u64, why: &str) -> Trap {
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
fn miss(st: &State, va: u64, access: Access, na: Option<u16>) -> Trap {
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
fn check(st: &State, e: &Entry, va: u64, access: Access, level: u8, na: Option<u16>) -> Result<(), Trap> {
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
fn translate(st: &State, side: &Side, va: u64, access: Access, level: u8, na: Option<u16>) -> Result<u64, Trap> {
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

/// The privilege level probe checks: the operand's, but never more privileged than cpl.
fn probe_level(st: &State, pl: u64) -> u8 {
    ((pl & 3) as u8).max(st.psr.cpl())
}

/// Executes a TLB instruction.
pub(super) fn execute(st: &mut State, e: &Exec, ctx: &Ctx) -> ExecResult {
    let o = &e.ops;
    match e.op {
        Op::Tlb(TlbOp::Itc { data }) => {
            insert_checks(st, ctx, if data { "itc.d" } else { "itc.i" })?;
            let pte = gr_no_nat(st, o[0], "translation")?;
            let entry = entry_of(st, pte)?;
            let side = if data { &mut st.tlb.d } else { &mut st.tlb.i };
            if let Some(slot) = side.tr_overlap(entry.rid, entry.vpage, entry.ps, None) {
                return Err(machine_check(ctx, if data { "itc.d" } else { "itc.i" }, data, slot));
            }
            side.purge_tc(entry.rid, entry.vpage, entry.ps);
            side.insert_tc(entry);
        }
        Op::Tlb(TlbOp::Itr { data }) => {
            let name = if data { "itr.d" } else { "itr.i" };
            insert_checks(st, ctx, name)?;
            // Operands: tr[r3] (the slot), r2.
            let slot = gr_no_nat(st, o[0], "translation register slot")?;
            let pte = gr_no_nat(st, o[1], "translation")?;
            let slot = (slot & 0xFF) as usize;
            if slot >= N_TR {
                return Err(reserved_field(&format!("{name}: slot {slot} past the {N_TR} translation registers")));
            }
            let entry = entry_of(st, pte)?;
            let side = if data { &mut st.tlb.d } else { &mut st.tlb.i };
            if let Some(other) = side.tr_overlap(entry.rid, entry.vpage, entry.ps, Some(slot)) {
                return Err(machine_check(ctx, name, data, other));
            }
            side.purge_tc(entry.rid, entry.vpage, entry.ps);
            side.tr[slot] = Some(entry);
        }
        Op::Tlb(TlbOp::Ptc) => {
            let (rid, va, ps) = purge_range(st, o[0], o[1])?;
            for (side, data) in [(&st.tlb.i, false), (&st.tlb.d, true)] {
                if let Some(slot) = side.tr_overlap(rid, va, ps, None) {
                    return Err(machine_check(ctx, "ptc", data, slot));
                }
            }
            st.tlb.i.purge_tc(rid, va, ps);
            st.tlb.d.purge_tc(rid, va, ps);
        }
        Op::Tlb(TlbOp::PtcE) => {
            // One ptc.e purges every TC entry: this model's PAL_PTCE_INFO would be one
            // iteration (count 1, stride 0), which is what a ptc.e loop then executes.
            gr_no_nat(st, o[0], "ptc.e address")?;
            st.tlb.i.purge_all_tc();
            st.tlb.d.purge_all_tc();
        }
        Op::Tlb(TlbOp::Ptr { data }) => {
            let (rid, va, ps) = purge_range(st, o[0], o[1])?;
            let side = if data { &mut st.tlb.d } else { &mut st.tlb.i };
            side.purge_tr(rid, va, ps);
            side.purge_tc(rid, va, ps);
        }
        Op::Probe { write, imm } => {
            // Operands: r1, r3, r2 or imm2.
            let va = na_operand(st, o[1], "probe address", non_access::PROBE)?;
            let pl = if imm { o[2] as u64 } else { na_operand(st, o[2], "probe level", non_access::PROBE)? };
            let level = probe_level(st, pl);
            let ok = if st.tlb.enabled { probe(st, va, write, level)? } else { true };
            set_gr(st, o[0], u64::from(ok), false)?;
        }
        Op::ProbeFault { read, write } => {
            let va = na_operand(st, o[0], "probe address", non_access::PROBE_FAULT)?;
            let level = probe_level(st, o[1] as u64);
            // With PSR.dt = 0 the address is physical and nothing can fault.
            if st.tlb.enabled && st.psr.contains(Psr::DT) {
                let access = match (read, write) {
                    (true, true) => Access::ReadWrite,
                    (false, true) => Access::Write,
                    _ => Access::Read,
                };
                translate(st, &st.tlb.d, va, access, level, Some(non_access::PROBE_FAULT))?;
            }
        }
        Op::Tpa => {
            let va = na_operand(st, o[1], "tpa address", non_access::TPA)?;
            let pa = if st.tlb.enabled { tpa(st, va)? } else { va };
            set_gr(st, o[0], pa, false)?;
        }
        Op::Tak => {
            let va = na_operand(st, o[1], "tak address", non_access::TAK)?;
            let r = region(st, va);
            // The key of a matching present translation in bits 31:8, else 1 (SDM vol. 3 tak).
            let key = st.tlb.d.lookup(r.rid, va).filter(|e| e.p).map_or(1, |e| u64::from(e.key) << 8);
            set_gr(st, o[0], key, false)?;
        }
        Op::Thash | Op::Ttag => {
            // A NaT address gives an undefined result with its NaT set, not a fault.
            let (va, nat) = gr(st, o[1]);
            let v = if nat {
                0
            } else if e.op == Op::Thash {
                iha(st, va)
            } else {
                vhpt_tag(region(st, va), va)
            };
            set_gr(st, o[0], v, nat)?;
        }
        _ => return Err(unimplemented(ctx, format!("{:?}", e.op))),
    }
    Ok(Flow::Next)
}

/// itc/itr's checks before their operands: PSR.ic (an Illegal Operation, checked before the
/// privilege level: ski's order, reference section 9), then cpl.
fn insert_checks(st: &State, ctx: &Ctx, name: &str) -> Result<(), Trap> {
    if st.psr.contains(Psr::IC) {
        return Err(illegal_operation(&format!("{name} with PSR.ic = 1")));
    }
    if st.psr.cpl() != 0 {
        return Err(privileged_operation(ctx));
    }
    Ok(())
}

/// The entry an insertion of `pte` makes from cr.ifa, cr.itir and the region register, or the
/// Reserved Register/Field fault for a reserved bit, a reserved memory attribute or an
/// unsupported page size.
fn entry_of(st: &State, pte: u64) -> Result<Entry, Trap> {
    let itir = st.cr[cr::ITIR as usize];
    let ifa = st.cr[cr::IFA as usize];
    let ps = (itir >> 2) & 0x3F;
    let ma = (pte >> 2) & 7;
    if pte & PTE_RESERVED != 0 || (1..=3).contains(&ma) {
        return Err(reserved_field(&format!("translation {pte:#x} sets reserved bits or memory attribute {ma}")));
    }
    if itir & ITIR_RESERVED != 0 || !page_size_supported(ps) {
        return Err(reserved_field(&format!("cr.itir {itir:#x}: reserved bits or unsupported page size 2^{ps}")));
    }
    Ok(Entry::new(ifa, region(st, ifa).rid, pte, itir))
}

/// A purge's (rid, va, ps) from r3 (address) and r2 (size in bits 7:2).
fn purge_range(st: &State, r3: i64, r2: i64) -> Result<(u32, u64, u8), Trap> {
    let va = gr_no_nat(st, r3, "purge address")?;
    let size = gr_no_nat(st, r2, "purge size")?;
    let ps = (size >> 2) & 0x3F;
    if !page_size_supported(ps) {
        return Err(reserved_field(&format!("purge size 2^{ps} is not a supported page size")));
    }
    Ok((region(st, va).rid, va, ps as u8))
}

/// An insert or purge meeting a translation register it may not touch: a Machine Check Abort
/// in the SDM, which this model does not deliver.
fn machine_check(ctx: &Ctx, name: &str, data: bool, slot: usize) -> Trap {
    let tr = if data { "dtr" } else { "itr" };
    unimplemented(ctx, format!("{name}: machine check abort (overlaps {tr}[{slot}]; machine checks are not modelled)"))
}

/// A register operand of a non-access instruction: a NaT is a Register NaT Consumption fault
/// with ISR.na and the instruction's code.
fn na_operand(st: &State, r: i64, what: &str, code: u16) -> Result<u64, Trap> {
    match gr(st, r) {
        (_, true) => Err(nat_consumption_non_access(&format!("r{r} used as {what}"), code)),
        (v, false) => Ok(v),
    }
}

/// probe.r/probe.w's answer: the DTLB is searched whatever PSR.dt says (SDM vol. 3 probe); a
/// miss faults as the TLB miss of a non-access reference would, as does a key miss; any other
/// failed check answers 0.
fn probe(st: &State, va: u64, write: bool, level: u8) -> Result<bool, Trap> {
    let access = if write { Access::Write } else { Access::Read };
    let r = region(st, va);
    let Some(e) = st.tlb.d.lookup(r.rid, va) else { return Err(miss(st, va, access, Some(non_access::PROBE))) };
    if st.psr.contains(Psr::PK) && e.p {
        let found = st.ind.pkr.iter().any(|&k| k & 1 != 0 && (k >> 8) & 0xFF_FFFF == u64::from(e.key));
        if !found {
            let r = Reference { va, access, na: Some(non_access::PROBE) };
            return Err(fault(st, r, vector::DKEY_MISS, 0, e.itir(), "key miss"));
        }
    }
    // probe answers for the access rights and keys, not for the access and dirty bits.
    let mut clean = *e;
    clean.a = true;
    clean.d = true;
    Ok(check(st, &clean, va, access, level, Some(non_access::PROBE)).is_ok())
}

/// tpa's translation: the DTLB is searched; a miss, a page not present or a NaT page faults
/// (with ISR.na and code 0), access rights do not matter.
fn tpa(st: &State, va: u64) -> Result<u64, Trap> {
    let r = region(st, va);
    let na = Some(non_access::TPA);
    let Some(e) = st.tlb.d.lookup(r.rid, va) else { return Err(miss(st, va, Access::Read, na)) };
    let at = Reference { va, access: Access::Read, na };
    if !e.p {
        return Err(fault(st, at, vector::PAGE_NOT_PRESENT, 0, e.itir(), "page not present"));
    }
    if e.ma == MA_NATPAGE {
        return Err(fault(st, at, vector::NAT_CONSUMPTION, 0x20, e.itir(), "NaT page consumption"));
    }
    Ok(e.physical(va))
}
