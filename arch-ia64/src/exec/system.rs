//! Moves to and from application, control, branch and predicate registers and the PSR;
//! the register-stack instructions; probes; ordering and cache instructions (SDM vol. 3;
//! privilege rules per `reference/ia64-system.md` section 9).

use super::access::{gr_no_nat, set_gr};
use super::branch::rse_trap;
use super::interrupt::{illegal_operation, privileged_register, reserved_field};
use super::op::Op;
use super::predecode::Exec;
use super::{unimplemented, Ctx, ExecResult, Flow, Trap};
use crate::state::psr::Psr;
use crate::state::{ar, cr, State};
use emu_core::memory::Memory;

/// The PSR bits `sum`/`rum` and `mov psr.um` may change (user mask, 5:0).
const UM: u64 = 0x3F;
/// The PSR bits `ssm`/`rsm` may change (system mask, 23:0).
const SM: u64 = 0xFF_FFFF;

/// Reads application register `n` as `mov r1=ar` does.
fn read_ar(st: &State, n: u8, ctx: &Ctx) -> Result<u64, Trap> {
    Ok(match n {
        ar::BSP => st.gr.bsp(),
        ar::BSPSTORE => st.gr.bspstore(),
        ar::RNAT => st.gr.rnat(),
        ar::ITC => {
            if st.psr.contains(Psr::SI) && st.psr.cpl() != 0 {
                return Err(privileged_register("ar.itc read with PSR.si at cpl != 0"));
            }
            ctx.itc
        }
        _ => st.ar[usize::from(n & 127)],
    })
}

/// Writes application register `n` as `mov ar=` does.
fn write_ar(st: &mut State, n: u8, v: u64, ctx: &Ctx) -> Result<(), Trap> {
    let rse_mode = st.ar[ar::RSC as usize] & 3;
    match n {
        0..=7 if st.psr.cpl() != 0 => return Err(privileged_register("write to ar.k0-7 at cpl != 0")),
        ar::ITC if st.psr.cpl() != 0 => return Err(privileged_register("write to ar.itc at cpl != 0")),
        ar::BSP => return Err(illegal_operation("ar.bsp is read-only")),
        ar::BSPSTORE | ar::RNAT if rse_mode != 0 => {
            return Err(illegal_operation("ar.bspstore/ar.rnat written with RSC.mode != 0"))
        }
        ar::BSPSTORE => st.gr.set_bspstore(v),
        ar::RNAT => st.gr.set_rnat(v),
        ar::ITC => st.itc_offset = st.itc_offset.wrapping_add(v.wrapping_sub(ctx.itc)),
        ar::RSC => {
            // A privilege level below the current one is raised to it.
            let cpl = u64::from(st.psr.cpl());
            let pl = ((v >> 2) & 3).max(cpl);
            st.ar[ar::RSC as usize] = (v & !0xC) | (pl << 2);
        }
        ar::EC => st.ar[ar::EC as usize] = v & 0x3F,
        _ => st.ar[usize::from(n & 127)] = v,
    }
    Ok(())
}

/// Interruption control registers may only be accessed with PSR.ic = 0.
fn check_cr(st: &State, n: u8) -> Result<(), Trap> {
    if (cr::IPSR..=cr::IHA).contains(&n) && st.psr.contains(Psr::IC) {
        return Err(illegal_operation("interruption control register accessed with PSR.ic = 1"));
    }
    Ok(())
}

