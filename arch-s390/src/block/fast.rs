//! Specialised handlers (issue 17): the forms the bench loops and the s390 traces run, each
//! with its operands pulled out of the decoded instruction once, so executing one is a match
//! arm over plain fields. Everything else is [`Fast::Generic`], which runs the reference
//! executor ([`crate::exec::execute`]). Each handler does exactly what the reference does for
//! its form (the block differential test holds them to it).

use emu_core::memory::Memory;

use crate::decode::{Insn, MemRef};
use crate::exec::{alu, cc_signed, compare, ext, mask, shift, width, Flow, Trap};
use crate::optable::{Alu, Op, Second, ShiftFn, SsFn};
use crate::state::S390State;

/// A storage operand's address parts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Ea {
    base: Option<u8>,
    index: Option<u8>,
    disp: u64,
}

impl Ea {
    fn of(m: MemRef) -> Ea {
        Ea { base: m.base, index: m.index, disp: m.disp as u64 }
    }

    /// An absolute address (PC-relative operands arrive resolved).
    fn at(addr: u64) -> Ea {
        Ea { base: None, index: None, disp: addr }
    }

    /// The effective address (64-bit addressing), as [`crate::exec::Ctx::ea`] forms it.
    #[inline(always)]
    fn eval(self, st: &S390State) -> u64 {
        let b = self.base.map_or(0, |r| reg(st, r));
        let x = self.index.map_or(0, |r| reg(st, r));
        b.wrapping_add(x).wrapping_add(self.disp)
    }
}

/// One instruction's handler.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Fast {
    /// The reference executor (with the privilege check and the clocks).
    Generic,
    /// Does nothing (`nopr`, `bcr 0,...`, `bcr m,%r0`).
    Nop,
    /// LGR.
    Lgr { r1: u8, r2: u8 },
    /// r1 = a constant (LGHI, LGFI, LLILL ..., LARL).
    SetG { r1: u8, v: u64 },
    /// The low half of r1 = a constant (LHI, IILF-like loads).
    Set32 { r1: u8, v: u64 },
    /// r1 = ext(r2) (LR, LGFR, LLGFR ...).
    LoadR { r1: u8, r2: u8, w: u8, sx: bool, g: bool },
    /// LG (and LGRL).
    Lg { r1: u8, m: Ea },
    /// r1 = ext(storage) (L, LGF, LLGF, LH, LGRL, LRL ...).
    LoadM { r1: u8, m: Ea, w: u8, sx: bool, g: bool },
    /// LT(G)R: load and test a register.
    LoadTestR { r1: u8, r2: u8, w: u8, sx: bool, g: bool },
    /// LT, LTG, LTGF: load and test storage.
    LoadTestM { r1: u8, m: Ea, w: u8, sx: bool, g: bool },
    /// LA, LAY.
    La { r1: u8, m: Ea },
    /// STG (and STGRL).
    Stg { r1: u8, m: Ea },
    /// ST, STH, STC, STRL.
    Store { r1: u8, m: Ea, w: u8 },
    /// AGR.
    Agr { r1: u8, r2: u8 },
    /// SGR.
    Sgr { r1: u8, r2: u8 },
    /// NGR, OGR, XGR.
    LogicG { f: Alu, r1: u8, r2: u8 },
    /// AGHI, AGFI.
    Aghi { r1: u8, b: u64 },
    /// Any other register-register arithmetic: r1 = ra op ext(rb).
    ArithR { f: Alu, r1: u8, ra: u8, rb: u8, w: u8, sx: bool, g: bool },
    /// Register-immediate arithmetic: r1 = ra op b (b extended at decode).
    ArithI { f: Alu, r1: u8, ra: u8, b: u64, g: bool },
    /// Register-storage arithmetic: r1 = ra op ext(storage).
    ArithM { f: Alu, r1: u8, ra: u8, m: Ea, w: u8, sx: bool, g: bool },
    /// Compare registers.
    CmpR { r1: u8, r2: u8, w: u8, sx: bool, g: bool, logical: bool },
    /// Compare with an immediate (extended and masked at decode).
    CmpI { r1: u8, b: u64, g: bool, logical: bool },
    /// Compare with storage.
    CmpM { r1: u8, m: Ea, w: u8, sx: bool, g: bool, logical: bool },
    /// SLLG, SRLG: r1 = src shifted left (or right) by the address's low six bits, no CC.
    ShiftLogicG { left: bool, r1: u8, src: u8, m: Ea },
    /// The other shifts (SLL, SRL, SRA(G), SLA(G), RLL(G)).
    Shift { f: ShiftFn, r1: u8, src: u8, m: Ea, g: bool },
    /// BRC/BRCL/J/JG: branch if the mask selects the CC (15: always).
    Brc { mask: u8, target: u64 },
    /// BR: branch to a register (BCR 15 with a register other than r0).
    Br { r2: u8 },
    /// BCR with a condition (and a register other than r0).
    Bcr { mask: u8, r2: u8 },
    /// BRAS, BRASL: link in r1, branch.
    Bras { r1: u8, link: u64, target: u64 },
    /// BRCT(G).
    Brct { r1: u8, target: u64, g: bool },
    /// STM(G), STMY.
    Stm { r1: u8, r3: u8, m: Ea, g: bool },
    /// LM(G), LMY.
    Lm { r1: u8, r3: u8, m: Ea, g: bool },
    /// MVC of `len` bytes (1 to 256).
    Mvc { len: u16, m1: Ea, m2: Ea },
}

