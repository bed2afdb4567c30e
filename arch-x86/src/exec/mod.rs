//! Instruction semantics: one function per operation family over an execution context
//! that records the step's memory accesses for the timing model.

pub(crate) mod alu;
mod bits;
pub mod flags;
pub(crate) mod flow;
mod muldiv;
pub(crate) mod shift;

use emu_core::memory::{MemFault, Memory};

use crate::decode::{Insn, MemRef, Operand, Seg};
use crate::optable::{op_info, Sem};
use crate::state::{mask, X86State};

/// Why an instruction could not complete (the CPU adds the instruction's text and bytes).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Trap {
    /// A guest memory access faulted.
    Mem(MemFault),
    /// `div`/`idiv` by zero or with a quotient that does not fit (#DE).
    Divide,
    /// The operation or this form of it is not implemented.
    Unsupported,
}

impl From<MemFault> for Trap {
    fn from(f: MemFault) -> Trap {
        Trap::Mem(f)
    }
}

/// Where control goes after an instruction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flow {
    /// Fall through.
    Next,
    /// Transfer to an address (taken branch, call, ret).
    Jump(u64),
    /// `hlt`.
    Halt,
}

/// One step's view of the machine.
#[derive(Debug)]
pub struct Ctx<'a> {
    /// Registers.
    pub st: &'a mut X86State,
    /// Guest memory.
    pub mem: &'a mut Memory,
    /// First data load of the step: address and size.
    pub load: Option<(u64, u8)>,
    /// First data store of the step.
    pub store: Option<(u64, u8)>,
    /// The TSC value rdtsc/rdtscp return (set by the CPU before executing them).
    pub tsc: u64,
}

impl<'a> Ctx<'a> {
    /// A context with no accesses recorded yet.
    pub fn new(st: &'a mut X86State, mem: &'a mut Memory, tsc: u64) -> Ctx<'a> {
        Ctx { st, mem, load: None, store: None, tsc }
    }

    /// Effective address of `m` (segment base included unless `lea`).
    #[inline]
    pub fn ea(&self, m: &MemRef, with_seg: bool) -> u64 {
        let mut a = m.disp as u64;
        if let Some(b) = m.base {
            a = a.wrapping_add(self.st.reg(b));
        }
        if let Some(i) = m.index {
            a = a.wrapping_add(self.st.reg(i).wrapping_mul(u64::from(m.scale)));
        }
        if with_seg {
            a = a.wrapping_add(match m.seg {
                Seg::Flat => 0,
                Seg::Fs => self.st.fs_base,
                Seg::Gs => self.st.gs_base,
            });
        }
        a
    }

    /// Reads `size` bytes at `addr`.
    #[inline]
    pub fn load(&mut self, addr: u64, size: u8) -> Result<u64, Trap> {
        self.load.get_or_insert((addr, size));
        Ok(self.mem.read_sized(addr, usize::from(size))?)
    }

    /// Writes `size` bytes at `addr`.
    #[inline]
    pub fn store(&mut self, addr: u64, size: u8, v: u64) -> Result<(), Trap> {
        self.store.get_or_insert((addr, size));
        Ok(self.mem.write_sized(addr, usize::from(size), v)?)
    }

    /// Reads operand `o` as `size` bytes, zero-extended (immediates are masked).
    #[inline]
    pub fn read(&mut self, o: &Operand, size: u8) -> Result<u64, Trap> {
        match o {
            Operand::Reg(g) => Ok(self.st.get(*g) & mask(size)),
            Operand::Imm(v) => Ok(*v as u64 & mask(size)),
            Operand::Mem(m) => {
                let a = self.ea(m, true);
                self.load(a, size)
            }
            Operand::None => Err(Trap::Unsupported),
        }
    }

    /// Writes operand `o` with the low `size` bytes of `v`.
    #[inline]
    pub fn write(&mut self, o: &Operand, size: u8, v: u64) -> Result<(), Trap> {
        match o {
            Operand::Reg(g) => {
                self.st.set(*g, v & mask(size));
                Ok(())
            }
            Operand::Mem(m) => {
                let a = self.ea(m, true);
                self.store(a, size, v)
            }
            _ => Err(Trap::Unsupported),
        }
    }

    /// Pushes a `size`-byte value.
    #[inline]
    pub fn push(&mut self, size: u8, v: u64) -> Result<(), Trap> {
        let sp = self.st.reg(4).wrapping_sub(u64::from(size));
        self.store(sp, size, v)?;
        self.st.set_reg(4, sp);
        Ok(())
    }

    /// Pops a `size`-byte value.
    #[inline]
    pub fn pop(&mut self, size: u8) -> Result<u64, Trap> {
        let sp = self.st.reg(4);
        let v = self.load(sp, size)?;
        self.st.set_reg(4, sp.wrapping_add(u64::from(size)));
        Ok(v)
    }
}

/// Executes `insn` (rip still points at it; the caller moves it by the returned [`Flow`]).
///
/// # Errors
/// A [`Trap`] for faults, #DE and unimplemented operations.
pub fn execute(insn: &Insn, cx: &mut Ctx<'_>) -> Result<Flow, Trap> {
    // The families compute with the operand size; a form whose size is not 1, 2, 4 or 8
    // bytes (say a mov to a control register, whose operand is no GPR) is refused here, once.
    let info = op_info(insn.op);
    if info.sized && !matches!(insn.size, 1 | 2 | 4 | 8) {
        return Err(Trap::Unsupported);
    }
    match info.sem {
        Sem::Moves => alu::moves(insn, cx),
        Sem::Binary => alu::binary(insn, cx),
        Sem::Unary => alu::unary(insn, cx),
        Sem::Shift => shift::shift(insn, cx),
        Sem::DoubleShift => shift::double(insn, cx),
        Sem::Bits => bits::bits(insn, cx),
        Sem::MulDiv => muldiv::muldiv(insn, cx),
        Sem::Flow => flow::flow(insn, cx),
        Sem::System => flow::system(insn, cx),
        Sem::Hint => Ok(Flow::Next),
        Sem::None => Err(Trap::Unsupported),
    }
}

#[cfg(test)]
mod tests;
