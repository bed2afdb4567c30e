//! Execution of IA-64 instructions: predecoded records, one semantic function per
//! operation, interruptions. Semantics touch architectural state and memory only; the
//! timing model is fed separately by the CPU (STYLE.md section 4).

mod access;
mod alat; // memory forms (issue 12)
mod alu;
mod branch;
mod fp;
pub mod fp_arith; // FP arithmetic forms (issue 12)
pub mod fp_bits;
mod indirect;
pub mod interrupt;
mod mem;
// multimedia (issue 12)
mod mem16; // memory forms (issue 12)
pub mod mm;
pub mod op;
pub mod predecode;
// system forms (w7-isys): handlers chosen at predecode for the kernel paths' forms.
pub mod special;
mod special_run;
mod system;
mod tlb;
mod translate;
mod unaligned; // memory forms (issue 12)

/// The fast engine's loads and stores share the reference executor's byte-order rule (issue 17).
pub(crate) use access::{read_plain, write_plain};
pub(crate) use branch::{call, ret_in_file};
// The block engine's compare and field ops share the reference executor's rules.
pub(crate) use alu::{mask, relation};
/// The system forms' handlers that need no context run as block operations (w8-iv2).
pub(crate) use special_run::run_plain as run_special;
/// Instruction-address translation for the fetch, and the RSE's untranslated references (TLB,
/// issue 12).
pub use tlb::{instruction_address, rse_references};

use crate::state::State;
use emu_core::memory::{MemFault, Memory};
use interrupt::Interruption;
use op::Op;
use predecode::Exec;

/// An emulator failure while executing guest code (not a guest event).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ExecError {
    /// No predecoded code at the address (outside every code section).
    #[error("no code at 0x{pc:x} (slot {slot}): execution left the loaded code")]
    NoCode {
        /// Bundle address.
        pc: u64,
        /// Slot.
        slot: u8,
    },
    /// The slot holds bits no instruction form describes.
    #[error("0x{pc:x} slot {slot}: undecodable instruction bits 0x{bits:011x}")]
    Undecodable {
        /// Bundle address.
        pc: u64,
        /// Slot.
        slot: u8,
        /// The raw slot.
        bits: u64,
    },
    /// An instruction whose semantics this model does not implement.
    #[error("0x{pc:x} slot {slot}: `{what}` is not implemented by the ia64 core")]
    Unimplemented {
        /// Bundle address.
        pc: u64,
        /// Slot.
        slot: u8,
        /// What it was (mnemonic and detail).
        what: String,
    },
    /// A memory access outside the mapped regions, or a protection failure.
    #[error("0x{pc:x} slot {slot}: {fault}")]
    Memory {
        /// Bundle address.
        pc: u64,
        /// Slot.
        slot: u8,
        /// The access that failed.
        fault: MemFault,
    },
    /// An interruption with no handler to take it (cr.iva is zero).
    #[error("0x{pc:x} slot {slot}: {what} (vector 0x{vector:04x}) with no interruption vector table (cr.iva = 0)")]
    Unhandled {
        /// Bundle address.
        pc: u64,
        /// Slot.
        slot: u8,
        /// Vector offset.
        vector: u16,
        /// What happened, e.g. "break 0x100000" or "privileged operation: rfi at cpl 3".
        what: String,
    },
    // stubs (issue 14, i14-link)
    /// A stub bound to an undefined symbol failed (its own message), or its return did.
    #[error("0x{pc:x}: stub `{name}`: {message}")]
    Stub {
        /// The stub's entry address.
        pc: u64,
        /// The symbol it binds.
        name: String,
        /// What went wrong.
        message: String,
    },
}

/// Why an instruction did not complete normally. Boxed: the common case is `Ok`, and a
/// small result keeps every instruction's return cheap.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Trap {
    /// A guest interruption (fault or trap) to deliver.
    Guest(Box<Interruption>),
    /// An emulator failure.
    Error(Box<ExecError>),
}

/// Where execution continues after an instruction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flow {
    /// The next slot.
    Next,
    /// A taken branch to a bundle address.
    Branch(u64),
    /// rfi: to this bundle and slot (the PSR and frame have been restored).
    Rfi(u64, u8),
}

/// What semantics may know besides the state: where they are and the clock.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ctx {
    /// Address of the bundle being executed.
    pub ip: u64,
    /// Slot being executed.
    pub slot: u8,
    /// ar.itc at the cycle this instruction issues.
    pub itc: u64,
    /// The range of addresses from which `epc` promotes to cpl 0 (the gate page).
    pub gate: (u64, u64),
}

/// Result of one semantic function.
pub type ExecResult = Result<Flow, Trap>;

