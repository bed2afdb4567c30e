//! Specialised handlers for the forms compiled kernel paths and the bench loops run most (issue
//! 17): each [`Fast`] variant carries its operands pre-extracted from the decoded [`Insn`]
//! (register numbers, masked immediates, a resolved memory operand), and [`Fast::exec`] does
//! what [`crate::exec::execute`] does for that form, in the same order (every read and fault
//! before the first write), so a fault leaves the same state. Every other form is
//! [`Fast::Generic`] and goes through the executor.

use emu_core::memory::Memory;

use crate::decode::{Cond, Insn, MemRef, Op, Operand, Seg};
use crate::exec::alu::binary_of;
use crate::exec::flow::holds;
use crate::exec::shift::compute;
use crate::exec::{Flow, Trap};
use crate::optable::{op_info, Sem};
use crate::state::flags::{AF, OF, PF, SF, STATUS, ZF};
use crate::state::{mask, X86State};

use super::Rec;

/// "No register" in a [`Mem`] operand.
const NO_REG: u8 = 16;

/// A memory operand with its registers as plain numbers ([`NO_REG`] for none).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Mem {
    base: u8,
    index: u8,
    scale: u8,
    seg: Seg,
    disp: u64,
}

impl Mem {
    fn of(m: &MemRef) -> Option<Mem> {
        let reg = |r: Option<u8>| match r {
            None => Some(NO_REG),
            Some(n) if n < 16 => Some(n),
            Some(_) => None,
        };
        Some(Mem { base: reg(m.base)?, index: reg(m.index)?, scale: m.scale, seg: m.seg, disp: m.disp as u64 })
    }

    /// The effective address, as [`crate::exec::Ctx::ea`] computes it.
    #[inline(always)]
    fn ea(&self, st: &X86State, with_seg: bool) -> u64 {
        let mut a = self.disp;
        if let Some(&b) = st.gpr.get(usize::from(self.base)) {
            a = a.wrapping_add(b);
        }
        if let Some(&i) = st.gpr.get(usize::from(self.index)) {
            a = a.wrapping_add(i.wrapping_mul(u64::from(self.scale)));
        }
        if with_seg {
            a = a.wrapping_add(match self.seg {
                Seg::Flat => 0,
                Seg::Fs => st.fs_base,
                Seg::Gs => st.gs_base,
            });
        }
        a
    }
}

/// A source operand: a full register (masked to the operation size when read) or an
/// immediate already masked to it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Src {
    Reg(u8),
    Imm(u64),
}

impl Src {
    #[inline(always)]
    fn get(self, st: &X86State, w: u8) -> u64 {
        match self {
            Src::Reg(r) => get(st, r) & mask(w),
            Src::Imm(v) => v,
        }
    }
}

/// One pre-extracted form. Register operands are whole registers or their low 32 bits (`w` 8
/// or 4: a write of 4 zero-extends); memory operands may be 1, 2, 4 or 8 bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Fast {
    /// Anything else: through [`crate::exec::execute`].
    Generic,
    /// nop, endbr64, pause, fences: no architectural effect.
    Nop,
    /// `mov r, r`.
    MovRR { w: u8, d: u8, s: u8 },
    /// `mov r, imm` (the immediate masked to the size: a 32-bit write zero-extends).
    MovRI { d: u8, v: u64 },
    /// `mov r, [m]`.
    Load { w: u8, d: u8, m: Mem },
    /// `mov [m], r/imm`.
    Store { w: u8, s: Src, m: Mem },
    /// `lea r, [m]`.
    Lea { w: u8, d: u8, m: Mem },
    /// add/adc/sub/sbb/and/or/xor/cmp/test `r, r/imm`.
    Alu { op: Op, w: u8, d: u8, s: Src },
    /// The same ops with a memory source: `op r, [m]`.
    AluLoad { op: Op, w: u8, d: u8, m: Mem },
    /// The same ops with a memory destination: `op [m], r/imm` (cmp/test only read it).
    AluMem { op: Op, w: u8, m: Mem, s: Src },
    /// `inc r` / `dec r`.
    IncDec { inc: bool, w: u8, d: u8 },
    /// shl/shr/sar/rol/ror `r, imm` (count already masked).
    ShiftImm { op: Op, w: u8, d: u8, count: u32 },
    /// `cmp`/`test` of an 8- or 16-bit register (not ah..bh) with a register or immediate:
    /// flags only, so no merge.
    CmpNarrow { op: Op, w: u8, d: u8, s: Src },
    /// `movzx`/`movsx`/`movsxd r, r`: `from` bytes of `s` (not ah..bh) extended to `w`.
    Extend { signed: bool, w: u8, from: u8, d: u8, s: u8 },
    /// `cmovcc r, r`.
    Cmov { cond: Cond, w: u8, d: u8, s: u8 },
    /// `setcc r8` (not ah..bh): merges the low byte.
    Setcc { cond: Cond, d: u8 },
    /// `push r64`.
    Push { s: u8 },
    /// `pop r64`.
    Pop { d: u8 },
    /// `call rel`.
    Call { target: u64, ret: u64 },
    /// `ret`.
    Ret,
    /// `jmp rel`.
    Jmp { target: u64 },
    /// `jcc rel`.
    Jcc { cond: Cond, target: u64 },
}