#[inline(always)]
fn reg(st: &S390State, r: u8) -> u64 {
    st.gpr[usize::from(r & 15)]
}

#[inline(always)]
fn set(st: &mut S390State, r: u8, v: u64) {
    st.gpr[usize::from(r & 15)] = v;
}

/// [`crate::exec::put`] on the 16 GPRs.
#[inline(always)]
fn put(st: &mut S390State, r: u8, g: bool, v: u64) {
    let at = &mut st.gpr[usize::from(r & 15)];
    *at = if g { v } else { (*at & !0xffff_ffff) | (v & 0xffff_ffff) };
}

#[inline(always)]
fn read(mem: &Memory, addr: u64, w: u8) -> Result<u64, Trap> {
    Ok(mem.read_sized(addr, usize::from(w))?)
}

#[inline(always)]
fn write(mem: &mut Memory, addr: u64, w: u8, v: u64) -> Result<(), Trap> {
    Ok(mem.write_sized(addr, usize::from(w), v & mask(w))?)
}

#[inline(always)]
fn cond(st: &S390State, m: u8) -> bool {
    (m >> (3 - (st.cc & 3))) & 1 != 0
}

impl Fast {
    /// The handler for `i` (its operands taken from the decoded record).
    pub(crate) fn of(i: &Insn) -> Fast {
        if i.privileged || i.reads_clocks {
            return Fast::Generic;
        }
        let (r1, r2) = (i.r(0), i.r(1));
        let m = Ea::of(i.m(0));
        let sec = i.shape.second;
        match i.op {
            Op::Load { w, sx, g } => match sec {
                Second::Gpr(k) if w == 8 && g => Fast::Lgr { r1, r2: i.r(usize::from(k)) },
                Second::Gpr(k) => Fast::LoadR { r1, r2: i.r(usize::from(k)), w, sx, g },
                Second::Imm(k) => {
                    let v = ext(i.i(usize::from(k)) as u64 & mask(w), w, sx);
                    if g {
                        Fast::SetG { r1, v }
                    } else {
                        Fast::Set32 { r1, v }
                    }
                }
                Second::Mem if w == 8 && g => Fast::Lg { r1, m },
                Second::Mem => Fast::LoadM { r1, m, w, sx, g },
                Second::None => Fast::Generic,
            },
            Op::LoadTest { w, sx, g } => match sec {
                Second::Gpr(k) => Fast::LoadTestR { r1, r2: i.r(usize::from(k)), w, sx, g },
                Second::Mem => Fast::LoadTestM { r1, m, w, sx, g },
                _ => Fast::Generic,
            },
            Op::LoadRel { w: 8, g: true, .. } => Fast::Lg { r1, m: Ea::at(i.i(0) as u64) },
            Op::LoadRel { w, sx, g } => Fast::LoadM { r1, m: Ea::at(i.i(0) as u64), w, sx, g },
            Op::Larl => Fast::SetG { r1, v: i.i(0) as u64 },
            Op::La => Fast::La { r1, m },
            Op::Store { w: 8 } => Fast::Stg { r1, m },
            Op::Store { w } => Fast::Store { r1, m, w },
            Op::StoreRel { w: 8 } => Fast::Stg { r1, m: Ea::at(i.i(0) as u64) },
            Op::StoreRel { w } => Fast::Store { r1, m: Ea::at(i.i(0) as u64), w },
            Op::Arith { f, w, sx, g, three } => {
                let ra = if three { r2 } else { r1 };
                match sec {
                    Second::Gpr(k) => {
                        let rb = i.r(usize::from(k));
                        match (f, w, g, three) {
                            (Alu::Add, 8, true, false) => Fast::Agr { r1, r2: rb },
                            (Alu::Sub, 8, true, false) => Fast::Sgr { r1, r2: rb },
                            (Alu::And | Alu::Or | Alu::Xor, 8, true, false) => Fast::LogicG { f, r1, r2: rb },
                            _ => Fast::ArithR { f, r1, ra, rb, w, sx, g },
                        }
                    }
                    Second::Imm(k) => {
                        let b = ext(i.i(usize::from(k)) as u64 & mask(w), w, sx);
                        match (f, g, three) {
                            (Alu::Add, true, false) => Fast::Aghi { r1, b },
                            _ => Fast::ArithI { f, r1, ra, b, g },
                        }
                    }
                    Second::Mem => Fast::ArithM { f, r1, ra, m, w, sx, g },
                    Second::None => Fast::Generic,
                }
            }
            Op::Cmp { logical, w, sx, g } => match sec {
                Second::Gpr(k) => Fast::CmpR { r1, r2: i.r(usize::from(k)), w, sx, g, logical },
                Second::Imm(k) => {
                    let b = ext(i.i(usize::from(k)) as u64 & mask(w), w, sx) & mask(width(g));
                    Fast::CmpI { r1, b, g, logical }
                }
                Second::Mem => Fast::CmpM { r1, m, w, sx, g, logical },
                Second::None => Fast::Generic,
            },
            Op::Shift { f: f @ (ShiftFn::Sll | ShiftFn::Srl), g: true, three } => {
                Fast::ShiftLogicG { left: f == ShiftFn::Sll, r1, src: if three { r2 } else { r1 }, m }
            }
            Op::Shift { f, g, three } => Fast::Shift { f, r1, src: if three { r2 } else { r1 }, m, g },
            Op::Brc if i.mask == 0 => Fast::Nop,
            Op::Brc => Fast::Brc { mask: i.mask, target: i.i(0) as u64 },
            // BCR with r0 never branches (bcr 14/15,0 are serialisation points).
            Op::Bcr if r1 == 0 || i.mask == 0 => Fast::Nop,
            Op::Bcr if i.mask == 15 => Fast::Br { r2: r1 },
            Op::Bcr => Fast::Bcr { mask: i.mask, r2: r1 },
            Op::Bras => Fast::Bras { r1, link: i.next(), target: i.i(0) as u64 },
            Op::Brct { g } => Fast::Brct { r1, target: i.i(0) as u64, g },
            Op::Stm { g } => Fast::Stm { r1, r3: r2, m, g },
            Op::Lm { g } => Fast::Lm { r1, r3: r2, m, g },
            Op::Ss { f: SsFn::Move } => Fast::Mvc { len: u16::from(i.raw[1]) + 1, m1: m, m2: Ea::of(i.m(1)) },
            _ => Fast::Generic,
        }
    }