/// Executes `e` (whose qualifying predicate is true).
pub fn execute(st: &mut State, mem: &mut Memory, e: &Exec, ctx: &Ctx) -> ExecResult {
    if e.privileged && st.psr.cpl() != 0 {
        return Err(interrupt::privileged_operation(ctx));
    }
    // system forms (w7-isys): the form's handler chosen at predecode, when its common case
    // applies (it changes nothing when it declines).
    if let Some(flow) = special_run::run(e.special, st, mem, ctx) {
        return Ok(flow);
    }
    execute_generic(st, mem, e, ctx)
}

/// Executes `e` (whose qualifying predicate is true) by the generic semantics only, without
/// the handler [`special`] chose for it: what [`execute`] falls back to, and the oracle the
/// specialised handlers are tested against (`tests/ia64_sys_forms_diff.rs`).
pub fn execute_generic(st: &mut State, mem: &mut Memory, e: &Exec, ctx: &Ctx) -> ExecResult {
    if e.privileged && st.psr.cpl() != 0 {
        return Err(interrupt::privileged_operation(ctx));
    }
    match e.op {
        Op::Add { .. }
        | Op::Sub { .. }
        | Op::Addp4
        | Op::And
        | Op::Andcm
        | Op::Or
        | Op::Xor
        | Op::Shladd { .. }
        | Op::AddImm
        | Op::SubImm
        | Op::AndImm
        | Op::AndcmImm
        | Op::OrImm
        | Op::XorImm
        | Op::Addp4Imm
        | Op::ShlVar
        | Op::ShrVar { .. }
        | Op::Shrp
        | Op::Extr { .. }
        | Op::DepZ
        | Op::DepZImm
        | Op::DepImm1
        | Op::Dep
        | Op::Zxt(_)
        | Op::Sxt(_)
        | Op::Movl => alu::integer(st, e, ctx),
        Op::Cmp { .. } | Op::Tbit { .. } | Op::Tnat { .. } => alu::compare(st, e, ctx),
        Op::Load { .. }
        | Op::Store { .. }
        | Op::LoadFp { .. }
        | Op::LoadFpPair { .. }
        | Op::StoreFp { .. }
        | Op::Lfetch { .. }
        | Op::Xchg { .. }
        | Op::Cmpxchg { .. }
        | Op::Fetchadd { .. } => mem::access(st, mem, e, ctx),
        // memory forms (issue 12)
        Op::LoadAlat { .. } | Op::LoadFpAlat { .. } | Op::ChkA { .. } | Op::Invala | Op::InvalaE { .. } => {
            alat::execute(st, mem, e, ctx)
        }
        Op::Load16 | Op::Store16 | Op::Cmp8xchg16 => mem16::execute(st, mem, e, ctx),
        Op::Getf { .. } | Op::Setf { .. } | Op::Fma { .. } | Op::Xma { .. } => fp::execute(st, e, ctx),
        // F unit (issue 12): the merges moved here from fp.rs (they need no arithmetic).
        Op::Fmerge { .. }
        | Op::Fselect
        | Op::FpBits(_)
        | Op::Fpmerge { .. }
        | Op::Fclass { .. }
        | Op::Fsetc { .. }
        | Op::Fclrf { .. } => fp_bits::execute(st, e, ctx),
        // FP arithmetic forms (issue 12)
        Op::FpArith { .. } => fp_arith::execute(st, e, ctx),
        Op::Branch { .. } | Op::Rfi | Op::Epc | Op::Break | Op::ChkS { .. } => branch::execute(st, mem, e, ctx),
        Op::MovToInd(_) | Op::MovFromInd(_) | Op::MovMsr => indirect::execute(st, e, ctx),
        // TLB, issue 12.
        Op::Tlb(_) | Op::Probe { .. } | Op::ProbeFault { .. } | Op::Thash | Op::Ttag | Op::Tpa | Op::Tak => {
            tlb::execute(st, e, ctx)
        }
        // multimedia (issue 12)
        Op::Mm(m) => mm::execute(st, e, ctx, m),
        _ => system::execute(st, mem, e, ctx),
    }
}

/// What an instruction whose qualifying predicate is false still does: the `.unc`
/// compares clear both their targets.
pub fn nullified(st: &mut State, e: &Exec) {
    alu::predicated_off(st, e);
    fp_bits::predicated_off(st, e);
    fp_arith::predicated_off(st, e); // FP arithmetic forms (issue 12)
}

/// Shorthand for an emulator error at the current instruction.
fn unimplemented(ctx: &Ctx, what: impl Into<String>) -> Trap {
    Trap::Error(Box::new(ExecError::Unimplemented { pc: ctx.ip, slot: ctx.slot, what: what.into() }))
}

/// A memory fault at the current instruction.
fn memory(ctx: &Ctx, fault: MemFault) -> Trap {
    Trap::Error(Box::new(ExecError::Memory { pc: ctx.ip, slot: ctx.slot, fault }))
}
