//! The x86-64 operation table: one row per iced-x86 [`Mnemonic`] (split by operand count where
//! one mnemonic names two operations) giving everything the decoder, the executor and the timing
//! model decide about an instruction: its [`Op`], the semantics family that runs it, how its
//! operand size is found, and the rule that picks its [`TimingClass`] from the decoded form.
//!
//! A mnemonic without a row decodes to [`Op::Unsupported`] and stops the run with the
//! instruction's text, bytes and address ([`crate::cpu::ExecError::Unsupported`]).
//!
//! Flags and registers read and written come from iced-x86's instruction info, not from here;
//! serialising behaviour is a property of the timing class ([`TimingClass::serialises`]).

use iced_x86::Mnemonic;

use crate::insn::{Insn, Op, Operand};
use crate::timing::TimingClass;

/// Which operand counts a row covers (iced's `op_count`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Arity {
    /// Every form of the mnemonic.
    Any,
    /// Only forms with exactly this many operands.
    Exactly(u32),
    /// Only forms with at least this many operands.
    AtLeast(u32),
}

impl Arity {
    /// Whether a form with `n` operands is covered.
    pub const fn covers(self, n: u32) -> bool {
        match self {
            Arity::Any => true,
            Arity::Exactly(k) => n == k,
            Arity::AtLeast(k) => n >= k,
        }
    }
}

/// The semantics family (one function in `exec`) that executes an operation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Sem {
    /// Data movement and exchanges: mov, movzx, movsx, lea, xchg, xadd, cmpxchg.
    Moves,
    /// Two-operand ALU operations setting the flags: add .. xor, cmp, test.
    Binary,
    /// One-operand ALU operations and the carry-flag instructions.
    Unary,
    /// Shifts and rotates by an immediate, 1 or cl.
    Shift,
    /// shld / shrd.
    DoubleShift,
    /// Bit tests, scans and counts.
    Bits,
    /// Multiplies, divides and accumulator sign extensions.
    MulDiv,
    /// Conditions, branches, calls and the stack.
    Flow,
    /// RFLAGS save/restore, the interrupt flag, the time stamp counter and hlt.
    System,
    /// No architectural effect in this model (fences, pause, nops, endbr64).
    Hint,
    /// Not implemented: execution stops with an error.
    None,
}

/// How the operand size ([`Insn::size`]) of a form is found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SizeRule {
    /// The width of operand 0 (the destination; for movzx/movsx the destination too).
    Dest,
    /// A size the mnemonic fixes (cwde: 4, pushfq: 8, call: 8, ...).
    Fixed(u8),
    /// push/pop: 8 for an immediate, else the width of operand 0.
    Stack,
    /// The semantics use no operand size (jcc, cli, rdtsc, fences, nops); the size is 0.
    Unsized,
}

impl SizeRule {
    /// Whether the semantics compute with the size (then it must be 1, 2, 4 or 8).
    pub const fn sized(self) -> bool {
        !matches!(self, SizeRule::Unsized)
    }

    /// The size of a decoded form with operands `ops`.
    pub fn size(self, ops: &[Operand; 3]) -> u8 {
        match self {
            SizeRule::Dest => width(&ops[0]),
            SizeRule::Fixed(n) => n,
            SizeRule::Stack if matches!(ops[0], Operand::Imm(_)) => 8,
            SizeRule::Stack => width(&ops[0]),
            SizeRule::Unsized => 0,
        }
    }
}

/// Width in bytes of a register or memory operand (0 otherwise).
fn width(o: &Operand) -> u8 {
    match o {
        Operand::Reg(g) => g.size,
        Operand::Mem(m) => m.size,
        _ => 0,
    }
}

