//! A block's operations with their general registers resolved to physical indices of the
//! register file (issue 17): valid for one renaming ([`crate::state::rse::RegFile`]'s rename
//! key), re-resolved from the logical form ([`Fast`]) when the key differs.

use super::fast::{Fast, Logic};
use crate::exec::op::Rel;
use crate::exec::special::Special;
use crate::exec::{call, mask, read_plain, relation, ret_in_file, run_special, write_plain};
use crate::state::rse::RegFile;
use crate::state::State;
use emu_core::memory::Memory;

/// A resolved operation: register operands are physical indices (reads of a stacked name
/// outside the frame resolve to the slot that reads as zero, as the logical read does), and
/// a form whose target is not an ordinary write (r0, outside the frame) is [`Kind::Generic`],
/// so the reference executor raises its fault.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// The reference executor runs the slot.
    Generic,
    /// `add r1=r2,r3` (the common form gets its own arm: no carry to add).
    Add {
        d: u8,
        a: u8,
        b: u8,
    },
    /// `add r1=r2,r3,1`.
    AddOne {
        d: u8,
        a: u8,
        b: u8,
    },
    Sub {
        d: u8,
        a: u8,
        b: u8,
        borrow: u8,
    },
    And {
        d: u8,
        a: u8,
        b: u8,
    },
    Andcm {
        d: u8,
        a: u8,
        b: u8,
    },
    Or {
        d: u8,
        a: u8,
        b: u8,
    },
    Xor {
        d: u8,
        a: u8,
        b: u8,
    },
    AddImm {
        d: u8,
        b: u8,
        imm: u64,
    },
    LogicImm {
        d: u8,
        b: u8,
        imm: u64,
        op: Logic,
    },
    Shladd {
        d: u8,
        a: u8,
        count: u8,
        b: u8,
    },
    Load {
        d: u8,
        base: u8,
        size: u8,
    },
    Store {
        base: u8,
        src: u8,
        size: u8,
    },
    Jump {
        target: u64,
    },
    Cloop {
        target: u64,
    },
    Break {
        imm: u64,
    },
    LoadInc {
        d: u8,
        base: u8,
        size: u8,
        inc: u64,
    },
    StoreInc {
        base: u8,
        src: u8,
        size: u8,
        inc: u64,
    },
    Cmp {
        p1: u8,
        p2: u8,
        a: u8,
        b: u8,
        rel: Rel,
        four: bool,
    },
    CmpImm {
        p1: u8,
        p2: u8,
        imm: u64,
        b: u8,
        rel: Rel,
        four: bool,
    },
    Extr {
        d: u8,
        src: u8,
        pos: u8,
        len: u8,
        signed: bool,
    },
    DepZ {
        d: u8,
        src: u8,
        pos: u8,
        len: u8,
    },
    MovToBr {
        b: u8,
        src: u8,
    },
    MovFromBr {
        d: u8,
        b: u8,
    },
    /// A system form's context-free handler (w8-iv2), logical registers and all.
    Sys {
        s: Special,
        privileged: bool,
    },
    Call {
        b1: u8,
        disp: i32,
        ret: u64,
    },
    CallIndirect {
        b1: u8,
        via: u8,
        ret: u64,
    },
    /// Declines when the return needs the backing store (a fill, a spill) or could fault.
    Ret {
        via: u8,
    },
}

/// One operation of a block: what it does and its qualifying predicate (0 when it always
/// executes, which includes the loop branches, which test their predicate themselves).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct BlockOp {
    pub(crate) kind: Kind,
    pub(crate) qp: u8,
    /// Model on: its slot's position in its planned issue group (the block's segment).
    pub(crate) pos: u8,
    /// Held-group ITC (issue 15): how it uses ar.itc, if it does.
    pub(crate) clock: Option<crate::timing::ClockUse>,
    /// Its index in its block's operations (fewer than `MAX_SLOTS`), so the model-off
    /// loop names an exit's operation without counting.
    pub(crate) index: u8,
}

/// What running an operation's common case did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Out {
    /// Done; execution goes to the next slot.
    Next,
    /// A taken IP-relative branch to the target.
    Taken(u64),
    /// The common case does not apply (nothing changed): the reference executor runs it.
    Generic,
    /// `break`: the CPU raises the fault with this IIM.
    Break(u64),
}

