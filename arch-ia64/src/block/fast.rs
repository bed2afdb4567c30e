//! The per-form handlers of the fast engine and the record each slot gets at load time.

use crate::bundle::SlotUnit;
use crate::exec::op::{BrKind, CmpType, LoadKind, Op, Rel, Update};
use crate::exec::predecode::Exec;
use crate::exec::special::Special;
use crate::exec::{read_plain, write_plain, Flow};
use crate::state::State;
use emu_core::memory::Memory;

/// A two-register logical operation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Logic {
    And,
    Andcm,
    Or,
    Xor,
}

impl Logic {
    #[inline]
    pub(crate) fn apply(self, a: u64, b: u64) -> u64 {
        match self {
            Logic::And => a & b,
            Logic::Andcm => a & !b,
            Logic::Or => a | b,
            Logic::Xor => a ^ b,
        }
    }

    fn of(op: Op) -> Option<Logic> {
        Some(match op {
            Op::And | Op::AndImm => Logic::And,
            Op::Andcm | Op::AndcmImm => Logic::Andcm,
            Op::Or | Op::OrImm => Logic::Or,
            Op::Xor | Op::XorImm => Logic::Xor,
            _ => return None,
        })
    }
}

/// A slot's handler with its operands, chosen once from its predecoded record. Register
/// numbers are logical (renamed through the register file's map at run time: one lookup).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) enum Fast {
    /// No specialised handler: the reference executor runs the slot.
    #[default]
    Generic,
    /// `add d=a,b` (`,1` adds `carry`).
    Add { d: u8, a: u8, b: u8, carry: u8 },
    /// `sub d=a,b` (`,1` subtracts `borrow` more).
    Sub { d: u8, a: u8, b: u8, borrow: u8 },
    /// `and`/`andcm`/`or`/`xor d=a,b`.
    Logic { d: u8, a: u8, b: u8, op: Logic },
    /// `adds`/`addl d=imm,b` (and `mov d=b`, `mov d=imm`).
    AddImm { d: u8, b: u8, imm: i64 },
    /// `and`/`andcm`/`or`/`xor d=imm,b`.
    LogicImm { d: u8, b: u8, imm: i64, op: Logic },
    /// `shladd d=a,count,b`.
    Shladd { d: u8, a: u8, count: u8, b: u8 },
    /// A plain `ldN d=[base]` (also `.bias`, `.acq`), no base update.
    Load { d: u8, base: u8, size: u8 },
    /// A plain `stN [base]=src` (also `.rel`), no base update.
    Store { base: u8, src: u8, size: u8 },
    /// A nop or hint: nothing to do (counted by the CPU).
    Nop,
    /// An IP-relative `br.cond` (or `br`) to `target`.
    Jump { target: u64 },
    /// An IP-relative `br.cloop` to `target`.
    Cloop { target: u64 },
    /// `break imm` (IIM `imm`): the CPU raises the fault itself, with no boxed trap
    /// ([`run`] declines it).
    Break { imm: u64 },
    // Blocks only (issue 17, w7-iblock): the per-slot [`run`] declines these.
    /// A plain `ldN d=[base],inc` (immediate post-increment).
    LoadInc { d: u8, base: u8, size: u8, inc: i64 },
    /// A plain `stN [base]=src,inc`.
    StoreInc { base: u8, src: u8, size: u8, inc: i64 },
    /// A normal-type `cmp`/`cmp4` of two registers (`a` is r0 for the r0 forms).
    Cmp { p1: u8, p2: u8, a: u8, b: u8, rel: Rel, four: bool },
    /// A normal-type `cmp`/`cmp4` of an immediate with a register.
    CmpImm { p1: u8, p2: u8, imm: i64, b: u8, rel: Rel, four: bool },
    /// `extr`/`extr.u d=src,pos,len`, the field cut at bit 63 as the executor cuts it.
    Extr { d: u8, src: u8, pos: u8, len: u8, signed: bool },
    /// `dep.z d=src,pos,len`.
    DepZ { d: u8, src: u8, pos: u8, len: u8 },
    /// `mov b=src`.
    MovToBr { b: u8, src: u8 },
    /// `mov d=b`.
    MovFromBr { d: u8, b: u8 },
    /// A system form's handler that needs no context (w8-iv2: [`Special::runs_plain`]), with
    /// its row's privilege (cpl 0 only).
    Sys { s: Special, privileged: bool },
    /// `br.call b1=target` (IP-relative), returning to bundle `ret`; the target is `ret + disp`
    /// (so the block operation stays as small as the others).
    Call { b1: u8, disp: i32, ret: u64 },
    /// `br.call b1=via` (through branch register `via`), returning to bundle `ret`.
    CallIndirect { b1: u8, via: u8, ret: u64 },
    /// `br.ret via`.
    Ret { via: u8 },
}

