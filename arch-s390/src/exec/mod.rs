//! Executing one decoded instruction against the state and memory. The families live in
//! [`alu`] (register arithmetic, logic, shifts, rotates, multiply/divide), [`flow`]
//! (branches, load/store on condition), [`storage`] (stores, SI/SIL/SS, multiple and interlocked
//! forms) and [`system`] (timers, PSW, SVC). The condition code is exact for every form.

mod alu;
mod flow;
mod storage;
mod system;

#[cfg(test)]
mod tests;

// The block engine's handlers (issue 17) share the reference semantics.
pub(crate) use alu::{alu, compare, shift};

use emu_core::memory::{MemFault, Memory};

use crate::decode::{Insn, MemRef};
use crate::optable::{Op, Second};
use crate::state::S390State;

/// Program-interruption codes the core raises.
pub mod pgm {
    /// Privileged operation.
    pub const PRIVILEGED: u16 = 0x0002;
    /// Specification (odd register of an even/odd pair).
    pub const SPECIFICATION: u16 = 0x0006;
    /// Fixed-point divide.
    pub const FIXED_DIVIDE: u16 = 0x0009;
}

/// What an instruction did to control flow.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flow {
    /// Fall through.
    Next,
    /// Branch to the address.
    Jump(u64),
    /// SVC with its number.
    Svc(u8),
    /// LPSWE loaded this PSW (mask with CC, address).
    Lpswe(u64, u64),
    /// A program interruption with its code (the instruction is suppressed or completed).
    Program(u16),
}

/// Why an instruction could not execute (emulator failures, not guest events).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Trap {
    /// A data access faulted.
    Mem(MemFault),
    /// Not in the supported subset.
    Unsupported,
}

impl From<MemFault> for Trap {
    fn from(f: MemFault) -> Trap {
        Trap::Mem(f)
    }
}

/// Everything one instruction sees.
pub struct Ctx<'a> {
    /// Registers and PSW.
    pub st: &'a mut S390State,
    /// Memory (big-endian).
    pub mem: &'a mut Memory,
    /// The CPU timer at this instruction's issue.
    pub cpu_timer: u64,
    /// The TOD clock at this instruction's issue.
    pub tod: u64,
    /// Set by SPT: the new CPU timer value.
    pub set_cpu_timer: Option<u64>,
    /// Bytes an SS instruction processed (timing).
    pub ss_len: u64,
}

impl<'a> Ctx<'a> {
    /// A context with the clocks read at issue.
    pub fn new(st: &'a mut S390State, mem: &'a mut Memory, cpu_timer: u64, tod: u64) -> Ctx<'a> {
        Ctx { st, mem, cpu_timer, tod, set_cpu_timer: None, ss_len: 0 }
    }

    /// The effective address of a storage operand (64-bit addressing).
    #[inline]
    pub fn ea(&self, m: MemRef) -> u64 {
        let b = m.base.map_or(0, |r| self.st.reg(r));
        let x = m.index.map_or(0, |r| self.st.reg(r));
        b.wrapping_add(x).wrapping_add(m.disp as u64)
    }

    /// Reads `w` bytes big-endian.
    #[inline]
    pub fn read(&self, addr: u64, w: u8) -> Result<u64, Trap> {
        Ok(self.mem.read_sized(addr, usize::from(w))?)
    }

    /// Writes the low `w` bytes of `v` big-endian.
    #[inline]
    pub fn write(&mut self, addr: u64, w: u8, v: u64) -> Result<(), Trap> {
        Ok(self.mem.write_sized(addr, usize::from(w), v & mask(w))?)
    }

    /// The second operand per the shape (storage, register or immediate), raw (not extended).
    #[inline]
    pub fn second(&self, i: &Insn, w: u8) -> Result<u64, Trap> {
        match i.shape.second {
            Second::Mem => self.read(self.ea(i.m(0)), w),
            Second::Gpr(k) => Ok(self.st.reg(i.r(usize::from(k))) & mask(w)),
            Second::Imm(k) => Ok(i.i(usize::from(k)) as u64 & mask(w)),
            Second::None => Err(Trap::Unsupported),
        }
    }

    /// Whether condition mask `m` selects the current CC.
    #[inline]
    pub fn cond(&self, m: u8) -> bool {
        (m >> (3 - (self.st.cc & 3))) & 1 != 0
    }
}