/// Issues an executed instruction to the timing model (or not, without one): what the block
/// loop is generic over, so each handler passes its accesses as constants where they are.
pub(crate) trait Timer {
    /// Issues `rec`, which read `load`, wrote `store` and (a branch) was `taken` or not.
    fn issue(&mut self, rec: &Rec, load: Option<(u64, u8)>, store: Option<(u64, u8)>, taken: bool);
}

/// A whole register or its low half: the register number, if `o` is one of `w` bytes.
fn reg(o: &Operand, w: u8) -> Option<u8> {
    match o {
        Operand::Reg(g) if g.size == w && !g.high8 && g.num < 16 && matches!(w, 4 | 8) => Some(g.num),
        _ => None,
    }
}

/// A register or immediate source of `w` bytes (any register width for memory-destination
/// forms is refused: only whole or low-half registers are pre-extracted).
fn src(o: &Operand, w: u8) -> Option<Src> {
    match o {
        Operand::Imm(v) => Some(Src::Imm(*v as u64 & mask(w))),
        _ => reg(o, w).map(Src::Reg),
    }
}

/// A memory operand of `w` bytes.
fn mem(o: &Operand, w: u8) -> Option<Mem> {
    match o {
        Operand::Mem(m) if matches!(w, 1 | 2 | 4 | 8) => Mem::of(m),
        _ => None,
    }
}

impl Fast {
    /// The specialised form of `i`, or [`Fast::Generic`].
    pub(crate) fn of(i: &Insn) -> Fast {
        Fast::specialise(i).unwrap_or(Fast::Generic)
    }

