//! The own opcode table: which operation each supported opcode is, its operand shape (typed,
//! parsed at compile time: [`Shape`]), its timing class (the timer instructions with their
//! [`TimerKind`]), and the own list of privileged instructions (capstone does not mark them).
//!
//! The key is the opcode as the formats place it: one byte, or the first byte with the low
//! nibble of the second (RI/RIL), the whole second byte (RR E/S formats with a two-byte opcode),
//! or the sixth byte (RXY/RSY/RIE/SIY).

mod shape;

pub use shape::{Second, Shape, Slot};

use crate::timing::{Class, TimerKind};

/// Binary operations of the arithmetic/logical families.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Alu {
    /// Signed add (CC: zero, negative, positive, overflow).
    Add,
    /// Logical add (CC: zero/nonzero with carry).
    AddL,
    /// Logical add with carry in from the CC.
    AddC,
    /// Signed subtract.
    Sub,
    /// Logical subtract.
    SubL,
    /// Logical subtract with borrow from the CC.
    SubB,
    /// And (CC: zero or not).
    And,
    /// Or.
    Or,
    /// Exclusive or.
    Xor,
    /// Single multiply, truncating, no CC.
    Mul,
}

/// Immediate operations on a halfword or word of a register.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PartFn {
    /// And into the field (CC on the field).
    And,
    /// Or.
    Or,
    /// Exclusive or.
    Xor,
    /// Insert (no CC).
    Insert,
    /// Load the immediate into the field and zero the rest (no CC).
    LoadLogical,
    /// Test under mask (no change).
    Test,
}

/// Load positive / negative / complement.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CompFn {
    /// Absolute value.
    Positive,
    /// Negative absolute value.
    Negative,
    /// Two's complement.
    Complement,
}

/// Shifts and rotates.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ShiftFn {
    /// Logical left.
    Sll,
    /// Logical right.
    Srl,
    /// Arithmetic right (CC).
    Sra,
    /// Arithmetic left (CC, overflow).
    Sla,
    /// Rotate left.
    Rll,
}

/// The rotate-then-*-selected-bits family.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RotFn {
    /// RISBG (sets CC).
    Insert,
    /// RNSBG.
    And,
    /// ROSBG.
    Or,
    /// RXSBG.
    Xor,
}

/// Storage-immediate (SI) operations on one byte.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SiFn {
    /// TM.
    Test,
    /// NI.
    And,
    /// OI.
    Or,
    /// XI.
    Xor,
    /// MVI.
    Move,
    /// CLI.
    Compare,
}

/// Storage-storage (SS) operations.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SsFn {
    /// MVC.
    Move,
    /// CLC.
    Compare,
    /// XC.
    Xor,
    /// NC.
    And,
    /// OC.
    Or,
}

/// An operation, with the widths that distinguish family members: `w` is the second operand's
/// width in bytes, `sx` whether it is sign-extended, `g` whether the operation is 64-bit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[allow(missing_docs)] // field meanings are documented on the enum
pub enum Op {
    /// r1 = ext(second operand).
    Load { w: u8, sx: bool, g: bool },
    /// Like Load, and sets the CC from the result.
    LoadTest { w: u8, sx: bool, g: bool },
    /// Load from a PC-relative address.
    LoadRel { w: u8, sx: bool, g: bool },
    /// r1 = PC-relative address.
    Larl,
    /// r1 = effective address.
    La,
    /// Store the low `w` bytes of r1.
    Store { w: u8 },
    /// Store to a PC-relative address.
    StoreRel { w: u8 },
    /// r1 = r1 op src, or r1 = r2 op src with `three`.
    Arith { f: Alu, w: u8, sx: bool, g: bool, three: bool },
    /// Compare r1 with the second operand.
    Cmp { logical: bool, w: u8, sx: bool, g: bool },
    /// Immediate operation on bits `shift..shift+bits` of r1.
    Part { f: PartFn, shift: u8, bits: u8 },
    /// LP/LN/LC.
    Comp { f: CompFn, w: u8, sx: bool, g: bool },
    /// Shift or rotate; `three`: result into r1 from r3 (RSY), else in place (RS).
    Shift { f: ShiftFn, g: bool, three: bool },
    /// RISBG/RNSBG/ROSBG/RXSBG.
    Rot { f: RotFn },
    /// Multiply logical into an even/odd pair.
    MulPair { g: bool },
    /// Divide logical of an even/odd pair.
    DivPair { g: bool },
    /// Divide single (DSG*): remainder in r1, quotient in r1+1.
    DivSingle { w: u8 },
    /// Find leftmost one.
    Flogr,
    /// Load on condition (register or storage).
    LoadCond { g: bool },
    /// Store on condition.
    StoreCond { g: bool },
    /// Branch relative on condition.
    Brc,
    /// Branch on condition to a register.
    Bcr,
    /// Branch on condition to an address.
    Bc,
    /// Branch relative and save.
    Bras,
    /// Branch and save to a register / to an address (`reg`).
    Bas { reg: bool },
    /// Branch relative on count.
    Brct { g: bool },
    /// Branch on count to a register.
    Bctr { g: bool },
    /// Compare and branch relative; `imm`: the second operand is an 8-bit immediate.
    CmpBranch { logical: bool, g: bool, imm: bool },
    /// SI forms.
    Si { f: SiFn },
    /// SIL forms: `move` MVHHI/MVHI/MVGHI, else compare (CHSI ...).
    Sil { w: u8, mv: bool, logical: bool },
    /// SS forms.
    Ss { f: SsFn },
    /// Insert program mask.
    Ipm,
    /// Store multiple.
    Stm { g: bool },
    /// Load multiple.
    Lm { g: bool },
    /// Interlocked load-and-op (LAA, LAAG, LAN, ...).
    LoadAndOp { f: Alu, g: bool },
    /// Insert character.
    Ic,
    /// Copy a GPR into an FPR (LDGR).
    Ldgr,
    /// Copy an FPR into a GPR (LGDR).
    Lgdr,
    /// Store CPU timer.
    Stpt,
    /// Set CPU timer.
    Spt,
    /// Store clock (STCK) / store clock fast (STCKF).
    Stck,
    /// Extract CPU time (ECTG): r0 = first operand - CPU timer, r1 = second operand, R3 = the
    /// doubleword at the address in R3 (the vdso's thread CPU time).
    Ectg,
    /// Supervisor call.
    Svc,
    /// Load PSW extended.
    Lpswe,
    /// Set system mask.
    Ssm,
    /// Store then and/or system mask (`or`: STOSM).
    StxSm { or: bool },
    /// Privileged and known, but not modelled (program check in problem state, else an error).
    PrivOther,
    /// Not implemented or not decodable.
    Unsupported,
}

