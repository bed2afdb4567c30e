//! Which registers and whether the condition code an instruction reads and writes, from its
//! table row's operation and operand shape: what the model's dependency tracking needs. The
//! general registers are bits 0-15 of a [`Regs`] set, the floating-point registers bits 16-31.

use crate::decode::Insn;
use crate::optable::{Op, PartFn, ShiftFn, SiFn, Slot, SsFn};

/// A set of registers: bit `n` is r`n`, bit `16 + n` is f`n`.
pub type Regs = u32;

/// One instruction's register and condition-code use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Deps {
    /// Base and index registers of the storage operands.
    pub addr: Regs,
    /// Other registers read.
    pub data: Regs,
    /// Registers written.
    pub writes: Regs,
    /// Reads the condition code.
    pub reads_cc: bool,
    /// Sets the condition code.
    pub writes_cc: bool,
    /// Has a storage operand.
    pub storage: bool,
}

fn bit(r: u8) -> Regs {
    1u32.checked_shl(u32::from(r & 31)).unwrap_or(0)
}

/// An even/odd pair starting at `r` (r and r+1 modulo 16).
fn pair(r: u8) -> Regs {
    bit(r & 15) | bit((r + 1) & 15)
}

/// r1 through r3, wrapping from r15 to r0 (LM/STM).
fn range(r1: u8, r3: u8) -> Regs {
    let mut set = 0;
    let mut r = r1 & 15;
    for _ in 0..16 {
        set |= bit(r);
        if r == r3 & 15 {
            break;
        }
        r = (r + 1) & 15;
    }
    set
}

