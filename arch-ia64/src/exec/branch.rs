//! Branches, calls and returns with the register stack, loop branches, rfi, epc, break and
//! chk.s (SDM vol. 3 br, rfi, epc, break, chk; `reference/ia64-system.md` sections 3-5).

use super::access::{fr, gr};
use super::interrupt::{break_fault, illegal_operation};
use super::op::{BrKind, Op};
use super::predecode::Exec;
use super::{memory, unimplemented, Ctx, ExecResult, Flow, Trap};
use crate::state::fr::Fr;
use crate::state::psr::Psr;
use crate::state::rse::RseError;
use crate::state::{ar, cr, State};
use emu_core::memory::Memory;

/// A register-stack failure: memory faults of mandatory spills/fills are emulator errors
/// (no TLB is modelled), frame errors are illegal operations.
pub(super) fn rse_trap(ctx: &Ctx, e: RseError) -> Trap {
    match e {
        RseError::Memory(f) => memory(ctx, f),
        other => illegal_operation(&other.to_string()),
    }
}

/// PFS.pfm (37:0), PFS.pec (57:52), PFS.ppl (63:62).
const PFM_MASK: u64 = (1 << 38) - 1;

/// Rotates the rotating predicates p16-p63 one place, as decrementing rrb.pr does.
fn rotate_predicates(st: &mut State) {
    let rot = st.pr >> 16;
    let rotated = ((rot << 1) | (rot >> 47)) & ((1 << 48) - 1);
    st.pr = (st.pr & 0xFFFF) | (rotated << 16);
}

/// One step of a modulo-scheduled loop: rotate registers and write p63 (SDM vol. 3 br.ctop).
fn rotate(st: &mut State, p63: bool) {
    st.set_p(63, p63);
    rotate_predicates(st);
    let c = st.gr.cfm();
    let rotating = c.sor.wrapping_mul(8);
    let rrb_gr = if rotating == 0 { 0 } else { (c.rrb_gr + rotating - 1) % rotating };
    // FR rotation (f32-f127) is not modelled; the predicate values rotate above.
    st.gr.set_rrb(rrb_gr, c.rrb_fr, c.rrb_pr);
}

/// Executes a branch-type instruction. For wtop/wexit `qp_value` is the loop predicate.
pub(super) fn execute(st: &mut State, mem: &mut Memory, e: &Exec, ctx: &Ctx) -> ExecResult {
    let o = &e.ops;
    match e.op {
        Op::Branch { kind, indirect } => branch(st, mem, e, ctx, kind, indirect),
        Op::Rfi => rfi(st, mem, ctx),
        Op::Epc => {
            let pfs = st.ar[ar::PFS as usize];
            let ppl = (pfs >> 62) as u8;
            if ppl < st.psr.cpl() {
                return Err(illegal_operation("epc with PFS.ppl below the current privilege level"));
            }
            if !st.psr.contains(Psr::IT) {
                st.psr = st.psr.with_cpl(0);
            } else if st.tlb.enabled {
                // With the TLB model the page's own ITLB entry decides (TLB, issue 12).
                if let Some(pl) = super::tlb::epc_promotion(st, ctx.ip) {
                    st.psr = st.psr.with_cpl(pl);
                }
            } else if (ctx.gate.0..ctx.gate.1).contains(&ctx.ip) {
                st.psr = st.psr.with_cpl(0);
            }
            Ok(Flow::Next)
        }
        Op::Break => {
            // break.b records 0 in IIM; break.x the low 21 bits of its 62-bit immediate.
            let imm = if e.unit == crate::bundle::SlotUnit::B { 0 } else { (o[0] as u64) & 0x1F_FFFF };
            Err(break_fault(imm))
        }
        Op::ChkS { fp } => {
            let failed = if fp { fr(st, o[0]) == Fr::NATVAL } else { gr(st, o[0]).1 };
            Ok(if failed { Flow::Branch(o[1] as u64) } else { Flow::Next })
        }
        _ => Ok(Flow::Next),
    }
}

/// What `br.call` does besides branching: PFS saves the frame marker, EC and the privilege
/// level, the caller's outputs become the frame, and `b1` (low 3 bits) gets the return bundle
/// `ret`. (Shared by the executor and the block engine's call, issue 17.)
#[inline]
pub(crate) fn call(st: &mut State, b1: u8, ret: u64) {
    let cfm = st.gr.cfm().to_bits();
    let ec = st.ar[ar::EC as usize] & 0x3F;
    st.ar[ar::PFS as usize] = (cfm & PFM_MASK) | (ec << 52) | (u64::from(st.psr.cpl()) << 62);
    st.gr.call();
    st.br[usize::from(b1 & 7)] = ret;
}