/// One table row.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Spec {
    /// Own mnemonic.
    pub name: &'static str,
    /// Operation.
    pub op: Op,
    /// Operand slots in capstone's order (see [`crate::decode`]).
    pub shape: Shape,
    /// Timing class.
    pub class: Class,
    /// In the privileged list.
    pub privileged: bool,
}

/// The table key of the instruction starting with `b`.
pub fn key(b: &[u8; 6]) -> u32 {
    let (b0, b1, b5) = (u32::from(b[0]), u32::from(b[1]), u32::from(b[5]));
    match b[0] {
        0xa5 | 0xa7 | 0xc0 | 0xc2 | 0xc4 | 0xc6 | 0xc8 | 0xcc => (b0 << 8) | (b1 & 0xf),
        0x01 | 0xb2 | 0xb3 | 0xb9 | 0xe5 => (b0 << 8) | b1,
        0xe3 | 0xeb | 0xec | 0xed | 0xe7 => (b0 << 8) | b5,
        _ => b0 << 8,
    }
}

/// The condition mask from the instruction's bytes, for the operations that have one.
pub fn mask_of(op: Op, b: &[u8; 6]) -> Option<u8> {
    Some(match op {
        Op::Brc | Op::Bcr | Op::Bc => b[1] >> 4,
        Op::LoadCond { .. } | Op::StoreCond { .. } if b[0] == 0xb9 => b[2] >> 4,
        Op::LoadCond { .. } | Op::StoreCond { .. } => b[1] & 0xf,
        Op::CmpBranch { imm: false, .. } => b[4] >> 4,
        Op::CmpBranch { imm: true, .. } => b[1] & 0xf,
        _ => return None,
    })
}

/// The row for the instruction starting with `b`, if the opcode is in the table.
pub fn lookup(b: &[u8; 6]) -> Option<&'static Spec> {
    let k = key(b);
    TABLE.binary_search_by_key(&k, |(key, _)| *key).ok().and_then(|i| TABLE.get(i)).map(|(_, s)| s)
}

const fn s(name: &'static str, op: Op, shape: &'static str, class: Class) -> Spec {
    Spec { name, op, shape: Shape::parse(shape), class, privileged: false }
}

const fn p(name: &'static str, op: Op, shape: &'static str, class: Class) -> Spec {
    Spec { name, op, shape: Shape::parse(shape), class, privileged: true }
}

const fn ld(w: u8, sx: bool, g: bool) -> Op {
    Op::Load { w, sx, g }
}

const fn lt(w: u8, sx: bool, g: bool) -> Op {
    Op::LoadTest { w, sx, g }
}

const fn ar(f: Alu, w: u8, sx: bool, g: bool) -> Op {
    Op::Arith { f, w, sx, g, three: false }
}

const fn ar3(f: Alu, w: u8, sx: bool, g: bool) -> Op {
    Op::Arith { f, w, sx, g, three: true }
}

const fn cmp(logical: bool, w: u8, sx: bool, g: bool) -> Op {
    Op::Cmp { logical, w, sx, g }
}

const fn part(f: PartFn, shift: u8, bits: u8) -> Op {
    Op::Part { f, shift, bits }
}

const fn comp(f: CompFn, w: u8, sx: bool, g: bool) -> Op {
    Op::Comp { f, w, sx, g }
}

const fn sh(f: ShiftFn, g: bool, three: bool) -> Op {
    Op::Shift { f, g, three }
}

use Alu::{Add, AddC, AddL, And, Mul, Or, Sub, SubB, SubL, Xor};
use Class::{
    Branch, BranchCount, Call, Carry, Div, Load, LoadMultiple, LoadOp, Mul as CMul, MulImm, MulPair, Rmw, Serial,
    Simple, SsMove, SsOp, Store, StoreMultiple, SysMask, Timer,
};

