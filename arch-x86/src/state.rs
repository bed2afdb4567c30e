//! Architectural state of the x86-64 subset: general registers, rip, RFLAGS, segment bases
//! and the time-stamp counter's offset and aux value.

use crate::decode::Gpr;

/// RFLAGS bits.
pub mod flags {
    /// Carry.
    pub const CF: u64 = 1 << 0;
    /// Always one.
    pub const RESERVED1: u64 = 1 << 1;
    /// Parity of the low result byte.
    pub const PF: u64 = 1 << 2;
    /// Carry out of bit 3.
    pub const AF: u64 = 1 << 4;
    /// Zero.
    pub const ZF: u64 = 1 << 6;
    /// Sign.
    pub const SF: u64 = 1 << 7;
    /// Trap.
    pub const TF: u64 = 1 << 8;
    /// Interrupt enable (cli/sti, local_irq_save/restore).
    pub const IF: u64 = 1 << 9;
    /// Direction.
    pub const DF: u64 = 1 << 10;
    /// Overflow.
    pub const OF: u64 = 1 << 11;
    /// The six arithmetic status flags.
    pub const STATUS: u64 = CF | PF | AF | ZF | SF | OF;
    /// Bits `popf` may change at CPL 0: status, TF, IF, DF, IOPL, NT, AC, ID.
    pub const POPF_WRITABLE: u64 = STATUS | TF | IF | DF | 0x3000 | 0x4000 | 0x4_0000 | 0x20_0000;
    /// Named flags for snapshots, in bit order.
    pub const NAMES: [(&str, u64); 9] =
        [("cf", CF), ("pf", PF), ("af", AF), ("zf", ZF), ("sf", SF), ("tf", TF), ("if", IF), ("df", DF), ("of", OF)];
}

/// Register names in hardware order.
pub const GPR_NAMES: [&str; 16] =
    ["rax", "rcx", "rdx", "rbx", "rsp", "rbp", "rsi", "rdi", "r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15"];

/// The state.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct X86State {
    /// rax..r15 in hardware order.
    pub gpr: [u64; 16],
    /// Next instruction.
    pub rip: u64,
    /// RFLAGS (bit 1 always set).
    pub rflags: u64,
    /// fs segment base.
    pub fs_base: u64,
    /// gs segment base (the kernel's per-CPU area).
    pub gs_base: u64,
    /// Added to the scaled cycle clock to form the TSC.
    pub tsc_offset: u64,
    /// IA32_TSC_AUX, returned in ecx by rdtscp.
    pub tsc_aux: u32,
}

impl Default for X86State {
    /// Zero registers, interrupts enabled.
    fn default() -> X86State {
        X86State {
            gpr: [0; 16],
            rip: 0,
            rflags: flags::RESERVED1 | flags::IF,
            fs_base: 0,
            gs_base: 0,
            tsc_offset: 0,
            tsc_aux: 0,
        }
    }
}

/// All ones in the low `size` bytes.
#[inline]
pub fn mask(size: u8) -> u64 {
    match size {
        1 => 0xff,
        2 => 0xffff,
        4 => 0xffff_ffff,
        _ => u64::MAX,
    }
}

impl X86State {
    /// Full 64-bit register `num` (0 for numbers past 15).
    #[inline]
    pub fn reg(&self, num: u8) -> u64 {
        self.gpr.get(usize::from(num)).copied().unwrap_or(0)
    }

    /// Sets full register `num`.
    #[inline]
    pub fn set_reg(&mut self, num: u8, v: u64) {
        if let Some(r) = self.gpr.get_mut(usize::from(num)) {
            *r = v;
        }
    }

    /// The value of a register operand, zero-extended.
    #[inline]
    pub fn get(&self, g: Gpr) -> u64 {
        let full = self.reg(g.num);
        if g.high8 {
            (full >> 8) & 0xff
        } else {
            full & mask(g.size)
        }
    }

    /// Writes a register operand: 32-bit writes zero the upper half, 8/16-bit ones merge.
    #[inline]
    pub fn set(&mut self, g: Gpr, v: u64) {
        let old = self.reg(g.num);
        let new = match (g.size, g.high8) {
            (1, true) => (old & !0xff00) | ((v & 0xff) << 8),
            (1, false) => (old & !0xff) | (v & 0xff),
            (2, _) => (old & !0xffff) | (v & 0xffff),
            (4, _) => v & 0xffff_ffff,
            _ => v,
        };
        self.set_reg(g.num, new);
    }

    /// Whether flag bit(s) `f` are set.
    #[inline]
    pub fn flag(&self, f: u64) -> bool {
        self.rflags & f != 0
    }

    /// Replaces the flags in `which` by those in `values`.
    #[inline]
    pub fn set_flags(&mut self, which: u64, values: u64) {
        self.rflags = (self.rflags & !which) | (values & which) | flags::RESERVED1;
    }
}