/// `f` resolved under the renaming `gr` has now.
pub(crate) fn resolve(f: Fast, gr: &RegFile) -> Kind {
    let p = |r: u8| gr.physical(r);
    let dst = |d: u8| Some(gr.physical(d)).filter(|&p| RegFile::writable(p));
    let with = |d: u8, make: &dyn Fn(u8) -> Kind| dst(d).map_or(Kind::Generic, make);
    match f {
        Fast::Generic | Fast::Nop => Kind::Generic,
        Fast::Add { d, a, b, carry: 0 } => with(d, &|d| Kind::Add { d, a: p(a), b: p(b) }),
        Fast::Add { d, a, b, .. } => with(d, &|d| Kind::AddOne { d, a: p(a), b: p(b) }),
        Fast::Sub { d, a, b, borrow } => with(d, &|d| Kind::Sub { d, a: p(a), b: p(b), borrow }),
        Fast::Logic { d, a, b, op } => with(d, &|d| {
            let (a, b) = (p(a), p(b));
            match op {
                Logic::And => Kind::And { d, a, b },
                Logic::Andcm => Kind::Andcm { d, a, b },
                Logic::Or => Kind::Or { d, a, b },
                Logic::Xor => Kind::Xor { d, a, b },
            }
        }),
        Fast::AddImm { d, b, imm } => with(d, &|d| Kind::AddImm { d, b: p(b), imm: imm as u64 }),
        Fast::LogicImm { d, b, imm, op } => with(d, &|d| Kind::LogicImm { d, b: p(b), imm: imm as u64, op }),
        Fast::Shladd { d, a, count, b } => with(d, &|d| Kind::Shladd { d, a: p(a), count, b: p(b) }),
        Fast::Load { d, base, size } => with(d, &|d| Kind::Load { d, base: p(base), size }),
        Fast::Store { base, src, size } => Kind::Store { base: p(base), src: p(src), size },
        Fast::Jump { target } => Kind::Jump { target },
        Fast::Cloop { target } => Kind::Cloop { target },
        Fast::Break { imm } => Kind::Break { imm },
        // A post-increment base must be writable, and apart from the load's target (the
        // executor writes the target first, then the base: that order stays its own).
        Fast::LoadInc { d, base, size, inc } => match (dst(d), dst(base)) {
            (Some(d), Some(base)) if d != base => Kind::LoadInc { d, base, size, inc: inc as u64 },
            _ => Kind::Generic,
        },
        Fast::StoreInc { base, src, size, inc } => {
            with(base, &|base| Kind::StoreInc { base, src: p(src), size, inc: inc as u64 })
        }
        Fast::Cmp { p1, p2, a, b, rel, four } => Kind::Cmp { p1, p2, a: p(a), b: p(b), rel, four },
        Fast::CmpImm { p1, p2, imm, b, rel, four } => Kind::CmpImm { p1, p2, imm: imm as u64, b: p(b), rel, four },
        Fast::Extr { d, src, pos, len, signed } => with(d, &|d| Kind::Extr { d, src: p(src), pos, len, signed }),
        Fast::DepZ { d, src, pos, len } => with(d, &|d| Kind::DepZ { d, src: p(src), pos, len }),
        Fast::MovToBr { b, src } => Kind::MovToBr { b, src: p(src) },
        Fast::MovFromBr { d, b } => with(d, &|d| Kind::MovFromBr { d, b }),
        Fast::Sys { s, privileged } => Kind::Sys { s, privileged },
        Fast::Call { b1, disp, ret } => Kind::Call { b1, disp, ret },
        Fast::CallIndirect { b1, via, ret } => Kind::CallIndirect { b1, via, ret },
        Fast::Ret { via } => Kind::Ret { via },
    }
}

/// A normal compare's targets: the result and its complement, or both cleared by a NaT.
#[inline]
fn compare(st: &mut State, p1: u8, p2: u8, result: bool, nat: bool) {
    st.set_p(p1, result && !nat);
    st.set_p(p2, !result && !nat);
}

/// Runs the common case of `k` (its predicate is true).
#[inline(always)]
pub(crate) fn run(k: Kind, st: &mut State, mem: &mut Memory) -> Out {
    run_at(&k, st, mem)
}