/// A predicate operand, if it names p0-p63.
fn pred(v: i64) -> Option<u8> {
    u8::try_from(v).ok().filter(|&p| p < 64)
}

/// A register operand, if it names r0-r127 (register fields are 7 bits, so it always does;
/// the handlers' unchecked register reads rely on it).
fn reg(v: i64) -> Option<u8> {
    u8::try_from(v).ok().filter(|&r| r < 128)
}

impl Fast {
    /// The handler for `e`, or [`Fast::Generic`].
    pub(crate) fn of(e: &Exec) -> Fast {
        let system = || {
            if e.special.runs_plain() {
                Fast::Sys { s: e.special, privileged: e.privileged }
            } else {
                Fast::Generic
            }
        };
        if e.privileged {
            return system();
        }
        if e.nop {
            return Fast::Nop;
        }
        Fast::specialised(e).unwrap_or_else(system)
    }

    /// The form a block gives the slot `e` at bundle `ip`: the calls, whose return address is
    /// the slot's own, and returns (blocks only); otherwise the slot's handler `fast`.
    pub(crate) fn in_block(e: &Exec, ip: u64, fast: Fast) -> Fast {
        let o = &e.ops;
        let breg = |v: i64| (v & 7) as u8;
        match e.op {
            _ if e.privileged => fast,
            Op::Branch { kind: BrKind::Call, indirect: false } => {
                let ret = ip.wrapping_add(16);
                i32::try_from((o[1] as u64).wrapping_sub(ret) as i64).map_or(fast, |disp| Fast::Call {
                    b1: breg(o[0]),
                    disp,
                    ret,
                })
            }
            Op::Branch { kind: BrKind::Call, indirect: true } => {
                Fast::CallIndirect { b1: breg(o[0]), via: breg(o[1]), ret: ip.wrapping_add(16) }
            }
            Op::Branch { kind: BrKind::Ret, indirect: true } => Fast::Ret { via: breg(o[0]) },
            _ => fast,
        }
    }

    fn specialised(e: &Exec) -> Option<Fast> {
        let o = &e.ops;
        Some(match e.op {
            Op::Add { plus_one } => {
                Fast::Add { d: reg(o[0])?, a: reg(o[1])?, b: reg(o[2])?, carry: u8::from(plus_one) }
            }
            Op::Sub { minus_one } => {
                Fast::Sub { d: reg(o[0])?, a: reg(o[1])?, b: reg(o[2])?, borrow: u8::from(minus_one) }
            }
            Op::And | Op::Andcm | Op::Or | Op::Xor => {
                Fast::Logic { d: reg(o[0])?, a: reg(o[1])?, b: reg(o[2])?, op: Logic::of(e.op)? }
            }
            Op::AddImm => Fast::AddImm { d: reg(o[0])?, b: reg(o[2])?, imm: o[1] },
            Op::AndImm | Op::AndcmImm | Op::OrImm | Op::XorImm => {
                Fast::LogicImm { d: reg(o[0])?, b: reg(o[2])?, imm: o[1], op: Logic::of(e.op)? }
            }
            Op::Shladd { p4: false } if (0..64).contains(&o[2]) => {
                Fast::Shladd { d: reg(o[0])?, a: reg(o[1])?, count: o[2] as u8, b: reg(o[3])? }
            }
            Op::Load { size, kind: LoadKind::Plain, update: Update::None, .. } if matches!(size, 1 | 2 | 4 | 8) => {
                Fast::Load { d: reg(o[0])?, base: reg(o[1])?, size }
            }
            Op::Store { size, spill: false, update: Update::None, .. } if matches!(size, 1 | 2 | 4 | 8) => {
                Fast::Store { base: reg(o[0])?, src: reg(o[1])?, size }
            }
            Op::Branch { kind: BrKind::Cond, indirect: false } => Fast::Jump { target: o[0] as u64 },
            Op::Branch { kind: BrKind::Cloop, indirect: false } => Fast::Cloop { target: o[0] as u64 },
            Op::Load { size, kind: LoadKind::Plain, update: Update::Imm, .. } if matches!(size, 1 | 2 | 4 | 8) => {
                Fast::LoadInc { d: reg(o[0])?, base: reg(o[1])?, size, inc: o[2] }
            }
            Op::Store { size, spill: false, update: Update::Imm, .. } if matches!(size, 1 | 2 | 4 | 8) => {
                Fast::StoreInc { base: reg(o[0])?, src: reg(o[1])?, size, inc: o[2] }
            }
            Op::Cmp { rel, ctype: CmpType::Normal, four, imm, zero } => {
                let (p1, p2, b) = (pred(o[0])?, pred(o[1])?, reg(o[3])?);
                if imm || zero {
                    Fast::CmpImm { p1, p2, imm: o[2], b, rel, four }
                } else {
                    Fast::Cmp { p1, p2, a: reg(o[2])?, b, rel, four }
                }
            }
            Op::Extr { signed } if (0..64).contains(&o[2]) && (0..=64).contains(&o[3]) => {
                let pos = o[2] as u8;
                // As the executor: the length is kept within 1..=64 - pos.
                let len = (o[3] as u8).clamp(1, 64 - pos);
                Fast::Extr { d: reg(o[0])?, src: reg(o[1])?, pos, len, signed }
            }
            Op::DepZ if (0..64).contains(&o[2]) && (1..=64).contains(&o[3]) => {
                Fast::DepZ { d: reg(o[0])?, src: reg(o[1])?, pos: o[2] as u8, len: o[3] as u8 }
            }
            Op::MovToBr => Fast::MovToBr { b: (o[0] & 7) as u8, src: reg(o[1])? },
            Op::MovFromBr => Fast::MovFromBr { d: reg(o[0])?, b: (o[1] & 7) as u8 },
            // As the reference executor: break.b records 0 in IIM, break.x the low 21 bits.
            Op::Break => Fast::Break { imm: if e.unit == SlotUnit::B { 0 } else { (o[0] as u64) & 0x1F_FFFF } },
            _ => return None,
        })
    }
}