/// How a row's [`TimingClass`] follows from the decoded form. "Memory destination" means
/// operand 0 is memory; "memory operand" any operand is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClassRule {
    /// Always this class.
    Fixed(TimingClass),
    /// An ALU operation: `lock` gives [`TimingClass::LockedRmw`]; else a memory destination
    /// (when the operation `writes` its destination) [`TimingClass::Rmw`]; else a memory operand
    /// [`TimingClass::LoadAlu`]; else [`TimingClass::Alu`].
    Alu {
        /// The destination is written (false for cmp, test, bt).
        writes: bool,
    },
    /// mov: memory destination: Store; memory source: Load; immediate source: MovImm; else Mov.
    Move,
    /// movzx/movsx: memory source: Load; else Movzx.
    Extend,
    /// A shift with its count in operand `count`: memory destination as a writing ALU
    /// operation; count in a register (cl): ShiftCl; else Shift.
    Shift {
        /// Operand index of the count.
        count: usize,
    },
    /// Memory destination as a writing ALU operation, else this class (rotates, bts/btr/btc).
    RegOr(TimingClass),
    /// Memory destination: Store, else this class (setcc).
    StoreOr(TimingClass),
    /// Operand 0 immediate (a direct target): `direct`, else `indirect`.
    Branch {
        /// Class of the direct form.
        direct: TimingClass,
        /// Class of the register/memory form.
        indirect: TimingClass,
    },
    /// div/idiv: [`TimingClass::Div`] with the operand size.
    Div {
        /// idiv.
        signed: bool,
    },
    /// A `lock` prefix or a memory operand (xchg with memory is locked without the prefix):
    /// LockedRmw, else this class.
    LockedOr(TimingClass),
}

impl ClassRule {
    /// The class of the decoded `insn` (its operands, size and lock prefix already filled in).
    pub fn class(self, insn: &Insn) -> TimingClass {
        use TimingClass as T;
        let mem_dst = matches!(insn.ops[0], Operand::Mem(_));
        let mem_any = insn.ops.iter().any(|o| matches!(o, Operand::Mem(_)));
        let alu = |writes: bool| {
            if insn.lock {
                T::LockedRmw
            } else if mem_dst && writes {
                T::Rmw
            } else if mem_any {
                T::LoadAlu
            } else {
                T::Alu
            }
        };
        match self {
            ClassRule::Fixed(c) => c,
            ClassRule::Alu { writes } => alu(writes),
            ClassRule::Move if mem_dst => T::Store,
            ClassRule::Move if mem_any => T::Load,
            ClassRule::Move if matches!(insn.ops[1], Operand::Imm(_)) => T::MovImm,
            ClassRule::Move => T::Mov,
            ClassRule::Extend if mem_any => T::Load,
            ClassRule::Extend => T::Movzx,
            ClassRule::Shift { .. } | ClassRule::RegOr(_) if mem_dst => alu(true),
            ClassRule::Shift { count } if matches!(insn.ops.get(count), Some(Operand::Reg(_))) => T::ShiftCl,
            ClassRule::Shift { .. } => T::Shift,
            ClassRule::RegOr(c) => c,
            ClassRule::StoreOr(_) if mem_dst => T::Store,
            ClassRule::StoreOr(c) => c,
            ClassRule::Branch { direct, .. } if matches!(insn.ops[0], Operand::Imm(_)) => direct,
            ClassRule::Branch { indirect, .. } => indirect,
            ClassRule::Div { signed } => T::Div { bytes: insn.size, signed },
            ClassRule::LockedOr(_) if insn.lock || mem_any => T::LockedRmw,
            ClassRule::LockedOr(c) => c,
        }
    }
}

/// One row: a mnemonic (with the operand counts it covers) and what it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Row {
    /// iced-x86's mnemonic.
    pub mnemonic: Mnemonic,
    /// The operand counts this row covers.
    pub arity: Arity,
    /// The operation.
    pub op: Op,
    /// The semantics family executing it.
    pub sem: Sem,
    /// How the operand size is found.
    pub size: SizeRule,
    /// How the timing class is chosen.
    pub class: ClassRule,
    /// A destination register narrower than 32 bits keeps its other bits, so the write also
    /// reads the register (false for movzx/movsx, whose result the model treats as whole).
    pub merges: bool,
}

/// What the executor needs of an operation, the same for every row of that operation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OpInfo {
    /// The semantics family.
    pub sem: Sem,
    /// The semantics compute with [`Insn::size`], which must then be 1, 2, 4 or 8.
    pub sized: bool,
}

/// The row for a decoded form with `mnemonic` and `op_count` operands.
pub fn lookup(mnemonic: Mnemonic, op_count: u32) -> Option<&'static Row> {
    TABLE.iter().find(|r| r.mnemonic == mnemonic && r.arity.covers(op_count))
}