/// Sorted by key.
static TABLE: &[(u32, Spec)] = &[
    (0x0600, s("bctr", Op::Bctr { g: false }, "RR", BranchCount)),
    (0x0700, s("bcr", Op::Bcr, "?R", Branch)),
    (0x0a00, s("svc", Op::Svc, "I", Serial)),
    (0x0d00, s("basr", Op::Bas { reg: true }, "RR", Call)),
    (0x1000, s("lpr", comp(CompFn::Positive, 4, false, false), "RR", Simple)),
    (0x1100, s("lnr", comp(CompFn::Negative, 4, false, false), "RR", Simple)),
    (0x1200, s("ltr", lt(4, false, false), "RR", Simple)),
    (0x1300, s("lcr", comp(CompFn::Complement, 4, false, false), "RR", Simple)),
    (0x1400, s("nr", ar(And, 4, false, false), "RR", Simple)),
    (0x1500, s("clr", cmp(true, 4, false, false), "RR", Simple)),
    (0x1600, s("or", ar(Or, 4, false, false), "RR", Simple)),
    (0x1700, s("xr", ar(Xor, 4, false, false), "RR", Simple)),
    (0x1800, s("lr", ld(4, false, false), "RR", Simple)),
    (0x1900, s("cr", cmp(false, 4, false, false), "RR", Simple)),
    (0x1a00, s("ar", ar(Add, 4, false, false), "RR", Simple)),
    (0x1b00, s("sr", ar(Sub, 4, false, false), "RR", Simple)),
    (0x1e00, s("alr", ar(AddL, 4, false, false), "RR", Simple)),
    (0x1f00, s("slr", ar(SubL, 4, false, false), "RR", Simple)),
    (0x4000, s("sth", Op::Store { w: 2 }, "RM", Store)),
    (0x4100, s("la", Op::La, "RM", Simple)),
    (0x4200, s("stc", Op::Store { w: 1 }, "RM", Store)),
    (0x4300, s("ic", Op::Ic, "RM", LoadOp)),
    (0x4700, s("bc", Op::Bc, "?M", Branch)),
    (0x4800, s("lh", ld(2, true, false), "RM", Load)),
    (0x4900, s("ch", cmp(false, 2, true, false), "RM", LoadOp)),
    (0x4a00, s("ah", ar(Add, 2, true, false), "RM", LoadOp)),
    (0x4b00, s("sh", ar(Sub, 2, true, false), "RM", LoadOp)),
    (0x4c00, s("mh", ar(Mul, 2, true, false), "RM", CMul)),
    (0x4d00, s("bas", Op::Bas { reg: false }, "RM", Call)),
    (0x5000, s("st", Op::Store { w: 4 }, "RM", Store)),
    (0x5400, s("n", ar(And, 4, false, false), "RM", LoadOp)),
    (0x5500, s("cl", cmp(true, 4, false, false), "RM", LoadOp)),
    (0x5600, s("o", ar(Or, 4, false, false), "RM", LoadOp)),
    (0x5700, s("x", ar(Xor, 4, false, false), "RM", LoadOp)),
    (0x5800, s("l", ld(4, false, false), "RM", Load)),
    (0x5900, s("c", cmp(false, 4, false, false), "RM", LoadOp)),
    (0x5a00, s("a", ar(Add, 4, false, false), "RM", LoadOp)),
    (0x5b00, s("s", ar(Sub, 4, false, false), "RM", LoadOp)),
    (0x5e00, s("al", ar(AddL, 4, false, false), "RM", LoadOp)),
    (0x5f00, s("sl", ar(SubL, 4, false, false), "RM", LoadOp)),
    (0x7100, s("ms", ar(Mul, 4, false, false), "RM", CMul)),
    (0x8000, p("ssm", Op::Ssm, "M", SysMask)),
    (0x8200, p("lpsw", Op::PrivOther, "M", Serial)),
    (0x8800, s("srl", sh(ShiftFn::Srl, false, false), "RM", Simple)),
    (0x8900, s("sll", sh(ShiftFn::Sll, false, false), "RM", Simple)),
    (0x8a00, s("sra", sh(ShiftFn::Sra, false, false), "RM", Simple)),
    (0x8b00, s("sla", sh(ShiftFn::Sla, false, false), "RM", Simple)),
    (0x9000, s("stm", Op::Stm { g: false }, "RRM", StoreMultiple)),
    (0x9100, s("tm", Op::Si { f: SiFn::Test }, "MI", LoadOp)),
    (0x9200, s("mvi", Op::Si { f: SiFn::Move }, "MI", Store)),
    (0x9400, s("ni", Op::Si { f: SiFn::And }, "MI", Rmw)),
    (0x9500, s("cli", Op::Si { f: SiFn::Compare }, "MI", LoadOp)),
    (0x9600, s("oi", Op::Si { f: SiFn::Or }, "MI", Rmw)),
    (0x9700, s("xi", Op::Si { f: SiFn::Xor }, "MI", Rmw)),
    (0x9800, s("lm", Op::Lm { g: false }, "RRM", LoadMultiple)),
    (0xa500, s("iihh", part(PartFn::Insert, 48, 16), "RI", Simple)),
    (0xa501, s("iihl", part(PartFn::Insert, 32, 16), "RI", Simple)),
    (0xa502, s("iilh", part(PartFn::Insert, 16, 16), "RI", Simple)),
    (0xa503, s("iill", part(PartFn::Insert, 0, 16), "RI", Simple)),
    (0xa504, s("nihh", part(PartFn::And, 48, 16), "RI", Simple)),
    (0xa505, s("nihl", part(PartFn::And, 32, 16), "RI", Simple)),
    (0xa506, s("nilh", part(PartFn::And, 16, 16), "RI", Simple)),
    (0xa507, s("nill", part(PartFn::And, 0, 16), "RI", Simple)),
    (0xa508, s("oihh", part(PartFn::Or, 48, 16), "RI", Simple)),
    (0xa509, s("oihl", part(PartFn::Or, 32, 16), "RI", Simple)),
    (0xa50a, s("oilh", part(PartFn::Or, 16, 16), "RI", Simple)),
    (0xa50b, s("oill", part(PartFn::Or, 0, 16), "RI", Simple)),
    (0xa50c, s("llihh", part(PartFn::LoadLogical, 48, 16), "RI", Simple)),
    (0xa50d, s("llihl", part(PartFn::LoadLogical, 32, 16), "RI", Simple)),
    (0xa50e, s("llilh", part(PartFn::LoadLogical, 16, 16), "RI", Simple)),
    (0xa50f, s("llill", part(PartFn::LoadLogical, 0, 16), "RI", Simple)),
    (0xa700, s("tmlh", part(PartFn::Test, 16, 16), "RI", Simple)),
    (0xa701, s("tmll", part(PartFn::Test, 0, 16), "RI", Simple)),
    (0xa702, s("tmhh", part(PartFn::Test, 48, 16), "RI", Simple)),
    (0xa703, s("tmhl", part(PartFn::Test, 32, 16), "RI", Simple)),
    (0xa704, s("brc", Op::Brc, "?I", Branch)),
    (0xa705, s("bras", Op::Bras, "RI", Call)),
    (0xa706, s("brct", Op::Brct { g: false }, "RI", BranchCount)),
    (0xa707, s("brctg", Op::Brct { g: true }, "RI", BranchCount)),
    (0xa708, s("lhi", ld(2, true, false), "RI", Simple)),
    (0xa709, s("lghi", ld(2, true, true), "RI", Simple)),
    (0xa70a, s("ahi", ar(Add, 2, true, false), "RI", Simple)),
    (0xa70b, s("aghi", ar(Add, 2, true, true), "RI", Simple)),
    (0xa70c, s("mhi", ar(Mul, 2, true, false), "RI", MulImm)),
    (0xa70d, s("mghi", ar(Mul, 2, true, true), "RI", MulImm)),
    (0xa70e, s("chi", cmp(false, 2, true, false), "RI", Simple)),
    (0xa70f, s("cghi", cmp(false, 2, true, true), "RI", Simple)),
    (0xac00, p("stnsm", Op::StxSm { or: false }, "MI", SysMask)),
    (0xad00, p("stosm", Op::StxSm { or: true }, "MI", SysMask)),
    (0xb202, p("stidp", Op::PrivOther, "M", Serial)),
    (0xb204, p("sck", Op::PrivOther, "M", Serial)),
    (0xb205, s("stck", Op::Stck, "M", Timer(TimerKind::Stck))),
    (0xb206, p("sckc", Op::PrivOther, "M", Serial)),
    (0xb207, p("stckc", Op::PrivOther, "M", Serial)),
    (0xb208, p("spt", Op::Spt, "M", Timer(TimerKind::Spt))),
    (0xb209, p("stpt", Op::Stpt, "M", Timer(TimerKind::Stpt))),
    (0xb20d, p("ptlb", Op::PrivOther, "", Serial)),
    (0xb210, p("spx", Op::PrivOther, "M", Serial)),
    (0xb211, p("stpx", Op::PrivOther, "M", Serial)),
    (0xb212, p("stap", Op::PrivOther, "M", Serial)),
    (0xb222, s("ipm", Op::Ipm, "R", Simple)),
    (0xb252, s("msr", ar(Mul, 4, false, false), "RR", CMul)),
    (0xb27c, s("stckf", Op::Stck, "M", Timer(TimerKind::Stckf))),
    (0xb2b2, p("lpswe", Op::Lpswe, "M", Serial)),
    (0xb3c1, s("ldgr", Op::Ldgr, "FR", Simple)),
    (0xb3cd, s("lgdr", Op::Lgdr, "RF", Simple)),
    (0xb900, s("lpgr", comp(CompFn::Positive, 8, false, true), "RR", Simple)),
    (0xb901, s("lngr", comp(CompFn::Negative, 8, false, true), "RR", Simple)),
    (0xb902, s("ltgr", lt(8, false, true), "RR", Simple)),
    (0xb903, s("lcgr", comp(CompFn::Complement, 8, false, true), "RR", Simple)),
    (0xb904, s("lgr", ld(8, false, true), "RR", Simple)),
    (0xb905, p("lurag", Op::PrivOther, "RR", Serial)),
    (0xb906, s("lgbr", ld(1, true, true), "RR", Simple)),
    (0xb907, s("lghr", ld(2, true, true), "RR", Simple)),
    (0xb908, s("agr", ar(Add, 8, false, true), "RR", Simple)),
    (0xb909, s("sgr", ar(Sub, 8, false, true), "RR", Simple)),
    (0xb90a, s("algr", ar(AddL, 8, false, true), "RR", Simple)),
    (0xb90b, s("slgr", ar(SubL, 8, false, true), "RR", Simple)),
    (0xb90c, s("msgr", ar(Mul, 8, false, true), "RR", CMul)),
    (0xb90d, s("dsgr", Op::DivSingle { w: 8 }, "RR", Div)),
    (0xb910, s("lpgfr", comp(CompFn::Positive, 4, true, true), "RR", Simple)),
    (0xb911, s("lngfr", comp(CompFn::Negative, 4, true, true), "RR", Simple)),
    (0xb912, s("ltgfr", lt(4, true, true), "RR", Simple)),
    (0xb913, s("lcgfr", comp(CompFn::Complement, 4, true, true), "RR", Simple)),
    (0xb914, s("lgfr", ld(4, true, true), "RR", Simple)),
    (0xb916, s("llgfr", ld(4, false, true), "RR", Simple)),
    (0xb918, s("agfr", ar(Add, 4, true, true), "RR", Simple)),
    (0xb919, s("sgfr", ar(Sub, 4, true, true), "RR", Simple)),
    (0xb91a, s("algfr", ar(AddL, 4, false, true), "RR", Simple)),
    (0xb91b, s("slgfr", ar(SubL, 4, false, true), "RR", Simple)),
    (0xb91c, s("msgfr", ar(Mul, 4, true, true), "RR", CMul)),
    (0xb91d, s("dsgfr", Op::DivSingle { w: 4 }, "RR", Div)),
    (0xb920, s("cgr", cmp(false, 8, false, true), "RR", Simple)),
    (0xb921, s("clgr", cmp(true, 8, false, true), "RR", Simple)),
    (0xb925, p("sturg", Op::PrivOther, "RR", Serial)),
    (0xb926, s("lbr", ld(1, true, false), "RR", Simple)),
    (0xb927, s("lhr", ld(2, true, false), "RR", Simple)),
    (0xb930, s("cgfr", cmp(false, 4, true, true), "RR", Simple)),
    (0xb931, s("clgfr", cmp(true, 4, false, true), "RR", Simple)),
    (0xb946, s("bctgr", Op::Bctr { g: true }, "RR", BranchCount)),
    (0xb980, s("ngr", ar(And, 8, false, true), "RR", Simple)),
    (0xb981, s("ogr", ar(Or, 8, false, true), "RR", Simple)),
    (0xb982, s("xgr", ar(Xor, 8, false, true), "RR", Simple)),
    (0xb983, s("flogr", Op::Flogr, "RR", MulPair)),
    (0xb984, s("llgcr", ld(1, false, true), "RR", Simple)),
    (0xb985, s("llghr", ld(2, false, true), "RR", Simple)),
    (0xb986, s("mlgr", Op::MulPair { g: true }, "RR", MulPair)),
    (0xb987, s("dlgr", Op::DivPair { g: true }, "RR", Div)),
    (0xb988, s("alcgr", ar(AddC, 8, false, true), "RR", Carry)),
    (0xb989, s("slbgr", ar(SubB, 8, false, true), "RR", Carry)),
    (0xb994, s("llcr", ld(1, false, false), "RR", Simple)),
    (0xb995, s("llhr", ld(2, false, false), "RR", Simple)),
    (0xb996, s("mlr", Op::MulPair { g: false }, "RR", MulPair)),
    (0xb997, s("dlr", Op::DivPair { g: false }, "RR", Div)),
    (0xb998, s("alcr", ar(AddC, 4, false, false), "RR", Carry)),
    (0xb999, s("slbr", ar(SubB, 4, false, false), "RR", Carry)),
    (0xb9e2, s("locgr", Op::LoadCond { g: true }, "RR?", Simple)),
    (0xb9e4, s("ngrk", ar3(And, 8, false, true), "RRR", Simple)),
    (0xb9e6, s("ogrk", ar3(Or, 8, false, true), "RRR", Simple)),
    (0xb9e7, s("xgrk", ar3(Xor, 8, false, true), "RRR", Simple)),
    (0xb9e8, s("agrk", ar3(Add, 8, false, true), "RRR", Simple)),
    (0xb9e9, s("sgrk", ar3(Sub, 8, false, true), "RRR", Simple)),
    (0xb9ea, s("algrk", ar3(AddL, 8, false, true), "RRR", Simple)),
    (0xb9eb, s("slgrk", ar3(SubL, 8, false, true), "RRR", Simple)),
    (0xb9f2, s("locr", Op::LoadCond { g: false }, "RR?", Simple)),
    (0xb9f4, s("nrk", ar3(And, 4, false, false), "RRR", Simple)),
    (0xb9f6, s("ork", ar3(Or, 4, false, false), "RRR", Simple)),
    (0xb9f7, s("xrk", ar3(Xor, 4, false, false), "RRR", Simple)),
    (0xb9f8, s("ark", ar3(Add, 4, false, false), "RRR", Simple)),
    (0xb9f9, s("srk", ar3(Sub, 4, false, false), "RRR", Simple)),
    (0xb9fa, s("alrk", ar3(AddL, 4, false, false), "RRR", Simple)),
    (0xb9fb, s("slrk", ar3(SubL, 4, false, false), "RRR", Simple)),
    (0xc000, s("larl", Op::Larl, "RI", Simple)),
    (0xc001, s("lgfi", ld(4, true, true), "RI", Simple)),
    (0xc004, s("brcl", Op::Brc, "?I", Branch)),
    (0xc005, s("brasl", Op::Bras, "RI", Call)),
    (0xc006, s("xihf", part(PartFn::Xor, 32, 32), "RI", Simple)),
    (0xc007, s("xilf", part(PartFn::Xor, 0, 32), "RI", Simple)),
    (0xc008, s("iihf", part(PartFn::Insert, 32, 32), "RI", Simple)),
    (0xc009, s("iilf", part(PartFn::Insert, 0, 32), "RI", Simple)),
    (0xc00a, s("nihf", part(PartFn::And, 32, 32), "RI", Simple)),
    (0xc00b, s("nilf", part(PartFn::And, 0, 32), "RI", Simple)),
    (0xc00c, s("oihf", part(PartFn::Or, 32, 32), "RI", Simple)),
    (0xc00d, s("oilf", part(PartFn::Or, 0, 32), "RI", Simple)),
    (0xc00e, s("llihf", part(PartFn::LoadLogical, 32, 32), "RI", Simple)),
    (0xc00f, s("llilf", part(PartFn::LoadLogical, 0, 32), "RI", Simple)),
    (0xc200, s("msgfi", ar(Mul, 4, true, true), "RI", MulImm)),
    (0xc201, s("msfi", ar(Mul, 4, false, false), "RI", MulImm)),
    (0xc204, s("slgfi", ar(SubL, 4, false, true), "RI", Simple)),
    (0xc205, s("slfi", ar(SubL, 4, false, false), "RI", Simple)),
    (0xc208, s("agfi", ar(Add, 4, true, true), "RI", Simple)),
    (0xc209, s("afi", ar(Add, 4, false, false), "RI", Simple)),
    (0xc20a, s("algfi", ar(AddL, 4, false, true), "RI", Simple)),
    (0xc20b, s("alfi", ar(AddL, 4, false, false), "RI", Simple)),
    (0xc20c, s("cgfi", cmp(false, 4, true, true), "RI", Simple)),
    (0xc20d, s("cfi", cmp(false, 4, false, false), "RI", Simple)),
    (0xc20e, s("clgfi", cmp(true, 4, false, true), "RI", Simple)),
    (0xc20f, s("clfi", cmp(true, 4, false, false), "RI", Simple)),
    (0xc404, s("lghrl", Op::LoadRel { w: 2, sx: true, g: true }, "RI", Load)),
    (0xc405, s("lhrl", Op::LoadRel { w: 2, sx: true, g: false }, "RI", Load)),
    (0xc406, s("llghrl", Op::LoadRel { w: 2, sx: false, g: true }, "RI", Load)),
    (0xc407, s("sthrl", Op::StoreRel { w: 2 }, "RI", Store)),
    (0xc408, s("lgrl", Op::LoadRel { w: 8, sx: false, g: true }, "RI", Load)),
    (0xc40b, s("stgrl", Op::StoreRel { w: 8 }, "RI", Store)),
    (0xc40c, s("lgfrl", Op::LoadRel { w: 4, sx: true, g: true }, "RI", Load)),
    (0xc40d, s("lrl", Op::LoadRel { w: 4, sx: false, g: false }, "RI", Load)),
    (0xc40e, s("llgfrl", Op::LoadRel { w: 4, sx: false, g: true }, "RI", Load)),
    (0xc40f, s("strl", Op::StoreRel { w: 4 }, "RI", Store)),
    // ECTG (SSF, c8x1) is unprivileged; LLVM's z13 model runs it in millicode (timing/params.rs).
    (0xc801, s("ectg", Op::Ectg, "MMR", Timer(TimerKind::Ectg))),
    (0xd200, s("mvc", Op::Ss { f: SsFn::Move }, "MM", SsMove)),
    (0xd400, s("nc", Op::Ss { f: SsFn::And }, "MM", SsOp)),
    (0xd500, s("clc", Op::Ss { f: SsFn::Compare }, "MM", SsOp)),
    (0xd600, s("oc", Op::Ss { f: SsFn::Or }, "MM", SsOp)),
    (0xd700, s("xc", Op::Ss { f: SsFn::Xor }, "MM", SsOp)),
    (0xe302, s("ltg", lt(8, false, true), "RM", LoadOp)),
    (0xe304, s("lg", ld(8, false, true), "RM", Load)),
    (0xe308, s("ag", ar(Add, 8, false, true), "RM", LoadOp)),
    (0xe309, s("sg", ar(Sub, 8, false, true), "RM", LoadOp)),
    (0xe30a, s("alg", ar(AddL, 8, false, true), "RM", LoadOp)),
    (0xe30b, s("slg", ar(SubL, 8, false, true), "RM", LoadOp)),
    (0xe30c, s("msg", ar(Mul, 8, false, true), "RM", CMul)),
    (0xe30d, s("dsg", Op::DivSingle { w: 8 }, "RM", Div)),
    (0xe312, s("lt", lt(4, false, false), "RM", LoadOp)),
    (0xe314, s("lgf", ld(4, true, true), "RM", Load)),
    (0xe315, s("lgh", ld(2, true, true), "RM", Load)),
    (0xe316, s("llgf", ld(4, false, true), "RM", Load)),
    (0xe318, s("agf", ar(Add, 4, true, true), "RM", LoadOp)),
    (0xe319, s("sgf", ar(Sub, 4, true, true), "RM", LoadOp)),
    (0xe31a, s("algf", ar(AddL, 4, false, true), "RM", LoadOp)),
    (0xe31b, s("slgf", ar(SubL, 4, false, true), "RM", LoadOp)),
    (0xe31c, s("msgf", ar(Mul, 4, true, true), "RM", CMul)),
    (0xe31d, s("dsgf", Op::DivSingle { w: 4 }, "RM", Div)),
    (0xe320, s("cg", cmp(false, 8, false, true), "RM", LoadOp)),
    (0xe321, s("clg", cmp(true, 8, false, true), "RM", LoadOp)),
    (0xe324, s("stg", Op::Store { w: 8 }, "RM", Store)),
    (0xe330, s("cgf", cmp(false, 4, true, true), "RM", LoadOp)),
    (0xe331, s("clgf", cmp(true, 4, false, true), "RM", LoadOp)),
    (0xe334, s("cgh", cmp(false, 2, true, true), "RM", LoadOp)),
    (0xe350, s("sty", Op::Store { w: 4 }, "RM", Store)),
    (0xe351, s("msy", ar(Mul, 4, false, false), "RM", CMul)),
    (0xe354, s("ny", ar(And, 4, false, false), "RM", LoadOp)),
    (0xe355, s("cly", cmp(true, 4, false, false), "RM", LoadOp)),
    (0xe356, s("oy", ar(Or, 4, false, false), "RM", LoadOp)),
    (0xe357, s("xy", ar(Xor, 4, false, false), "RM", LoadOp)),
    (0xe358, s("ly", ld(4, false, false), "RM", Load)),
    (0xe359, s("cy", cmp(false, 4, false, false), "RM", LoadOp)),
    (0xe35a, s("ay", ar(Add, 4, false, false), "RM", LoadOp)),
    (0xe35b, s("sy", ar(Sub, 4, false, false), "RM", LoadOp)),
    (0xe35e, s("aly", ar(AddL, 4, false, false), "RM", LoadOp)),
    (0xe35f, s("sly", ar(SubL, 4, false, false), "RM", LoadOp)),
    (0xe370, s("sthy", Op::Store { w: 2 }, "RM", Store)),
    (0xe371, s("lay", Op::La, "RM", Simple)),
    (0xe372, s("stcy", Op::Store { w: 1 }, "RM", Store)),
    (0xe373, s("icy", Op::Ic, "RM", LoadOp)),
    (0xe376, s("lb", ld(1, true, false), "RM", Load)),
    (0xe377, s("lgb", ld(1, true, true), "RM", Load)),
    (0xe378, s("lhy", ld(2, true, false), "RM", Load)),
    (0xe379, s("chy", cmp(false, 2, true, false), "RM", LoadOp)),
    (0xe37a, s("ahy", ar(Add, 2, true, false), "RM", LoadOp)),
    (0xe37b, s("shy", ar(Sub, 2, true, false), "RM", LoadOp)),
    (0xe380, s("ng", ar(And, 8, false, true), "RM", LoadOp)),
    (0xe381, s("og", ar(Or, 8, false, true), "RM", LoadOp)),
    (0xe382, s("xg", ar(Xor, 8, false, true), "RM", LoadOp)),
    (0xe386, s("mlg", Op::MulPair { g: true }, "RM", MulPair)),
    (0xe387, s("dlg", Op::DivPair { g: true }, "RM", Div)),
    (0xe388, s("alcg", ar(AddC, 8, false, true), "RM", Carry)),
    (0xe389, s("slbg", ar(SubB, 8, false, true), "RM", Carry)),
    (0xe390, s("llgc", ld(1, false, true), "RM", Load)),
    (0xe391, s("llgh", ld(2, false, true), "RM", Load)),
    (0xe394, s("llc", ld(1, false, false), "RM", Load)),
    (0xe395, s("llh", ld(2, false, false), "RM", Load)),
    (0xe396, s("ml", Op::MulPair { g: false }, "RM", MulPair)),
    (0xe397, s("dl", Op::DivPair { g: false }, "RM", Div)),
    (0xe398, s("alc", ar(AddC, 4, false, false), "RM", Carry)),
    (0xe399, s("slb", ar(SubB, 4, false, false), "RM", Carry)),
    (0xe544, s("mvhhi", Op::Sil { w: 2, mv: true, logical: false }, "MI", Store)),
    (0xe548, s("mvghi", Op::Sil { w: 8, mv: true, logical: false }, "MI", Store)),
    (0xe54c, s("mvhi", Op::Sil { w: 4, mv: true, logical: false }, "MI", Store)),
    (0xe554, s("chhsi", Op::Sil { w: 2, mv: false, logical: false }, "MI", LoadOp)),
    (0xe555, s("clhhsi", Op::Sil { w: 2, mv: false, logical: true }, "MI", LoadOp)),
    (0xe558, s("cghsi", Op::Sil { w: 8, mv: false, logical: false }, "MI", LoadOp)),
    (0xe559, s("clghsi", Op::Sil { w: 8, mv: false, logical: true }, "MI", LoadOp)),
    (0xe55c, s("chsi", Op::Sil { w: 4, mv: false, logical: false }, "MI", LoadOp)),
    (0xe55d, s("clfhsi", Op::Sil { w: 4, mv: false, logical: true }, "MI", LoadOp)),
    (0xeb04, s("lmg", Op::Lm { g: true }, "RRM", LoadMultiple)),
    (0xeb0a, s("srag", sh(ShiftFn::Sra, true, true), "RRM", Simple)),
    (0xeb0b, s("slag", sh(ShiftFn::Sla, true, true), "RRM", Simple)),
    (0xeb0c, s("srlg", sh(ShiftFn::Srl, true, true), "RRM", Simple)),
    (0xeb0d, s("sllg", sh(ShiftFn::Sll, true, true), "RRM", Simple)),
    (0xeb1c, s("rllg", sh(ShiftFn::Rll, true, true), "RRM", Simple)),
    (0xeb1d, s("rll", sh(ShiftFn::Rll, false, true), "RRM", Simple)),
    (0xeb24, s("stmg", Op::Stm { g: true }, "RRM", StoreMultiple)),
    (0xeb25, p("stctg", Op::PrivOther, "RRM", Serial)),
    (0xeb2f, p("lctlg", Op::PrivOther, "RRM", Serial)),
    (0xeb51, s("tmy", Op::Si { f: SiFn::Test }, "MI", LoadOp)),
    (0xeb52, s("mviy", Op::Si { f: SiFn::Move }, "MI", Store)),
    (0xeb54, s("niy", Op::Si { f: SiFn::And }, "MI", Rmw)),
    (0xeb55, s("cliy", Op::Si { f: SiFn::Compare }, "MI", LoadOp)),
    (0xeb56, s("oiy", Op::Si { f: SiFn::Or }, "MI", Rmw)),
    (0xeb57, s("xiy", Op::Si { f: SiFn::Xor }, "MI", Rmw)),
    (0xeb90, s("stmy", Op::Stm { g: false }, "RRM", StoreMultiple)),
    (0xeb98, s("lmy", Op::Lm { g: false }, "RRM", LoadMultiple)),
    (0xebdc, s("srak", sh(ShiftFn::Sra, false, true), "RRM", Simple)),
    (0xebdd, s("slak", sh(ShiftFn::Sla, false, true), "RRM", Simple)),
    (0xebde, s("srlk", sh(ShiftFn::Srl, false, true), "RRM", Simple)),
    (0xebdf, s("sllk", sh(ShiftFn::Sll, false, true), "RRM", Simple)),
    (0xebe2, s("locg", Op::LoadCond { g: true }, "RM?", LoadOp)),
    (0xebe3, s("stocg", Op::StoreCond { g: true }, "RM?", Store)),
    (0xebe4, s("lang", Op::LoadAndOp { f: And, g: true }, "RRM", Rmw)),
    (0xebe6, s("laog", Op::LoadAndOp { f: Or, g: true }, "RRM", Rmw)),
    (0xebe7, s("laxg", Op::LoadAndOp { f: Xor, g: true }, "RRM", Rmw)),
    (0xebe8, s("laag", Op::LoadAndOp { f: Add, g: true }, "RRM", Rmw)),
    (0xebea, s("laalg", Op::LoadAndOp { f: AddL, g: true }, "RRM", Rmw)),
    (0xebf2, s("loc", Op::LoadCond { g: false }, "RM?", LoadOp)),
    (0xebf3, s("stoc", Op::StoreCond { g: false }, "RM?", Store)),
    (0xebf4, s("lan", Op::LoadAndOp { f: And, g: false }, "RRM", Rmw)),
    (0xebf6, s("lao", Op::LoadAndOp { f: Or, g: false }, "RRM", Rmw)),
    (0xebf7, s("lax", Op::LoadAndOp { f: Xor, g: false }, "RRM", Rmw)),
    (0xebf8, s("laa", Op::LoadAndOp { f: Add, g: false }, "RRM", Rmw)),
    (0xebfa, s("laal", Op::LoadAndOp { f: AddL, g: false }, "RRM", Rmw)),
    (0xec54, s("rnsbg", Op::Rot { f: RotFn::And }, "RRIII", Simple)),
    (0xec55, s("risbg", Op::Rot { f: RotFn::Insert }, "RRIII", Simple)),
    (0xec56, s("rosbg", Op::Rot { f: RotFn::Or }, "RRIII", Simple)),
    (0xec57, s("rxsbg", Op::Rot { f: RotFn::Xor }, "RRIII", Simple)),
    (0xec64, s("cgrj", Op::CmpBranch { logical: false, g: true, imm: false }, "RR?I", Branch)),
    (0xec65, s("clgrj", Op::CmpBranch { logical: true, g: true, imm: false }, "RR?I", Branch)),
    (0xec76, s("crj", Op::CmpBranch { logical: false, g: false, imm: false }, "RR?I", Branch)),
    (0xec77, s("clrj", Op::CmpBranch { logical: true, g: false, imm: false }, "RR?I", Branch)),
    (0xec7c, s("cgij", Op::CmpBranch { logical: false, g: true, imm: true }, "RI?I", Branch)),
    (0xec7d, s("clgij", Op::CmpBranch { logical: true, g: true, imm: true }, "RI?I", Branch)),
    (0xec7e, s("cij", Op::CmpBranch { logical: false, g: false, imm: true }, "RI?I", Branch)),
    (0xec7f, s("clij", Op::CmpBranch { logical: true, g: false, imm: true }, "RI?I", Branch)),
    (0xecd8, s("ahik", Op::Arith { f: Add, w: 2, sx: true, g: false, three: true }, "RRI", Simple)),
    (0xecd9, s("aghik", Op::Arith { f: Add, w: 2, sx: true, g: true, three: true }, "RRI", Simple)),
    (0xecda, s("alhsik", Op::Arith { f: AddL, w: 2, sx: true, g: false, three: true }, "RRI", Simple)),
    (0xecdb, s("alghsik", Op::Arith { f: AddL, w: 2, sx: true, g: true, three: true }, "RRI", Simple)),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timer_rows_carry_the_kind_of_their_operation() {
        for (key, spec) in TABLE {
            let timer_op = matches!(spec.op, Op::Stpt | Op::Spt | Op::Stck | Op::Ectg);
            let consistent = match spec.class {
                Class::Timer(kind) => matches!(
                    (spec.op, kind),
                    (Op::Stpt, TimerKind::Stpt)
                        | (Op::Spt, TimerKind::Spt)
                        | (Op::Stck, TimerKind::Stck | TimerKind::Stckf)
                        | (Op::Ectg, TimerKind::Ectg)
                ),
                _ => !timer_op,
            };
            assert!(consistent, "{key:#x} {}: {:?} with {:?}", spec.name, spec.op, spec.class);
        }
        let kind = |b: [u8; 6]| lookup(&b).map(|s| s.class);
        assert_eq!(kind([0xb2, 0x05, 0, 0, 0, 0]), Some(Class::Timer(TimerKind::Stck)));
        assert_eq!(kind([0xb2, 0x7c, 0, 0, 0, 0]), Some(Class::Timer(TimerKind::Stckf)));
    }

    #[test]
    fn table_is_sorted_and_unique() {
        assert!(TABLE.windows(2).all(|w| w.first().map(|a| a.0) < w.get(1).map(|b| b.0)));
    }
}
