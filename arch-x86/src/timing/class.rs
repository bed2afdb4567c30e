//! Timing classes: the operation table's rule ([`crate::optable::ClassRule`]) maps every
//! instruction to one of these, and the timing model looks up latency, throughput and special
//! rules by class alone; serialising classes name their kind ([`Serialise`]), microcoded ones
//! the stall they charge ([`Microcode`]).
//!
//! The classes are coarse on purpose: Golden Cove's per-form differences within a class
//! (e.g. `add r,r` against `sub r,imm`) are below what the model can claim to know without a
//! PMU, so one figure per class keeps every number traceable to a source.

/// The timing class of one decoded x86-64 instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TimingClass {
    /// Integer ALU register/immediate forms: add, sub, adc, sbb, inc, dec, neg, not, and, or,
    /// xor, test, cmp (no memory operand).
    Alu,
    /// `lea` (simple and complex address forms alike).
    Lea,
    /// Register-to-register `mov` (and `movsxd`/`movsx` between registers are `Movzx`).
    Mov,
    /// `mov reg, imm`.
    MovImm,
    /// `movzx`, `movsx`, `movsxd` between registers.
    Movzx,
    /// Shifts by an immediate or by 1: shl, shr, sar.
    Shift,
    /// Shifts by `cl` (extra flag-merge uops on Intel cores).
    ShiftCl,
    /// Rotates: rol, ror (rcl/rcr are not emitted by the traces).
    Rotate,
    /// Bit tests on registers: bt, bts, btr, btc.
    Bit,
    /// Bit scans: bsf, bsr, tzcnt, lzcnt.
    BitScan,
    /// `popcnt`.
    Popcnt,
    /// `imul` two- and three-operand forms (low half only).
    Imul,
    /// Widening multiplies: one-operand `mul` and `imul` (rdx:rax result).
    Mul,
    /// `div` / `idiv`; latency depends on operand bytes (1, 2, 4, 8) and signedness.
    Div {
        /// Operand size in bytes: 1, 2, 4 or 8.
        bytes: u8,
        /// `true` for `idiv`.
        signed: bool,
    },
    /// `cmovcc`.
    Cmov,
    /// `setcc`.
    Setcc,
    /// Pure load into a register: `mov r, [m]`, `movzx r, [m]`, `movsx r, [m]`.
    Load,
    /// Pure store: `mov [m], r/imm`.
    Store,
    /// An ALU-like operation with a memory source (`add r, [m]`, `cmp [m], imm`, `test [m], r`, ...).
    LoadAlu,
    /// Read-modify-write with a memory destination, not locked (`add [m], r`, `inc [m]`, ...).
    Rmw,
    /// `push` (register, immediate or memory).
    Push,
    /// `pop` into a register.
    Pop,
    /// Direct `call rel32`.
    Call,
    /// Indirect `call r/m`.
    CallIndirect,
    /// `ret` (with or without an immediate).
    Ret,
    /// Direct `jmp`.
    Jmp,
    /// Indirect `jmp r/m`.
    JmpIndirect,
    /// Conditional branch `jcc`.
    Jcc,
    /// `xchg` between registers (with a memory operand it is implicitly locked: use `LockedRmw`).
    Xchg,
    /// Locked read-modify-write, a full memory barrier: any `lock`-prefixed instruction
    /// (`lock add/sub/and/or/xor/inc/dec/xadd/cmpxchg/bts/btr`) and `xchg [m], r` (implicitly locked).
    LockedRmw,
    /// `cmpxchg` WITHOUT `lock` (e.g. `this_cpu_cmpxchg`'s `cmpxchg %gs:...`), memory or register
    /// destination; a locked `cmpxchg` is [`TimingClass::LockedRmw`]. (Unlocked `xadd` is `Rmw` with a
    /// memory destination, `Alu` between registers.)
    Cmpxchg,
    /// `pushf` / `pushfq`.
    Pushf,
    /// `popf` / `popfq` (microcoded: may change IF, AC, TF).
    Popf,
    /// `cli`.
    Cli,
    /// `sti`.
    Sti,
    /// `rdtsc`.
    Rdtsc,
    /// `rdtscp`.
    Rdtscp,
    /// `lfence`.
    Lfence,
    /// `mfence`.
    Mfence,
    /// `pause`.
    Pause,
    /// `nop` in any form, `endbr64`.
    Nop,
    /// Sign extension of the accumulator: cbw, cwde, cdqe, cwd, cdq, cqo.
    Cqo,
}

/// Why an instruction waits until every earlier one has completed, naming the stall it causes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Serialise {
    /// `lfence`.
    Lfence,
    /// `mfence` and `sfence`.
    Mfence,
    /// `rdtscp`.
    Rdtscp,
    /// A locked read-modify-write; later loads and stores also wait for it to complete.
    LockedRmw,
}

impl Serialise {
    /// Every kind, in stall-counter order.
    pub const ALL: [Serialise; 4] = [Serialise::Lfence, Serialise::Mfence, Serialise::Rdtscp, Serialise::LockedRmw];

    /// The name in stall texts ("dependency on <name> serialisation").
    pub fn name(self) -> &'static str {
        match self {
            Serialise::Lfence => "lfence",
            Serialise::Mfence => "mfence",
            Serialise::Rdtscp => "rdtscp",
            Serialise::LockedRmw => "locked RMW",
        }
    }
}

/// A microcoded instruction that holds the front end for its cost, naming the stall it causes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Microcode {
    /// `rdtsc`.
    Rdtsc,
    /// `popf`.
    Popf,
    /// `pause`.
    Pause,
    /// `pushf`, `cli` and `sti` (charged together).
    PushfCliSti,
}

impl Microcode {
    /// Every kind, in stall-counter order.
    pub const ALL: [Microcode; 4] = [Microcode::Rdtsc, Microcode::Popf, Microcode::Pause, Microcode::PushfCliSti];

    /// The name in stall texts ("port microcode (<name>)").
    pub fn name(self) -> &'static str {
        match self {
            Microcode::Rdtsc => "rdtsc",
            Microcode::Popf => "popf",
            Microcode::Pause => "pause",
            Microcode::PushfCliSti => "pushf/cli/sti",
        }
    }
}

impl TimingClass {
    /// The serialisation an instruction of this class waits for before it executes.
    #[inline]
    pub fn serialises(self) -> Option<Serialise> {
        match self {
            TimingClass::Lfence => Some(Serialise::Lfence),
            TimingClass::Mfence => Some(Serialise::Mfence),
            TimingClass::Rdtscp => Some(Serialise::Rdtscp),
            TimingClass::LockedRmw => Some(Serialise::LockedRmw),
            _ => None,
        }
    }
}