    /// Whether control may leave the straight line after this handler: a block ends here.
    pub(crate) fn ends_block(&self, i: &Insn) -> bool {
        match self {
            Fast::Brc { .. } | Fast::Br { .. } | Fast::Bcr { .. } | Fast::Bras { .. } | Fast::Brct { .. } => true,
            Fast::Generic => {
                i.privileged
                    || !matches!(
                        i.op,
                        Op::Load { .. }
                            | Op::LoadTest { .. }
                            | Op::Part { .. }
                            | Op::Comp { .. }
                            | Op::Rot { .. }
                            | Op::LoadCond { .. }
                            | Op::StoreCond { .. }
                            | Op::Si { .. }
                            | Op::Sil { .. }
                            | Op::Ss { .. }
                            | Op::Ipm
                            | Op::LoadAndOp { .. }
                            | Op::Ic
                            | Op::Ldgr
                            | Op::Lgdr
                            | Op::Flogr
                            | Op::MulPair { .. }
                            | Op::Stpt
                            | Op::Stck
                            | Op::Spt
                    )
            }
            _ => false,
        }
    }

    /// The target of a branch that always jumps to a static address (J, JG, BRAS, BRASL).
    pub(crate) fn always_to(&self) -> Option<u64> {
        match *self {
            Fast::Brc { mask: 15, target } | Fast::Bras { target, .. } => Some(target),
            _ => None,
        }
    }