/// The executor's view of `op` (`Op::Unsupported`: [`Sem::None`]).
pub fn op_info(op: Op) -> OpInfo {
    BY_OP.get(op as usize).copied().unwrap_or(UNSUPPORTED)
}

/// Every row, in no particular order (mnemonics are matched exactly).
pub fn rows() -> &'static [Row] {
    &TABLE
}

/// The rows at one address, so a row found by [`lookup`] can be told apart by identity.
static TABLE: [Row; ROWS.len()] = ROWS;

const UNSUPPORTED: OpInfo = OpInfo { sem: Sem::None, sized: false };

/// Number of [`Op`] variants (`Unsupported` is the last).
const OP_COUNT: usize = Op::Unsupported as usize + 1;

/// [`OpInfo`] by operation, collected from the rows at compile time; two rows of one
/// operation that disagree on its family or sizedness fail the build.
const BY_OP: [OpInfo; OP_COUNT] = {
    let mut by_op = [UNSUPPORTED; OP_COUNT];
    let mut seen = [false; OP_COUNT];
    let mut n = 0;
    while n < ROWS.len() {
        let row = &ROWS[n];
        let k = row.op as usize;
        let info = OpInfo { sem: row.sem, sized: row.size.sized() };
        if seen[k] {
            assert!(
                by_op[k].sem as u8 == info.sem as u8 && by_op[k].sized == info.sized,
                "two rows of one operation disagree on its semantics family or sizedness"
            );
        }
        by_op[k] = info;
        seen[k] = true;
        n += 1;
    }
    by_op
};

const fn row(mnemonic: Mnemonic, op: Op, sem: Sem, size: SizeRule, class: ClassRule) -> Row {
    Row { mnemonic, arity: Arity::Any, op, sem, size, class, merges: true }
}

const fn arity(mut r: Row, arity: Arity) -> Row {
    r.arity = arity;
    r
}

const fn whole(mut r: Row) -> Row {
    r.merges = false;
    r
}

/// A two-operand ALU row.
const fn binary(m: Mnemonic, op: Op, writes: bool) -> Row {
    row(m, op, Sem::Binary, SizeRule::Dest, ClassRule::Alu { writes })
}

/// A one-operand ALU row (and clc/stc/cmc, which have no operand and no size).
const fn unary(m: Mnemonic, op: Op, size: SizeRule) -> Row {
    row(m, op, Sem::Unary, size, ClassRule::Alu { writes: true })
}

const fn shift(m: Mnemonic, op: Op) -> Row {
    row(m, op, Sem::Shift, SizeRule::Dest, ClassRule::Shift { count: 1 })
}

const fn rotate(m: Mnemonic, op: Op) -> Row {
    row(m, op, Sem::Shift, SizeRule::Dest, ClassRule::RegOr(TimingClass::Rotate))
}

const fn bits(m: Mnemonic, op: Op, class: ClassRule) -> Row {
    row(m, op, Sem::Bits, SizeRule::Dest, class)
}

const fn muldiv(m: Mnemonic, op: Op, size: SizeRule, class: ClassRule) -> Row {
    row(m, op, Sem::MulDiv, size, class)
}

const fn flow(m: Mnemonic, op: Op, size: SizeRule, class: ClassRule) -> Row {
    row(m, op, Sem::Flow, size, class)
}

const fn system(m: Mnemonic, op: Op, size: SizeRule, class: TimingClass) -> Row {
    row(m, op, Sem::System, size, ClassRule::Fixed(class))
}

const fn hint(m: Mnemonic, op: Op, class: TimingClass) -> Row {
    row(m, op, Sem::Hint, SizeRule::Unsized, ClassRule::Fixed(class))
}

const fn setcc(m: Mnemonic) -> Row {
    flow(m, Op::Setcc, SizeRule::Dest, ClassRule::StoreOr(TimingClass::Setcc))
}

const fn cmovcc(m: Mnemonic) -> Row {
    flow(m, Op::Cmovcc, SizeRule::Dest, ClassRule::Fixed(TimingClass::Cmov))
}

const fn jcc(m: Mnemonic) -> Row {
    flow(m, Op::Jcc, SizeRule::Unsized, ClassRule::Fixed(TimingClass::Jcc))
}