/// All ones in the low `w` bytes.
#[inline]
pub fn mask(w: u8) -> u64 {
    match w {
        1 => 0xff,
        2 => 0xffff,
        4 => 0xffff_ffff,
        _ => u64::MAX,
    }
}

/// `v`'s low `w` bytes, sign- or zero-extended to 64 bits.
#[inline]
pub fn ext(v: u64, w: u8, sx: bool) -> u64 {
    let v = v & mask(w);
    if !sx || w >= 8 {
        return v;
    }
    let bits = u32::from(w) * 8;
    let shift = 64 - bits;
    (((v << shift) as i64) >> shift) as u64
}

/// Bytes of an operation width (`g`: 64-bit).
#[inline]
pub fn width(g: bool) -> u8 {
    if g {
        8
    } else {
        4
    }
}

/// CC of a signed result at width `w`: 0 zero, 1 negative, 2 positive.
#[inline]
pub fn cc_signed(v: u64, w: u8) -> u8 {
    let s = ext(v, w, true) as i64;
    match s.cmp(&0) {
        std::cmp::Ordering::Equal => 0,
        std::cmp::Ordering::Less => 1,
        std::cmp::Ordering::Greater => 2,
    }
}

/// CC of a comparison: 0 equal, 1 first low, 2 first high.
#[inline]
pub fn cc_cmp<T: Ord>(a: T, b: T) -> u8 {
    match a.cmp(&b) {
        std::cmp::Ordering::Equal => 0,
        std::cmp::Ordering::Less => 1,
        std::cmp::Ordering::Greater => 2,
    }
}

/// Writes an operation result to r1: all 64 bits, or the low half for 32-bit operations.
#[inline]
pub fn put(st: &mut S390State, r: u8, g: bool, v: u64) {
    if g {
        st.set_reg(r, v);
    } else {
        st.set_reg32(r, v);
    }
}

/// Executes `i`.
///
/// # Errors
/// A data access fault, or an unsupported instruction.
pub fn execute(i: &Insn, cx: &mut Ctx<'_>) -> Result<Flow, Trap> {
    match i.op {
        Op::Load { .. }
        | Op::LoadTest { .. }
        | Op::Larl
        | Op::La
        | Op::Arith { .. }
        | Op::Cmp { .. }
        | Op::Part { .. }
        | Op::Comp { .. }
        | Op::Shift { .. }
        | Op::Rot { .. }
        | Op::MulPair { .. }
        | Op::DivPair { .. }
        | Op::DivSingle { .. }
        | Op::Flogr
        | Op::Ipm
        | Op::Ldgr
        | Op::Lgdr => alu::execute(i, cx),
        Op::Brc
        | Op::Bcr
        | Op::Bc
        | Op::Bras
        | Op::Bas { .. }
        | Op::Brct { .. }
        | Op::Bctr { .. }
        | Op::CmpBranch { .. }
        | Op::LoadCond { .. }
        | Op::StoreCond { .. } => flow::execute(i, cx),
        Op::LoadRel { .. }
        | Op::Store { .. }
        | Op::StoreRel { .. }
        | Op::Si { .. }
        | Op::Sil { .. }
        | Op::Ss { .. }
        | Op::Stm { .. }
        | Op::Lm { .. }
        | Op::LoadAndOp { .. }
        | Op::Ic => storage::execute(i, cx),
        Op::Stpt | Op::Spt | Op::Stck | Op::Ectg | Op::Svc | Op::Lpswe | Op::Ssm | Op::StxSm { .. } => {
            system::execute(i, cx)
        }
        Op::PrivOther | Op::Unsupported => Err(Trap::Unsupported),
    }
}