    /// This handler with the jump of [`Fast::always_to`] left out (the block's next record
    /// is the target): BRAS(L) only links, J does nothing.
    pub(crate) fn through(self) -> Fast {
        match self {
            Fast::Bras { r1, link, .. } => Fast::SetG { r1, v: link },
            Fast::Brc { mask: 15, .. } => Fast::Nop,
            other => other,
        }
    }

    /// The bytes an SS handler processes (timing), else 0.
    #[inline(always)]
    pub(crate) fn ss_len(&self) -> u64 {
        match self {
            Fast::Mvc { len, .. } => u64::from(*len),
            _ => 0,
        }
    }

    /// Runs a specialised handler ([`Fast::Generic`] is the caller's: it answers `Next`
    /// without doing anything here).
    #[inline(always)]
    pub(crate) fn run(&self, st: &mut S390State, mem: &mut Memory) -> Result<Flow, Trap> {
        match *self {
            Fast::Generic | Fast::Nop => {}
            Fast::Lgr { r1, r2 } => set(st, r1, reg(st, r2)),
            Fast::SetG { r1, v } => set(st, r1, v),
            Fast::Set32 { r1, v } => put(st, r1, false, v),
            Fast::LoadR { r1, r2, w, sx, g } => put(st, r1, g, ext(reg(st, r2) & mask(w), w, sx)),
            Fast::Lg { r1, m } => {
                let v = mem.read_u64(m.eval(st))?;
                set(st, r1, v);
            }
            Fast::LoadM { r1, m, w, sx, g } => {
                let v = ext(read(mem, m.eval(st), w)?, w, sx);
                put(st, r1, g, v);
            }
            Fast::LoadTestR { r1, r2, w, sx, g } => {
                let v = ext(reg(st, r2) & mask(w), w, sx);
                put(st, r1, g, v);
                st.cc = cc_signed(v, width(g));
            }
            Fast::LoadTestM { r1, m, w, sx, g } => {
                let v = ext(read(mem, m.eval(st), w)?, w, sx);
                put(st, r1, g, v);
                st.cc = cc_signed(v, width(g));
            }
            Fast::La { r1, m } => set(st, r1, m.eval(st)),
            Fast::Stg { r1, m } => mem.write_u64(m.eval(st), reg(st, r1))?,
            Fast::Store { r1, m, w } => write(mem, m.eval(st), w, reg(st, r1))?,
            Fast::Agr { r1, r2 } => {
                let (a, b) = (reg(st, r1), reg(st, r2));
                let r = a.wrapping_add(b);
                set(st, r1, r);
                st.cc = if (a ^ r) & (b ^ r) & (1 << 63) != 0 { 3 } else { cc_signed(r, 8) };
            }
            Fast::Sgr { r1, r2 } => {
                let (a, b) = (reg(st, r1), reg(st, r2));
                let r = a.wrapping_sub(b);
                set(st, r1, r);
                st.cc = if (a ^ b) & (a ^ r) & (1 << 63) != 0 { 3 } else { cc_signed(r, 8) };
            }
            Fast::LogicG { f, r1, r2 } => {
                let (a, b) = (reg(st, r1), reg(st, r2));
                let r = match f {
                    Alu::And => a & b,
                    Alu::Or => a | b,
                    _ => a ^ b,
                };
                set(st, r1, r);
                st.cc = u8::from(r != 0);
            }
            Fast::Aghi { r1, b } => {
                let a = reg(st, r1);
                let r = a.wrapping_add(b);
                set(st, r1, r);
                st.cc = if (a ^ r) & (b ^ r) & (1 << 63) != 0 { 3 } else { cc_signed(r, 8) };
            }
            Fast::ArithR { f, r1, ra, rb, w, sx, g } => {
                let b = ext(reg(st, rb) & mask(w), w, sx);
                arith(st, f, r1, reg(st, ra), b, g);
            }
            Fast::ArithI { f, r1, ra, b, g } => arith(st, f, r1, reg(st, ra), b, g),
            Fast::ArithM { f, r1, ra, m, w, sx, g } => {
                let a = reg(st, ra);
                let b = ext(read(mem, m.eval(st), w)?, w, sx);
                arith(st, f, r1, a, b, g);
            }
            Fast::CmpR { r1, r2, w, sx, g, logical } => {
                let ow = width(g);
                let b = ext(reg(st, r2) & mask(w), w, sx) & mask(ow);
                st.cc = compare(reg(st, r1) & mask(ow), b, ow, logical);
            }
            Fast::CmpI { r1, b, g, logical } => {
                let ow = width(g);
                st.cc = compare(reg(st, r1) & mask(ow), b, ow, logical);
            }
            Fast::CmpM { r1, m, w, sx, g, logical } => {
                let ow = width(g);
                let b = ext(read(mem, m.eval(st), w)?, w, sx) & mask(ow);
                st.cc = compare(reg(st, r1) & mask(ow), b, ow, logical);
            }
            Fast::ShiftLogicG { left, r1, src, m } => {
                let n = (m.eval(st) & 63) as u32;
                let v = reg(st, src);
                set(st, r1, if left { v << n } else { v >> n });
            }
            Fast::Shift { f, r1, src, m, g } => {
                let n = (m.eval(st) & 63) as u32;
                let (r, cc) = shift(f, reg(st, src), n, width(g));
                put(st, r1, g, r);
                if let Some(cc) = cc {
                    st.cc = cc;
                }
            }
            Fast::Brc { mask, target } => {
                if cond(st, mask) {
                    return Ok(Flow::Jump(target));
                }
            }
            Fast::Br { r2 } => return Ok(Flow::Jump(reg(st, r2))),
            Fast::Bcr { mask, r2 } => {
                if cond(st, mask) {
                    return Ok(Flow::Jump(reg(st, r2)));
                }
            }
            Fast::Bras { r1, link, target } => {
                set(st, r1, link);
                return Ok(Flow::Jump(target));
            }
            Fast::Brct { r1, target, g } => {
                let v = reg(st, r1).wrapping_sub(1) & mask(width(g));
                put(st, r1, g, v);
                if v != 0 {
                    return Ok(Flow::Jump(target));
                }
            }
            Fast::Stm { r1, r3, m, g } => {
                let w = width(g);
                let a = m.eval(st);
                let count = (r3.wrapping_sub(r1) & 15) + 1;
                for k in 0..count {
                    let at = a.wrapping_add(u64::from(k) * u64::from(w));
                    write(mem, at, w, reg(st, (r1 + k) & 15))?;
                }
            }
            Fast::Lm { r1, r3, m, g } => {
                let w = width(g);
                let a = m.eval(st);
                let count = (r3.wrapping_sub(r1) & 15) + 1;
                for k in 0..count {
                    let at = a.wrapping_add(u64::from(k) * u64::from(w));
                    let v = read(mem, at, w)?;
                    put(st, (r1 + k) & 15, g, v);
                }
            }
            Fast::Mvc { len, m1, m2 } => mvc(st, mem, len, m1, m2)?,
        }
        Ok(Flow::Next)
    }
}