    fn specialise(i: &Insn) -> Option<Fast> {
        let info = op_info(i.op);
        let w = i.size;
        // The executor refuses a sized form of another size before anything else.
        if info.sized && !matches!(w, 1 | 2 | 4 | 8) {
            return None;
        }
        if info.sem == Sem::Hint {
            return Some(Fast::Nop);
        }
        let [a, b, c] = &i.ops;
        let three = !matches!(c, Operand::None);
        if three {
            return None;
        }
        Some(match i.op {
            Op::Mov => match (a, b) {
                (Operand::Reg(_), Operand::Reg(_)) => Fast::MovRR { w, d: reg(a, w)?, s: reg(b, w)? },
                (Operand::Reg(_), Operand::Imm(v)) => Fast::MovRI { d: reg(a, w)?, v: *v as u64 & mask(w) },
                (Operand::Reg(_), Operand::Mem(_)) => Fast::Load { w, d: reg(a, w)?, m: mem(b, w)? },
                (Operand::Mem(_), _) => Fast::Store { w, s: store_src(b, w)?, m: mem(a, w)? },
                _ => return None,
            },
            Op::Lea => Fast::Lea { w, d: reg(a, w)?, m: mem(b, 1)? },
            Op::Add | Op::Adc | Op::Sub | Op::Sbb | Op::And | Op::Or | Op::Xor | Op::Cmp | Op::Test
                if !(matches!(i.op, Op::Cmp | Op::Test) && matches!(w, 1 | 2) && matches!(a, Operand::Reg(_))) =>
            {
                match (a, b) {
                    (Operand::Reg(_), Operand::Mem(_)) => Fast::AluLoad { op: i.op, w, d: reg(a, w)?, m: mem(b, w)? },
                    (Operand::Reg(_), _) => Fast::Alu { op: i.op, w, d: reg(a, w)?, s: src(b, w)? },
                    (Operand::Mem(_), _) => Fast::AluMem { op: i.op, w, m: mem(a, w)?, s: store_src(b, w)? },
                    _ => return None,
                }
            }
            Op::Cmp | Op::Test if matches!(w, 1 | 2) => match a {
                Operand::Reg(_) => Fast::CmpNarrow { op: i.op, w, d: narrow(a, w)?, s: narrow_src(b, w)? },
                _ => return None,
            },
            Op::Movzx | Op::Movsx => match b {
                Operand::Reg(g) if !g.high8 && g.num < 16 && matches!(g.size, 1 | 2 | 4) => {
                    Fast::Extend { signed: i.op == Op::Movsx, w, from: g.size, d: reg(a, w)?, s: g.num }
                }
                _ => return None,
            },
            Op::Cmovcc => match (b, i.cond) {
                (Operand::Reg(_), Some(cond)) => Fast::Cmov { cond, w, d: reg(a, w)?, s: reg(b, w)? },
                _ => return None,
            },
            Op::Setcc => match (i.cond, b) {
                (Some(cond), Operand::None) => Fast::Setcc { cond, d: narrow(a, 1)? },
                _ => return None,
            },
            Op::Inc | Op::Dec if matches!(b, Operand::None) => Fast::IncDec { inc: i.op == Op::Inc, w, d: reg(a, w)? },
            Op::Shl | Op::Shr | Op::Sar | Op::Rol | Op::Ror => match b {
                Operand::Imm(n) => Fast::ShiftImm {
                    op: i.op,
                    w,
                    d: reg(a, w)?,
                    count: (*n as u64 & 0xff & if w == 8 { 0x3f } else { 0x1f }) as u32,
                },
                _ => return None,
            },
            Op::Push if w == 8 && matches!(b, Operand::None) => Fast::Push { s: reg(a, 8)? },
            Op::Pop if w == 8 && matches!(b, Operand::None) => Fast::Pop { d: reg(a, 8)? },
            Op::Call => match (a, b) {
                (Operand::Imm(t), Operand::None) => Fast::Call { target: *t as u64, ret: i.next() },
                _ => return None,
            },
            Op::Ret if matches!((a, b), (Operand::None, Operand::None)) => Fast::Ret,
            Op::Jmp => match (a, b) {
                (Operand::Imm(t), Operand::None) => Fast::Jmp { target: *t as u64 },
                _ => return None,
            },
            Op::Jcc => match (a, b, i.cond) {
                (Operand::Imm(t), Operand::None, Some(cond)) => Fast::Jcc { cond, target: *t as u64 },
                _ => return None,
            },
            _ => return None,
        })
    }

    /// Whether the form touches registers only (no memory, no executor, no clock): what a
    /// block timed as a whole may hold ([`crate::timing::BlockTiming`]).
    pub(crate) fn registers_only(&self) -> bool {
        matches!(
            self,
            Fast::Nop
                | Fast::MovRR { .. }
                | Fast::MovRI { .. }
                | Fast::Lea { .. }
                | Fast::Alu { .. }
                | Fast::IncDec { .. }
                | Fast::ShiftImm { .. }
                | Fast::CmpNarrow { .. }
                | Fast::Extend { .. }
                | Fast::Cmov { .. }
                | Fast::Setcc { .. }
                | Fast::Jmp { .. }
                | Fast::Jcc { .. }
        )
    }

