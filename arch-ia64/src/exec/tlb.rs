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
use super::interrupt::{illegal_operation, nat_consumption_non_access, privileged_operation, reserved_field, vector};
use super::op::{Op, TlbOp};
use super::predecode::Exec;
use super::{unimplemented, Ctx, ExecResult, Flow, Trap};
use crate::state::psr::Psr;
use crate::state::tlb::{page_size_supported, vhpt_tag, Access, Entry, ITIR_RESERVED, MA_NATPAGE, N_TR, PTE_RESERVED};
use crate::state::{cr, State};

use super::translate::{check, fault, iha, miss, region, translate, Reference};
pub(super) use super::translate::{data_address, data_address_as, epc_promotion, non_access};
pub use super::translate::{instruction_address, rse_references};

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
