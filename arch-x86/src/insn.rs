//! The decoded x86-64 instruction record: the operation, its operands and what the timing
//! model reads. The decoder (`decode`) fills it and the operation table (`optable`) classifies
//! it, so it lives below both.
//!
//! Registers are numbered as the hardware encodes them (0 = rax, 1 = rcx, 2 = rdx,
//! 3 = rbx, 4 = rsp, 5 = rbp, 6 = rsi, 7 = rdi, 8..15 = r8..r15).

use iced_x86::{Decoder, DecoderOptions, Formatter, GasFormatter};

use crate::timing::{TimingClass, XReg};
/// The longest x86 instruction.
pub const MAX_INSN_LEN: usize = 15;

/// The operations the executor implements ([`crate::optable`] maps iced's mnemonics to them);
/// everything else decodes to [`Op::Unsupported`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[allow(missing_docs)] // the variants are the instruction mnemonics
pub enum Op {
    Mov,
    Movzx,
    /// `movsx` and `movsxd`.
    Movsx,
    Lea,
    Add,
    Adc,
    Sub,
    Sbb,
    And,
    Or,
    Xor,
    Cmp,
    Test,
    Inc,
    Dec,
    Neg,
    Not,
    Shl,
    Shr,
    Sar,
    Rol,
    Ror,
    Rcl,
    Rcr,
    /// Double-precision shift left (`shld dst, src, count`).
    Shld,
    /// Double-precision shift right (`shrd dst, src, count`).
    Shrd,
    Bt,
    Bts,
    Btr,
    Btc,
    Bsf,
    Bsr,
    Tzcnt,
    Lzcnt,
    Popcnt,
    /// One-operand signed widening multiply.
    Imul1,
    /// Two- and three-operand `imul` (truncating).
    Imul,
    Mul,
    Div,
    Idiv,
    /// `cbw`/`cwde`/`cdqe` by [`Insn::size`].
    Cbw,
    /// `cwd`/`cdq`/`cqo` by [`Insn::size`].
    Cwd,
    Setcc,
    Cmovcc,
    Jcc,
    Jmp,
    Call,
    Ret,
    Push,
    Pop,
    Leave,
    Xchg,
    Xadd,
    Cmpxchg,
    Pushf,
    Popf,
    Cli,
    Sti,
    Clc,
    Stc,
    Cmc,
    Rdtsc,
    Rdtscp,
    Lfence,
    Mfence,
    Sfence,
    Pause,
    Nop,
    Endbr64,
    Hlt,
    /// Decoded but not implemented, or undecodable. Stays the last variant: the operation
    /// table sizes its per-operation index by it.
    Unsupported,
}

/// Conditions of jcc/setcc/cmovcc.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[allow(missing_docs)] // the Intel condition names
pub enum Cond {
    O,
    No,
    B,
    Ae,
    E,
    Ne,
    Be,
    A,
    S,
    Ns,
    P,
    Np,
    L,
    Ge,
    Le,
    G,
}

/// A general register operand.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Gpr {
    /// Hardware number, 0..=15.
    pub num: u8,
    /// Width in bytes: 1, 2, 4 or 8.
    pub size: u8,
    /// ah/ch/dh/bh: bits 8..16 of register `num`.
    pub high8: bool,
}

/// Segment override of a memory operand (kernel per-CPU data uses gs).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Seg {
    /// No base added (cs/ds/es/ss in 64-bit mode).
    Flat,
    /// `fs:` adds the fs base.
    Fs,
    /// `gs:` adds the gs base.
    Gs,
}

/// A memory operand; a rip-relative one has its absolute address in `disp` and no base.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct MemRef {
    /// Base register number.
    pub base: Option<u8>,
    /// Index register number.
    pub index: Option<u8>,
    /// 1, 2, 4 or 8.
    pub scale: u8,
    /// Displacement (the resolved target for rip-relative operands).
    pub disp: i64,
    /// Segment whose base is added.
    pub seg: Seg,
    /// Bytes accessed (0 for `lea` and nops).
    pub size: u8,
}

/// One operand.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Operand {
    /// Absent.
    None,
    /// A general register.
    Reg(Gpr),
    /// An immediate, sign-extended as the instruction defines; branch targets are absolute.
    Imm(i64),
    /// A memory operand.
    Mem(MemRef),
}

/// One decoded instruction.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Insn {
    /// Address.
    pub addr: u64,
    /// Length in bytes.
    pub len: u8,
    /// The operation.
    pub op: Op,
    /// Operand size in bytes (the destination's; for movzx/movsx the destination's too; 0 for the
    /// operations that use none: [`crate::optable::SizeRule::Unsized`]).
    pub size: u8,
    /// Operands in Intel order (destination first).
    pub ops: [Operand; 3],
    /// Condition of jcc/setcc/cmovcc.
    pub cond: Option<Cond>,
    /// `lock` prefix present (xchg with memory is locked without it).
    pub lock: bool,
    /// How the timing model sees it.
    pub class: TimingClass,
    /// Registers (and flags) read, for the timing model's scoreboard.
    pub srcs: Vec<XReg>,
    /// Registers (and flags) written.
    pub dsts: Vec<XReg>,
    /// The instruction's bytes (first `len` valid), for error messages.
    pub bytes: [u8; MAX_INSN_LEN],
}

impl Insn {
    /// The instruction's bytes.
    pub fn raw(&self) -> &[u8] {
        self.bytes.get(..usize::from(self.len)).unwrap_or(&self.bytes)
    }

    /// Address of the next instruction.
    pub fn next(&self) -> u64 {
        self.addr.wrapping_add(u64::from(self.len))
    }

    /// AT&T text as objdump prints it (for messages only).
    pub fn text(&self) -> String {
        let mut decoder = Decoder::with_ip(64, self.raw(), self.addr, DecoderOptions::NONE);
        let insn = decoder.decode();
        if insn.is_invalid() {
            return "(bad)".to_string();
        }
        let mut out = String::new();
        GasFormatter::new().format(&insn, &mut out);
        out
    }

    /// Bytes as space-separated hex pairs.
    pub fn hex(&self) -> String {
        self.raw().iter().map(|b| format!("{b:02x}")).collect::<Vec<_>>().join(" ")
    }
}