    /// Runs the form against `st` and `mem` and issues it to `t` (never [`Fast::Generic`]: the
    /// caller runs those). `whole`: its whole block runs, so flags marked dead
    /// ([`Rec::flags_dead`]) are not computed.
    #[inline(always)]
    pub(crate) fn exec<T: Timer>(
        &self,
        rec: &Rec,
        st: &mut X86State,
        mem: &mut Memory,
        t: &mut T,
        whole: bool,
    ) -> Result<Flow, Trap> {
        let flags = !(rec.flags_dead && whole);
        match *self {
            Fast::Generic => return Err(Trap::Unsupported),
            Fast::Nop => t.issue(rec, None, None, false),
            Fast::MovRR { w, d, s } => {
                let v = get(st, s) & mask(w);
                put(st, d, v);
                t.issue(rec, None, None, false);
            }
            Fast::MovRI { d, v } => {
                put(st, d, v);
                t.issue(rec, None, None, false);
            }
            Fast::Load { w, d, m } => {
                let a = m.ea(st, true);
                let v = mem.read_sized(a, usize::from(w))?;
                put(st, d, v);
                t.issue(rec, Some((a, w)), None, false);
            }
            Fast::Store { w, s, m } => {
                let v = s.get(st, w);
                let a = m.ea(st, true);
                mem.write_sized(a, usize::from(w), v)?;
                t.issue(rec, None, Some((a, w)), false);
            }
            Fast::Lea { w, d, m } => {
                let a = m.ea(st, false);
                put(st, d, a & mask(w));
                t.issue(rec, None, None, false);
            }
            Fast::Alu { op, w, d, s } => {
                match (w == 8, flags) {
                    (true, true) => alu::<8>(st, op, d, s)?,
                    (false, true) => alu::<4>(st, op, d, s)?,
                    (true, false) => alu_value::<8>(st, op, d, s)?,
                    (false, false) => alu_value::<4>(st, op, d, s)?,
                }
                t.issue(rec, None, None, false);
            }
            Fast::AluLoad { op, w, d, m } => {
                let a = get(st, d) & mask(w);
                let at = m.ea(st, true);
                let b = mem.read_sized(at, usize::from(w))?;
                let (res, f) = binary_of(op, w, a, b, st.rflags & 1 != 0).ok_or(Trap::Unsupported)?;
                if !matches!(op, Op::Cmp | Op::Test) {
                    put(st, d, res & mask(w));
                }
                st.set_flags(STATUS, f);
                t.issue(rec, Some((at, w)), None, false);
            }
            Fast::AluMem { op, w, m, s } => {
                let at = m.ea(st, true);
                let a = mem.read_sized(at, usize::from(w))?;
                let b = s.get(st, w);
                let (res, f) = binary_of(op, w, a, b, st.rflags & 1 != 0).ok_or(Trap::Unsupported)?;
                let mut store = None;
                if !matches!(op, Op::Cmp | Op::Test) {
                    mem.write_sized(at, usize::from(w), res)?;
                    store = Some((at, w));
                }
                st.set_flags(STATUS, f);
                t.issue(rec, Some((at, w)), store, false);
            }
            Fast::IncDec { inc, w, d } => {
                if !flags {
                    let a = get(st, d);
                    put(st, d, if inc { a.wrapping_add(1) } else { a.wrapping_sub(1) } & mask(w));
                } else if w == 8 {
                    inc_dec::<8>(st, inc, d);
                } else {
                    inc_dec::<4>(st, inc, d);
                }
                t.issue(rec, None, None, false);
            }
            Fast::ShiftImm { op, w, d, count } => {
                let a = get(st, d) & mask(w);
                let (res, which, f) = compute(op, a, count, w, st.rflags & 1 != 0).ok_or(Trap::Unsupported)?;
                put(st, d, res & mask(w));
                st.set_flags(which, f);
                t.issue(rec, None, None, false);
            }
            Fast::CmpNarrow { op, w, d, s } => {
                // Flags only: nothing to do when they are dead.
                if flags {
                    let a = get(st, d) & mask(w);
                    let b = s.get(st, w);
                    let (_, f) = binary_of(op, w, a, b, false).ok_or(Trap::Unsupported)?;
                    st.set_flags(STATUS, f);
                }
                t.issue(rec, None, None, false);
            }
            Fast::Extend { signed, w, from, d, s } => {
                let v = get(st, s) & mask(from);
                let v = if signed { crate::exec::flags::sext(v, from) as u64 } else { v };
                put(st, d, v & mask(w));
                t.issue(rec, None, None, false);
            }
            Fast::Cmov { cond, w, d, s } => {
                let v = if holds(cond, st.rflags) { get(st, s) } else { get(st, d) };
                put(st, d, v & mask(w));
                t.issue(rec, None, None, false);
            }
            Fast::Setcc { cond, d } => {
                let v = u64::from(holds(cond, st.rflags));
                put(st, d, (get(st, d) & !0xff) | v);
                t.issue(rec, None, None, false);
            }
            Fast::Push { s } => {
                let v = get(st, s);
                let sp = get(st, 4).wrapping_sub(8);
                mem.write_sized(sp, 8, v)?;
                put(st, 4, sp);
                t.issue(rec, None, Some((sp, 8)), false);
            }
            Fast::Pop { d } => {
                let sp = get(st, 4);
                let v = mem.read_sized(sp, 8)?;
                put(st, 4, sp.wrapping_add(8));
                put(st, d, v);
                t.issue(rec, Some((sp, 8)), None, false);
            }
            Fast::Call { target, ret } => {
                let sp = get(st, 4).wrapping_sub(8);
                mem.write_sized(sp, 8, ret)?;
                put(st, 4, sp);
                t.issue(rec, None, Some((sp, 8)), true);
                return Ok(Flow::Jump(target));
            }
            Fast::Ret => {
                let sp = get(st, 4);
                let to = mem.read_sized(sp, 8)?;
                put(st, 4, sp.wrapping_add(8));
                t.issue(rec, Some((sp, 8)), None, true);
                return Ok(Flow::Jump(to));
            }
            Fast::Jmp { target } => {
                t.issue(rec, None, None, true);
                return Ok(Flow::Jump(target));
            }
            Fast::Jcc { cond, target } => {
                let taken = holds(cond, st.rflags);
                t.issue(rec, None, None, taken);
                return Ok(if taken { Flow::Jump(target) } else { Flow::Next });
            }
        }
        Ok(Flow::Next)
    }
}