/// Executes the system-class instructions.
pub(super) fn execute(st: &mut State, mem: &mut Memory, e: &Exec, ctx: &Ctx) -> ExecResult {
    let o = &e.ops;
    match e.op {
        Op::MovToAr => {
            let v = gr_no_nat(st, o[1], "application register source")?;
            write_ar(st, o[0] as u8, v, ctx)?;
        }
        Op::MovToArImm => write_ar(st, o[0] as u8, o[1] as u64, ctx)?,
        Op::MovFromAr => {
            let v = read_ar(st, o[1] as u8, ctx)?;
            set_gr(st, o[0], v, false)?;
        }
        Op::MovToCr => {
            let n = o[0] as u8;
            check_cr(st, n)?;
            let v = gr_no_nat(st, o[1], "control register source")?;
            // Interrupt controller (kernel harness, issue 14): cr.irr0-3 are read-only,
            // cr.itm arms the timer, cr.eoi retires the vector in service.
            match n {
                cr::IRR0..=cr::IRR3 => return Err(illegal_operation("cr.irr0-3 are read-only")),
                cr::ITM => st.interrupts.write_itm(),
                cr::EOI => st.interrupts.write_eoi(),
                _ => {}
            }
            st.cr[usize::from(n & 127)] = v;
        }
        Op::MovFromCr => {
            let n = o[1] as u8;
            check_cr(st, n)?;
            // Interrupt controller (kernel harness, issue 14): cr.ivr acknowledges, cr.irr
            // reads the pending set.
            let v = match n {
                cr::IVR => st.interrupts.read_ivr(&st.cr),
                cr::IRR0..=cr::IRR3 => st.interrupts.irr(usize::from(n - cr::IRR0)),
                _ => st.cr[usize::from(n & 127)],
            };
            set_gr(st, o[0], v, false)?;
        }
        Op::MovToPsrL => {
            let v = gr_no_nat(st, o[1], "psr source")?;
            st.psr = Psr::from_bits_retain((st.psr.bits() & !0xFFFF_FFFF) | (v & 0xFFFF_FFFF));
        }
        Op::MovToPsrUm => {
            let v = gr_no_nat(st, o[1], "psr.um source")?;
            st.psr = Psr::from_bits_retain((st.psr.bits() & !UM) | (v & UM));
        }
        Op::MovFromPsr => set_gr(st, o[0], st.psr.readable(), false)?,
        Op::MovFromPsrUm => set_gr(st, o[0], st.psr.bits() & UM, false)?,
        Op::Sum | Op::Rum | Op::Ssm | Op::Rsm => {
            let imm = o[0] as u64;
            let field = if matches!(e.op, Op::Sum | Op::Rum) { UM } else { SM };
            if imm & !field != 0 {
                return Err(reserved_field("PSR mask outside the field"));
            }
            let bits = if matches!(e.op, Op::Sum | Op::Ssm) { st.psr.bits() | imm } else { st.psr.bits() & !imm };
            st.psr = Psr::from_bits_retain(bits);
        }
        Op::MovToBr => {
            let v = gr_no_nat(st, o[1], "branch register source")?;
            st.br[(o[0] & 7) as usize] = v;
        }
        Op::MovFromBr => set_gr(st, o[0], st.br[(o[1] & 7) as usize], false)?,
        Op::MovToPr => {
            let v = gr_no_nat(st, o[1], "predicate source")?;
            // mask17 bit 16 stands for p16-p63; p0 is never written.
            let mask = (o[2] as u64 & 0xFFFE) | if (o[2] as u64) & 0x1_0000 != 0 { !0xFFFF } else { 0 };
            st.pr = ((st.pr & !mask) | (v & mask)) | 1;
        }
        Op::MovToPrRot => {
            let v = o[1] as u64;
            st.pr = (st.pr & 0xFFFF) | (v & !0xFFFF);
        }
        Op::MovFromPr => set_gr(st, o[0], st.pr | 1, false)?,
        Op::MovFromIp => set_gr(st, o[0], ctx.ip, false)?,
        Op::Nop | Op::Fence | Op::Srlz { .. } | Op::Brp => {}
        Op::Flushrs => st.gr.flushrs(mem).map_err(|e| rse_trap(ctx, e))?,
        Op::Loadrs => {
            let rsc = st.ar[ar::RSC as usize];
            if rsc & 3 != 0 {
                return Err(illegal_operation("loadrs with RSC.mode != 0"));
            }
            let bytes = ((rsc >> 16) & 0x3FFF) & !7;
            st.gr.loadrs(bytes, mem).map_err(|e| rse_trap(ctx, e))?;
        }
        Op::Alloc => {
            // The row holds sof, sol and the rotating size in registers; the CFM counts sor in 8s.
            let (sof, sol, sor) = (o[2] as u8, o[3] as u8, (o[4] / 8) as u8);
            let pfs = st.ar[ar::PFS as usize];
            st.gr.alloc(sof, sol, sor, mem).map_err(|e| rse_trap(ctx, e))?;
            set_gr(st, o[0], pfs, false)?;
        }
        Op::Cover => {
            let cfm = st.gr.cover().to_bits();
            if !st.psr.contains(Psr::IC) {
                st.cr[cr::IFS as usize] = cfm | (1 << 63);
            }
        }
        Op::Clrrrb { pr_only } => {
            let c = st.gr.cfm();
            if pr_only {
                st.gr.set_rrb(c.rrb_gr, c.rrb_fr, 0);
            } else {
                st.gr.set_rrb(0, 0, 0);
            }
        }
        Op::Bsw { bank } => st.psr.set(Psr::BN, bank == 1),
        // vmsw (issue 12): the SDM's `if (!implemented_vm()) illegal_operation_fault()` comes
        // first; the Itanium 2 modelled (cpuid: Madison) has no virtual machine features.
        Op::Vmsw { .. } => return Err(illegal_operation("vmsw: PSR.vm is not implemented on Itanium 2")),
        _ => return Err(unimplemented(ctx, format!("{:?}", e.op))),
    }
    Ok(Flow::Next)
}
