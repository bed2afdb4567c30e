//! Timing classes: the decoder maps every instruction to one of these, and the timing model
//! looks up latency, throughput and special rules by class alone.
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