/// [`run`] on an operation in place: each form reads only its own operands (the model-off
/// block loop, issue 17).
#[inline(always)]
pub(crate) fn run_at(k: &Kind, st: &mut State, mem: &mut Memory) -> Out {
    let gr = &mut st.gr;
    let two = |gr: &RegFile, a: u8, b: u8| {
        let ((a, na), (b, nb)) = (gr.get_physical(a), gr.get_physical(b));
        (a, b, na | nb)
    };
    match *k {
        Kind::Generic => return Out::Generic,
        Kind::Add { d, a, b } => {
            let (a, b, nat) = two(gr, a, b);
            gr.set_physical(d, a.wrapping_add(b), nat);
        }
        Kind::AddOne { d, a, b } => {
            let (a, b, nat) = two(gr, a, b);
            gr.set_physical(d, a.wrapping_add(b).wrapping_add(1), nat);
        }
        Kind::Sub { d, a, b, borrow } => {
            let (a, b, nat) = two(gr, a, b);
            gr.set_physical(d, a.wrapping_sub(b).wrapping_sub(u64::from(borrow)), nat);
        }
        Kind::And { d, a, b } => {
            let (a, b, nat) = two(gr, a, b);
            gr.set_physical(d, a & b, nat);
        }
        Kind::Andcm { d, a, b } => {
            let (a, b, nat) = two(gr, a, b);
            gr.set_physical(d, a & !b, nat);
        }
        Kind::Or { d, a, b } => {
            let (a, b, nat) = two(gr, a, b);
            gr.set_physical(d, a | b, nat);
        }
        Kind::Xor { d, a, b } => {
            let (a, b, nat) = two(gr, a, b);
            gr.set_physical(d, a ^ b, nat);
        }
        Kind::AddImm { d, b, imm } => {
            let (b, nat) = gr.get_physical(b);
            gr.set_physical(d, imm.wrapping_add(b), nat);
        }
        Kind::LogicImm { d, b, imm, op } => {
            let (b, nat) = gr.get_physical(b);
            gr.set_physical(d, op.apply(imm, b), nat);
        }
        Kind::Shladd { d, a, count, b } => {
            let (a, b, nat) = two(gr, a, b);
            gr.set_physical(d, (a << (count & 63)).wrapping_add(b), nat);
        }
        Kind::Load { d, base, size } => {
            if !load(st, mem, d, base, size) {
                return Out::Generic;
            }
        }
        Kind::Store { base, src, size } => {
            if !store(st, mem, base, src, size) {
                return Out::Generic;
            }
        }
        Kind::Jump { target } => return Out::Taken(target),
        Kind::Cloop { target } => {
            let lc = &mut st.ar[usize::from(crate::regs::ar::LC)];
            if *lc != 0 {
                *lc -= 1;
                return Out::Taken(target);
            }
        }
        Kind::Break { imm } => return Out::Break(imm),
        Kind::LoadInc { d, base, size, inc } => {
            if !load(st, mem, d, base, size) {
                return Out::Generic;
            }
            let (b, nat) = st.gr.get_physical(base);
            st.gr.set_physical(base, b.wrapping_add(inc), nat);
        }
        Kind::StoreInc { base, src, size, inc } => {
            if !store(st, mem, base, src, size) {
                return Out::Generic;
            }
            let (b, nat) = st.gr.get_physical(base);
            st.gr.set_physical(base, b.wrapping_add(inc), nat);
        }
        Kind::Cmp { p1, p2, a, b, rel, four } => {
            let (a, b, nat) = two(&st.gr, a, b);
            compare(st, p1, p2, relation(rel, a, b, four), nat);
        }
        Kind::CmpImm { p1, p2, imm, b, rel, four } => {
            let (b, nat) = st.gr.get_physical(b);
            compare(st, p1, p2, relation(rel, imm, b, four), nat);
        }
        Kind::Extr { d, src, pos, len, signed } => {
            let (a, nat) = gr.get_physical(src);
            let field = (a >> pos) & mask(u32::from(len));
            let v =
                if signed && len < 64 && (field >> (len - 1)) & 1 == 1 { field | !mask(u32::from(len)) } else { field };
            gr.set_physical(d, v, nat);
        }
        Kind::DepZ { d, src, pos, len } => {
            let (a, nat) = gr.get_physical(src);
            gr.set_physical(d, (a & mask(u32::from(len))) << pos, nat);
        }
        Kind::MovToBr { b, src } => {
            let (v, nat) = gr.get_physical(src);
            if nat {
                return Out::Generic;
            }
            st.br[usize::from(b & 7)] = v;
        }
        Kind::MovFromBr { d, b } => {
            let v = st.br[usize::from(b & 7)];
            st.gr.set_physical(d, v, false);
        }
        // At cpl != 0 the reference executor raises the Privileged Operation fault.
        Kind::Sys { s, privileged } => {
            if privileged && st.psr.cpl() != 0 || !run_special(s, st, mem) {
                return Out::Generic;
            }
        }
        Kind::Call { b1, disp, ret } => {
            call(st, b1, ret);
            return Out::Taken(ret.wrapping_add(disp as i64 as u64));
        }
        Kind::CallIndirect { b1, via, ret } => {
            // The target is read before b1 is written (`br.call b6=b6`).
            let target = st.br[usize::from(via & 7)] & !0xF;
            call(st, b1, ret);
            return Out::Taken(target);
        }
        Kind::Ret { via } => {
            let target = st.br[usize::from(via & 7)] & !0xF;
            // Declines (changing nothing) when the return needs memory or could fail.
            if !ret_in_file(st) {
                return Out::Generic;
            }
            return Out::Taken(target);
        }
    }
    Out::Next
}

/// As the per-slot handler's load ([`super::fast`]): a NaT-free, naturally aligned,
/// untranslated address that reads; anything else declines.
#[inline]
fn load(st: &mut State, mem: &Memory, d: u8, base: u8, size: u8) -> bool {
    let (addr, nat) = st.gr.get_physical(base);
    if nat {
        return false;
    }
    let Some(v) = read_plain(st, mem, addr, size) else { return false };
    st.gr.set_physical(d, v, false);
    true
}

/// As the per-slot handler's store: NaT-free value and address, aligned, untranslated,
/// writable; overlapping ALAT entries go.
#[inline]
fn store(st: &mut State, mem: &mut Memory, base: u8, src: u8, size: u8) -> bool {
    let (addr, addr_nat) = st.gr.get_physical(base);
    let (value, nat) = st.gr.get_physical(src);
    !addr_nat && !nat && write_plain(st, mem, addr, size, value)
}