use ClassRule as C;
use Mnemonic as M;
use SizeRule::{Dest, Fixed, Stack, Unsized};
use TimingClass as T;

/// The rows. The condition of jcc/setcc/cmovcc comes from iced's condition code, not the row.
#[rustfmt::skip]
const ROWS: [Row; 123] = [
    // Moves.
    row(M::Mov, Op::Mov, Sem::Moves, Dest, C::Move),
    whole(row(M::Movzx, Op::Movzx, Sem::Moves, Dest, C::Extend)),
    whole(row(M::Movsx, Op::Movsx, Sem::Moves, Dest, C::Extend)),
    whole(row(M::Movsxd, Op::Movsx, Sem::Moves, Dest, C::Extend)),
    row(M::Lea, Op::Lea, Sem::Moves, Dest, C::Fixed(T::Lea)),
    row(M::Xchg, Op::Xchg, Sem::Moves, Dest, C::LockedOr(T::Xchg)),
    row(M::Xadd, Op::Xadd, Sem::Moves, Dest, C::LockedOr(T::Alu)),
    // Locked or not, cmpxchg is Cmpxchg and memory xadd LockedRmw, as the decoder always chose
    // (TimingClass's docs describe locked cmpxchg as LockedRmw and unlocked memory xadd as Rmw).
    row(M::Cmpxchg, Op::Cmpxchg, Sem::Moves, Dest, C::Fixed(T::Cmpxchg)),
    // Two-operand ALU.
    binary(M::Add, Op::Add, true),
    binary(M::Adc, Op::Adc, true),
    binary(M::Sub, Op::Sub, true),
    binary(M::Sbb, Op::Sbb, true),
    binary(M::And, Op::And, true),
    binary(M::Or, Op::Or, true),
    binary(M::Xor, Op::Xor, true),
    binary(M::Cmp, Op::Cmp, false),
    binary(M::Test, Op::Test, false),
    // One-operand ALU and the carry flag.
    unary(M::Inc, Op::Inc, Dest),
    unary(M::Dec, Op::Dec, Dest),
    unary(M::Neg, Op::Neg, Dest),
    unary(M::Not, Op::Not, Dest),
    unary(M::Clc, Op::Clc, Unsized),
    unary(M::Stc, Op::Stc, Unsized),
    unary(M::Cmc, Op::Cmc, Unsized),
    // Shifts and rotates.
    shift(M::Shl, Op::Shl),
    shift(M::Sal, Op::Shl),
    shift(M::Shr, Op::Shr),
    shift(M::Sar, Op::Sar),
    rotate(M::Rol, Op::Rol),
    rotate(M::Ror, Op::Ror),
    rotate(M::Rcl, Op::Rcl),
    rotate(M::Rcr, Op::Rcr),
    row(M::Shld, Op::Shld, Sem::DoubleShift, Dest, C::Shift { count: 2 }),
    row(M::Shrd, Op::Shrd, Sem::DoubleShift, Dest, C::Shift { count: 2 }),
    // Bit tests, scans and counts.
    bits(M::Bt, Op::Bt, C::Alu { writes: false }),
    bits(M::Bts, Op::Bts, C::RegOr(T::Bit)),
    bits(M::Btr, Op::Btr, C::RegOr(T::Bit)),
    bits(M::Btc, Op::Btc, C::RegOr(T::Bit)),
    bits(M::Bsf, Op::Bsf, C::Fixed(T::BitScan)),
    bits(M::Bsr, Op::Bsr, C::Fixed(T::BitScan)),
    bits(M::Tzcnt, Op::Tzcnt, C::Fixed(T::BitScan)),
    bits(M::Lzcnt, Op::Lzcnt, C::Fixed(T::BitScan)),
    bits(M::Popcnt, Op::Popcnt, C::Fixed(T::Popcnt)),
    // Multiply, divide, accumulator sign extension.
    arity(muldiv(M::Imul, Op::Imul1, Dest, C::Fixed(T::Mul)), Arity::Exactly(1)),
    arity(muldiv(M::Imul, Op::Imul, Dest, C::Fixed(T::Imul)), Arity::AtLeast(2)),
    muldiv(M::Mul, Op::Mul, Dest, C::Fixed(T::Mul)),
    muldiv(M::Div, Op::Div, Dest, C::Div { signed: false }),
    muldiv(M::Idiv, Op::Idiv, Dest, C::Div { signed: true }),
    muldiv(M::Cbw, Op::Cbw, Fixed(2), C::Fixed(T::Cqo)),
    muldiv(M::Cwde, Op::Cbw, Fixed(4), C::Fixed(T::Cqo)),
    muldiv(M::Cdqe, Op::Cbw, Fixed(8), C::Fixed(T::Cqo)),
    muldiv(M::Cwd, Op::Cwd, Fixed(2), C::Fixed(T::Cqo)),
    muldiv(M::Cdq, Op::Cwd, Fixed(4), C::Fixed(T::Cqo)),
    muldiv(M::Cqo, Op::Cwd, Fixed(8), C::Fixed(T::Cqo)),
    // Branches and the stack. Only the one-operand (near) jmp is modelled.
    arity(flow(M::Jmp, Op::Jmp, Fixed(8), C::Branch { direct: T::Jmp, indirect: T::JmpIndirect }), Arity::Exactly(1)),
    flow(M::Call, Op::Call, Fixed(8), C::Branch { direct: T::Call, indirect: T::CallIndirect }),
    flow(M::Ret, Op::Ret, Fixed(8), C::Fixed(T::Ret)),
    flow(M::Push, Op::Push, Stack, C::Fixed(T::Push)),
    flow(M::Pop, Op::Pop, Stack, C::Fixed(T::Pop)),
    flow(M::Leave, Op::Leave, Fixed(8), C::Fixed(T::Pop)),
    // System.
    system(M::Pushf, Op::Pushf, Fixed(2), T::Pushf),
    system(M::Pushfq, Op::Pushf, Fixed(8), T::Pushf),
    system(M::Popf, Op::Popf, Fixed(2), T::Popf),
    system(M::Popfq, Op::Popf, Fixed(8), T::Popf),
    system(M::Cli, Op::Cli, Unsized, T::Cli),
    system(M::Sti, Op::Sti, Unsized, T::Sti),
    system(M::Rdtsc, Op::Rdtsc, Unsized, T::Rdtsc),
    system(M::Rdtscp, Op::Rdtscp, Unsized, T::Rdtscp),
    system(M::Hlt, Op::Hlt, Unsized, T::Nop),
    // Hints.
    hint(M::Lfence, Op::Lfence, T::Lfence),
    hint(M::Mfence, Op::Mfence, T::Mfence),
    hint(M::Sfence, Op::Sfence, T::Mfence),
    hint(M::Pause, Op::Pause, T::Pause),
    hint(M::Nop, Op::Nop, T::Nop),
    hint(M::Endbr64, Op::Endbr64, T::Nop),
    // setcc, in Intel's condition order.
    setcc(M::Seto), setcc(M::Setno), setcc(M::Setb), setcc(M::Setae),
    setcc(M::Sete), setcc(M::Setne), setcc(M::Setbe), setcc(M::Seta),
    setcc(M::Sets), setcc(M::Setns), setcc(M::Setp), setcc(M::Setnp),
    setcc(M::Setl), setcc(M::Setge), setcc(M::Setle), setcc(M::Setg),
    // cmovcc.
    cmovcc(M::Cmovo), cmovcc(M::Cmovno), cmovcc(M::Cmovb), cmovcc(M::Cmovae),
    cmovcc(M::Cmove), cmovcc(M::Cmovne), cmovcc(M::Cmovbe), cmovcc(M::Cmova),
    cmovcc(M::Cmovs), cmovcc(M::Cmovns), cmovcc(M::Cmovp), cmovcc(M::Cmovnp),
    cmovcc(M::Cmovl), cmovcc(M::Cmovge), cmovcc(M::Cmovle), cmovcc(M::Cmovg),
    // jcc.
    jcc(M::Jo), jcc(M::Jno), jcc(M::Jb), jcc(M::Jae),
    jcc(M::Je), jcc(M::Jne), jcc(M::Jbe), jcc(M::Ja),
    jcc(M::Js), jcc(M::Jns), jcc(M::Jp), jcc(M::Jnp),
    jcc(M::Jl), jcc(M::Jge), jcc(M::Jle), jcc(M::Jg),
];

#[cfg(test)]
mod tests;