/// r1 = a op b at the operation's width, the CC as the operation sets it.
#[inline(always)]
fn arith(st: &mut S390State, f: Alu, r1: u8, a: u64, b: u64, g: bool) {
    let (r, cc) = alu(f, a, b, width(g), st.cc);
    put(st, r1, g, r);
    if let Some(cc) = cc {
        st.cc = cc;
    }
}

/// MVC as the reference does it, byte by byte left to right (so the one-byte-overlap fill
/// idiom works); when no byte is written before it is read and both spans are accessible,
/// that is one span read and one span write. A span that faults changes nothing (the write
/// checks the whole span first), and the byte loop then faults exactly where the reference
/// does.
#[inline(never)]
fn mvc(st: &S390State, mem: &mut Memory, len: u16, m1: Ea, m2: Ea) -> Result<(), Trap> {
    let (dst, src, n) = (m1.eval(st), m2.eval(st), u64::from(len));
    let in_line = dst.checked_add(n).is_some() && src.checked_add(n).is_some();
    let hazard = src < dst && dst < src.wrapping_add(n);
    let mut buf = [0u8; 256];
    if let Some(bytes) = buf.get_mut(..usize::from(len)).filter(|_| in_line && !hazard) {
        if mem.read_bytes(src, bytes).is_ok() && mem.write_bytes(dst, bytes).is_ok() {
            return Ok(());
        }
    }
    for k in 0..n {
        let b = read(mem, src.wrapping_add(k), 1)?;
        write(mem, dst.wrapping_add(k), 1, b)?;
    }
    Ok(())
}