/// What `br.ret` does besides branching: the frame PFS.pfm names comes back, EC from PFS.pec,
/// and the privilege level drops to PFS.ppl if that is lower. On an error (a malformed frame,
/// a fill or spill fault) only the register stack may have moved.
#[inline]
fn ret(st: &mut State, mem: &mut Memory) -> Result<(), RseError> {
    let pfs = st.ar[ar::PFS as usize];
    st.gr.ret(pfs & PFM_MASK, mem)?;
    returned(st, pfs);
    Ok(())
}

/// [`ret`] when the returning frame is in the file (issue 17: the block engine's return, no
/// memory traffic, nothing to fail): `false`, having changed nothing, when it would need a
/// fill, a spill or a BSPSTORE move or the frame is malformed; the reference executor then
/// runs the slot.
#[inline]
pub(crate) fn ret_in_file(st: &mut State) -> bool {
    let pfs = st.ar[ar::PFS as usize];
    if !st.gr.ret_in_file(pfs & PFM_MASK) {
        return false;
    }
    returned(st, pfs);
    true
}

/// The part of a return after the frame came back: EC from PFS.pec, the privilege level
/// lowered to PFS.ppl.
#[inline(always)]
fn returned(st: &mut State, pfs: u64) {
    st.ar[ar::EC as usize] = (pfs >> 52) & 0x3F;
    let ppl = (pfs >> 62) as u8;
    if st.psr.cpl() < ppl {
        st.psr = st.psr.with_cpl(ppl);
    }
}

fn branch(st: &mut State, mem: &mut Memory, e: &Exec, ctx: &Ctx, kind: BrKind, indirect: bool) -> ExecResult {
    let o = &e.ops;
    let target_of = |st: &State, i: usize| if indirect { st.br[(o[i] & 7) as usize] & !0xF } else { o[i] as u64 };
    match kind {
        BrKind::Cond => Ok(Flow::Branch(target_of(st, 0))),
        BrKind::Ia => Err(unimplemented(ctx, "br.ia (transfer to the IA-32 instruction set)")),
        BrKind::Call => {
            let target = target_of(st, 1);
            call(st, o[0] as u8, ctx.ip + 16);
            Ok(Flow::Branch(target))
        }
        BrKind::Ret => {
            let target = target_of(st, 0);
            ret(st, mem).map_err(|err| rse_trap(ctx, err))?;
            Ok(Flow::Branch(target))
        }
        BrKind::Cloop => {
            let lc = &mut st.ar[ar::LC as usize];
            if *lc != 0 {
                *lc -= 1;
                Ok(Flow::Branch(o[0] as u64))
            } else {
                Ok(Flow::Next)
            }
        }
        BrKind::Ctop | BrKind::Cexit | BrKind::Wtop | BrKind::Wexit => {
            let top = matches!(kind, BrKind::Ctop | BrKind::Wtop);
            let continuing = match kind {
                BrKind::Ctop | BrKind::Cexit => {
                    let lc = st.ar[ar::LC as usize];
                    if lc != 0 {
                        st.ar[ar::LC as usize] = lc - 1;
                    }
                    lc != 0
                }
                _ => st.p(e.qp),
            };
            let ec = st.ar[ar::EC as usize] & 0x3F;
            let taken_top = if continuing {
                rotate(st, matches!(kind, BrKind::Ctop | BrKind::Cexit));
                true
            } else if ec > 1 {
                st.ar[ar::EC as usize] = ec - 1;
                rotate(st, false);
                true
            } else if ec == 1 {
                st.ar[ar::EC as usize] = 0;
                rotate(st, false);
                false
            } else {
                false
            };
            // *top branches back while the loop continues; *exit branches out when it ends.
            Ok(if taken_top == top { Flow::Branch(o[0] as u64) } else { Flow::Next })
        }
    }
}

fn rfi(st: &mut State, mem: &mut Memory, ctx: &Ctx) -> ExecResult {
    let ipsr = Psr::from_bits_retain(st.cr[cr::IPSR as usize]);
    let iip = st.cr[cr::IIP as usize] & !0xF;
    let ifs = st.cr[cr::IFS as usize];
    if ifs >> 63 == 1 {
        st.gr.rfi_restore(ifs & PFM_MASK, mem).map_err(|err| rse_trap(ctx, err))?;
    }
    let ri = ipsr.ri();
    st.psr = ipsr.with_ri(0);
    Ok(Flow::Rfi(iip, ri))
}