/// Runs `f` on the state if its common case applies, returning where execution goes; `None`
/// when it does not apply (nothing has changed then) and the reference executor must run the
/// slot. The caller has checked the qualifying predicate.
#[inline(always)]
pub(crate) fn run(f: Fast, st: &mut State, mem: &mut Memory) -> Option<Flow> {
    let done = match f {
        Fast::Generic
        | Fast::Break { .. }
        | Fast::LoadInc { .. }
        | Fast::StoreInc { .. }
        | Fast::Cmp { .. }
        | Fast::CmpImm { .. }
        | Fast::Extr { .. }
        | Fast::DepZ { .. }
        | Fast::MovToBr { .. }
        | Fast::MovFromBr { .. }
        | Fast::Sys { .. }
        | Fast::Call { .. }
        | Fast::CallIndirect { .. }
        | Fast::Ret { .. } => false,
        Fast::Add { d, a, b, carry } => {
            let ((a, na), (b, nb)) = (st.gr.read_fast(a), st.gr.read_fast(b));
            st.gr.try_write(d, a.wrapping_add(b).wrapping_add(u64::from(carry)), na | nb)
        }
        Fast::Sub { d, a, b, borrow } => {
            let ((a, na), (b, nb)) = (st.gr.read_fast(a), st.gr.read_fast(b));
            st.gr.try_write(d, a.wrapping_sub(b).wrapping_sub(u64::from(borrow)), na | nb)
        }
        Fast::Logic { d, a, b, op } => {
            let ((a, na), (b, nb)) = (st.gr.read_fast(a), st.gr.read_fast(b));
            st.gr.try_write(d, op.apply(a, b), na | nb)
        }
        Fast::AddImm { d, b, imm } => {
            let (b, nb) = st.gr.read_fast(b);
            st.gr.try_write(d, (imm as u64).wrapping_add(b), nb)
        }
        Fast::LogicImm { d, b, imm, op } => {
            let (b, nb) = st.gr.read_fast(b);
            st.gr.try_write(d, op.apply(imm as u64, b), nb)
        }
        Fast::Shladd { d, a, count, b } => {
            let ((a, na), (b, nb)) = (st.gr.read_fast(a), st.gr.read_fast(b));
            st.gr.try_write(d, (a << count).wrapping_add(b), na | nb)
        }
        Fast::Load { d, base, size } => load(st, mem, d, base, size),
        Fast::Store { base, src, size } => store(st, mem, base, src, size),
        Fast::Nop => true,
        Fast::Jump { target } => return Some(Flow::Branch(target)),
        Fast::Cloop { target } => {
            let lc = &mut st.ar[usize::from(crate::regs::ar::LC)];
            if *lc != 0 {
                *lc -= 1;
                return Some(Flow::Branch(target));
            }
            true
        }
    };
    done.then_some(Flow::Next)
}

/// The common case of a load: a NaT-free, naturally aligned, untranslated address that reads
/// (alignment then cannot fault whatever PSR.ac, and translation is the identity).
#[inline]
fn load(st: &mut State, mem: &Memory, d: u8, base: u8, size: u8) -> bool {
    let (addr, nat) = st.gr.read_fast(base);
    if nat {
        return false;
    }
    read_plain(st, mem, addr, size).is_some_and(|v| st.gr.try_write(d, v, false))
}

/// The common case of a store: a NaT-free value to a NaT-free, naturally aligned, untranslated
/// address that is writable (a faulting write changes nothing); overlapping ALAT entries go.
#[inline]
fn store(st: &mut State, mem: &mut Memory, base: u8, src: u8, size: u8) -> bool {
    let (addr, addr_nat) = st.gr.read_fast(base);
    let (value, nat) = st.gr.read_fast(src);
    !addr_nat && !nat && write_plain(st, mem, addr, size, value)
}