/// Register `r` (pre-extracted numbers are below 16, so the mask changes nothing and spares the
/// bounds check).
#[inline(always)]
fn get(st: &X86State, r: u8) -> u64 {
    st.gpr[usize::from(r & 15)]
}

/// Sets register `r` (below 16, as for [`get`]).
#[inline(always)]
fn put(st: &mut X86State, r: u8, v: u64) {
    st.gpr[usize::from(r & 15)] = v;
}

/// A two-operand ALU form between registers or with an immediate, `W` bytes wide.
#[inline(always)]
fn alu<const W: u8>(st: &mut X86State, op: Op, d: u8, s: Src) -> Result<(), Trap> {
    let a = get(st, d) & mask(W);
    let b = s.get(st, W);
    let (res, f) = binary_of(op, W, a, b, st.rflags & 1 != 0).ok_or(Trap::Unsupported)?;
    if !matches!(op, Op::Cmp | Op::Test) {
        put(st, d, res & mask(W));
    }
    st.set_flags(STATUS, f);
    Ok(())
}

/// [`alu`] when its flags are dead: the register result only (the low `W` bytes of a sum,
/// difference or logic result depend on the low `W` bytes of the operands alone, so the
/// operands need no mask).
#[inline(always)]
fn alu_value<const W: u8>(st: &mut X86State, op: Op, d: u8, s: Src) -> Result<(), Trap> {
    let (a, b) = (get(st, d), s.get(st, W));
    let carry = st.rflags & 1;
    let res = match op {
        Op::Add => a.wrapping_add(b),
        Op::Adc => a.wrapping_add(b).wrapping_add(carry),
        Op::Sub => a.wrapping_sub(b),
        Op::Sbb => a.wrapping_sub(b).wrapping_sub(carry),
        Op::And => a & b,
        Op::Or => a | b,
        Op::Xor => a ^ b,
        Op::Cmp | Op::Test => return Ok(()),
        _ => return Err(Trap::Unsupported),
    };
    put(st, d, res & mask(W));
    Ok(())
}

/// `inc`/`dec` of a register, `W` bytes wide (CF kept).
#[inline(always)]
fn inc_dec<const W: u8>(st: &mut X86State, inc: bool, d: u8) {
    let a = get(st, d) & mask(W);
    let (res, f) = if inc { crate::exec::flags::add(a, 1, false, W) } else { crate::exec::flags::sub(a, 1, false, W) };
    put(st, d, res & mask(W));
    st.set_flags(OF | SF | ZF | AF | PF, f);
}

/// A register of `w` (1 or 2) bytes that is not ah..bh.
fn narrow(o: &Operand, w: u8) -> Option<u8> {
    match o {
        Operand::Reg(g) if g.size == w && !g.high8 && g.num < 16 => Some(g.num),
        _ => None,
    }
}

/// A narrow register or immediate source.
fn narrow_src(o: &Operand, w: u8) -> Option<Src> {
    match o {
        Operand::Imm(v) => Some(Src::Imm(*v as u64 & mask(w))),
        _ => narrow(o, w).map(Src::Reg),
    }
}

/// The source of a store or memory-destination ALU form: an immediate, or a register of the
/// operation's width (1 and 2 bytes included, high-byte registers not).
fn store_src(o: &Operand, w: u8) -> Option<Src> {
    match o {
        Operand::Imm(v) => Some(Src::Imm(*v as u64 & mask(w))),
        Operand::Reg(g) if g.size == w && !g.high8 && g.num < 16 => Some(Src::Reg(g.num)),
        _ => None,
    }
}
