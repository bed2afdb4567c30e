//! Moves to and from the indirect register files (SDM vol. 3 `mov` indirect; privilege per
//! `reference/ia64-system.md` section 9). The TLB instructions are in `tlb.rs`.

use super::access::{gr_no_nat, set_gr};
use super::interrupt::{privileged_register, reserved_field};
use super::op::Op;
use super::predecode::Exec;
use super::{unimplemented, Ctx, ExecResult, Flow, Trap};
use crate::state::indirect::{File, CPUID};
use crate::state::State;

/// Reserved bits of a region register: rv bit 1 and 63:32 (SDM vol. 2 Figure 4-x, RR format).
const RR_RESERVED: u64 = 0xFFFF_FFFF_0000_0002;
/// Reserved bits of a protection key register: rv 7:4 and 63:32 (key 31:8, xd/rd/wd/v 3:0).
const PKR_RESERVED: u64 = 0xFFFF_FFFF_0000_00F0;
/// PMC.pm, the privileged-monitor bit of a generic counter's configuration register.
const PMC_PM: u64 = 1 << 6;

/// Executes an indirect-file move.
pub(super) fn execute(st: &mut State, e: &Exec, ctx: &Ctx) -> ExecResult {
    let o = &e.ops;
    match e.op {
        Op::MovToInd(file) => {
            // Operand order: file[r3] (index), r2 (value).
            let index = gr_no_nat(st, o[0], "indirect register index")?;
            let value = gr_no_nat(st, o[1], "indirect register value")?;
            write(st, file, index, value)?;
        }
        Op::MovFromInd(file) => {
            let index = gr_no_nat(st, o[1], "indirect register index")?;
            let v = read(st, file, index)?;
            set_gr(st, o[0], v, false)?;
        }
        // The model-specific registers have no architectural contents to model.
        Op::MovMsr => return Err(unimplemented(ctx, "mov to/from msr[] (model-specific registers are not modelled)")),
        _ => return Err(unimplemented(ctx, format!("{:?}", e.op))),
    }
    Ok(Flow::Next)
}

/// The index an access uses: the region number r3{63:61} for rr, r3{7:0} for the others.
fn slot_of(file: File, index: u64) -> usize {
    match file {
        File::Rr => (index >> 61) as usize,
        _ => (index & 0xFF) as usize,
    }
}

fn write(st: &mut State, file: File, index: u64, value: u64) -> Result<(), Trap> {
    let i = slot_of(file, index);
    let ind = &mut st.ind;
    match file {
        File::Rr => {
            if value & RR_RESERVED != 0 {
                return Err(reserved_field(&format!("rr[{i}] value 0x{value:x} sets reserved bits")));
            }
            ind.rr[i] = value;
        }
        File::Pkr => {
            let Some(r) = ind.pkr.get_mut(i) else {
                return Err(reserved_field(&format!("pkr[{i}] is not implemented")));
            };
            if value & PKR_RESERVED != 0 {
                return Err(reserved_field(&format!("pkr[{i}] value 0x{value:x} sets reserved bits")));
            }
            *r = value;
        }
        File::Dbr | File::Ibr => {
            let regs = if file == File::Dbr { &mut ind.dbr } else { &mut ind.ibr };
            let Some(r) = regs.get_mut(i) else {
                return Err(reserved_field(&format!("{}[{i}] is not implemented", file.name())));
            };
            *r = value;
        }
        // Writes to unimplemented PMC/PMD registers are ignored (SDM vol. 2 section 7.2.1).
        File::Pmc => {
            if let Some(r) = ind.pmc.get_mut(i) {
                *r = value;
            }
        }
        File::Pmd => {
            if (4..8).contains(&i) {
                ind.pmd[i] = value;
            }
        }
        // gas has no form writing cpuid; the decoder never yields one.
        File::Cpuid => return Err(reserved_field("cpuid is read-only")),
    }
    Ok(())
}

fn read(st: &State, file: File, index: u64) -> Result<u64, Trap> {
    let i = slot_of(file, index);
    let ind = &st.ind;
    let missing = || reserved_field(&format!("{}[{i}] is not implemented", file.name()));
    Ok(match file {
        File::Rr => ind.rr[i],
        File::Pkr => *ind.pkr.get(i).ok_or_else(missing)?,
        File::Dbr => *ind.dbr.get(i).ok_or_else(missing)?,
        File::Ibr => *ind.ibr.get(i).ok_or_else(missing)?,
        // Unimplemented PMC/PMD registers read as 0 (SDM vol. 2 section 7.2.1).
        File::Pmc => ind.pmc.get(i).copied().unwrap_or(0),
        File::Pmd => {
            if !(4..8).contains(&i) {
                return Ok(0);
            }
            // A privileged monitor's counter at cpl != 0 (reference section 9).
            if st.psr.cpl() != 0 && ind.pmc[i] & PMC_PM != 0 {
                return Err(privileged_register(&format!("pmd[{i}] of a privileged monitor at cpl != 0")));
            }
            ind.pmd[i]
        }
        File::Cpuid => *CPUID.get(i).ok_or_else(missing)?,
    })
}