/// The register and condition-code use of `insn`.
pub fn deps(insn: &Insn) -> Deps {
    let mut regs: Vec<Regs> = Vec::new();
    let mut nums: Vec<u8> = Vec::new();
    let mut addr = 0;
    let mut mems = 0usize;
    for slot in insn.shape.slots() {
        match slot {
            Slot::Gpr | Slot::Fpr => {
                let r = insn.r(regs.len());
                let b = if *slot == Slot::Fpr { bit(16 + (r & 15)) } else { bit(r & 15) };
                regs.push(b);
                nums.push(r & 15);
            }
            Slot::Mem => {
                let m = insn.m(mems);
                addr |= m.base.map_or(0, bit) | m.index.map_or(0, bit);
                mems += 1;
            }
            Slot::Imm | Slot::Mask => {}
        }
    }
    let r1 = regs.first().copied().unwrap_or(0);
    let n1 = nums.first().copied().unwrap_or(0);
    let rest: Regs = regs.iter().skip(1).fold(0, |a, b| a | b);
    let all = r1 | rest;
    let conditional = insn.mask != 15 && insn.mask != 0;
    let mut d = Deps { addr, storage: mems > 0, ..Deps::default() };
    match insn.op {
        Op::Load { .. } | Op::LoadRel { .. } | Op::Larl | Op::La | Op::Lgdr | Op::Ldgr => {
            d.writes = r1;
            d.data = rest;
        }
        Op::LoadTest { .. } | Op::Comp { .. } => {
            (d.writes, d.data, d.writes_cc) = (r1, rest, true);
        }
        Op::Store { .. } | Op::StoreRel { .. } | Op::CmpBranch { .. } => d.data = all,
        Op::Arith { f, three, .. } => {
            d.writes = r1;
            d.data = if three { rest } else { all };
            d.writes_cc = f != crate::optable::Alu::Mul;
            d.reads_cc = matches!(f, crate::optable::Alu::AddC | crate::optable::Alu::SubB);
        }
        Op::Cmp { .. } => (d.data, d.writes_cc) = (all, true),
        Op::Part { f, .. } => match f {
            PartFn::Test => (d.data, d.writes_cc) = (r1, true),
            PartFn::LoadLogical => d.writes = r1,
            PartFn::Insert => (d.data, d.writes) = (r1, r1),
            PartFn::And | PartFn::Or | PartFn::Xor => (d.data, d.writes, d.writes_cc) = (r1, r1, true),
        },
        Op::Shift { f, three, .. } => {
            d.writes = r1;
            d.data = if three { rest } else { all };
            d.writes_cc = matches!(f, ShiftFn::Sra | ShiftFn::Sla);
        }
        Op::Rot { .. } => (d.data, d.writes, d.writes_cc) = (all, r1, true),
        Op::MulPair { .. } => (d.data, d.writes) = (bit((n1 + 1) & 15) | rest, pair(n1)),
        Op::DivPair { .. } => (d.data, d.writes) = (pair(n1) | rest, pair(n1)),
        Op::DivSingle { .. } => (d.data, d.writes) = (bit((n1 + 1) & 15) | rest, pair(n1)),
        Op::Flogr => (d.data, d.writes, d.writes_cc) = (rest, pair(n1), true),
        Op::LoadCond { .. } => (d.data, d.writes, d.reads_cc) = (all, r1, true),
        Op::StoreCond { .. } => (d.data, d.reads_cc) = (all, true),
        Op::Brc | Op::Bc | Op::Bcr => (d.data, d.reads_cc) = (rest, conditional),
        Op::Bras | Op::Bas { .. } => (d.data, d.writes) = (rest, r1),
        Op::Brct { .. } | Op::Bctr { .. } => (d.data, d.writes) = (all, r1),
        Op::Si { f } => d.writes_cc = f != SiFn::Move,
        Op::Sil { mv, .. } => d.writes_cc = !mv,
        Op::Ss { f } => d.writes_cc = f != SsFn::Move,
        Op::Ipm => (d.data, d.writes, d.reads_cc) = (r1, r1, true),
        Op::Stm { .. } => d.data = range(n1, nums.get(1).copied().unwrap_or(n1)),
        Op::Lm { .. } => d.writes = range(n1, nums.get(1).copied().unwrap_or(n1)),
        Op::LoadAndOp { .. } => (d.data, d.writes, d.writes_cc) = (rest, r1, true),
        Op::Ic => (d.data, d.writes) = (r1, r1),
        Op::Stck => d.writes_cc = true,
        Op::Ectg => (d.data, d.writes) = (all, pair(0)),
        Op::Lpswe => d.writes_cc = true,
        Op::Stpt | Op::Spt | Op::Svc | Op::Ssm | Op::StxSm { .. } | Op::PrivOther | Op::Unsupported => {}
    }
    d
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_wrap_and_pairs_are_even_odd() {
        assert_eq!(range(6, 15), 0xffc0);
        assert_eq!(range(14, 1), 0xc003);
        assert_eq!(range(3, 3), 0x8);
        assert_eq!(pair(2), 0xc);
        assert_eq!(pair(15), 0x8001);
    }

    fn of(bytes: &[u8]) -> Deps {
        deps(&crate::decode::S390Decoder::new().decode_one(0x1000, bytes))
    }

    #[test]
    fn decoded_instructions_name_their_registers() {
        // ag %r1,8(%r2): address r2, reads and writes r1, sets the CC.
        let ag = of(&[0xe3, 0x10, 0x20, 0x08, 0x00, 0x08]);
        assert_eq!((ag.addr, ag.data, ag.writes, ag.writes_cc, ag.storage), (1 << 2, 1 << 1, 1 << 1, true, true));
        // lmg %r6,%r15,48(%r15): writes r6..r15.
        let lmg = of(&[0xeb, 0x6f, 0xf0, 0x30, 0x00, 0x04]);
        assert_eq!((lmg.addr, lmg.writes), (1 << 15, 0xffc0));
        // je reads the CC, j does not.
        assert!(of(&[0xa7, 0x84, 0x00, 0x04]).reads_cc);
        assert!(!of(&[0xa7, 0xf4, 0x00, 0x04]).reads_cc);
        // mlgr %r2,%r4: reads r3 and r4, writes the pair r2/r3.
        let mlgr = of(&[0xb9, 0x86, 0x00, 0x24]);
        assert_eq!((mlgr.data, mlgr.writes), (0b11000, 0b1100));
        // sgrk %r3,%r4,%r5: three-operand, r3 is not read.
        let sgrk = of(&[0xb9, 0xe9, 0x50, 0x34]);
        assert_eq!((sgrk.data, sgrk.writes), (0b110000, 0b1000));
        // stg %r1,8(%r2,%r3): base and index are address registers, r1 the data.
        let stg = of(&[0xe3, 0x12, 0x30, 0x08, 0x00, 0x24]);
        assert_eq!((stg.addr, stg.data, stg.writes), (0b1100, 0b10, 0));
        // locgrnh %r1,%r2: reads the CC and both registers.
        let loc = of(&[0xb9, 0xe2, 0xd0, 0x12]);
        assert_eq!((loc.data, loc.writes, loc.reads_cc), (0b110, 0b10, true));
    }
}
