//! Architectural state of the s390x subset: 16 general registers, the PSW (mask, address and
//! condition code), control register 0's stand-in, the prefix, and the offsets that turn the
//! model's cycle clock into the CPU timer (counting down) and the TOD clock (counting up).

/// PSW mask bits (bit 0 is the most significant bit of the 64-bit mask).
pub mod psw {
    /// Bit 5: DAT mode.
    pub const DAT: u64 = 1 << 58;
    /// Bit 6: I/O interruptions enabled.
    pub const IO: u64 = 1 << 57;
    /// Bit 7: external interruptions enabled.
    pub const EXT: u64 = 1 << 56;
    /// Bit 13: machine checks enabled.
    pub const MCHK: u64 = 1 << 50;
    /// Bit 14: wait state.
    pub const WAIT: u64 = 1 << 49;
    /// Bit 15: problem state (user mode); privileged instructions raise a program check.
    pub const PROBLEM: u64 = 1 << 48;
    /// Bits 18-19: the condition code (kept in [`super::S390State::cc`] while running).
    pub const CC_SHIFT: u32 = 44;
    /// Bits 20-23: the program mask.
    pub const PM_SHIFT: u32 = 40;
    /// Bit 31: extended addressing.
    pub const EA: u64 = 1 << 32;
    /// Bit 32: basic addressing (with EA: 64-bit mode).
    pub const BA: u64 = 1 << 31;
    /// Supervisor state, 64-bit addressing, everything masked: how a run starts.
    pub const KERNEL_DEFAULT: u64 = EA | BA;
}

/// Register names, r0..r15.
pub const GPR_NAMES: [&str; 16] =
    ["r0", "r1", "r2", "r3", "r4", "r5", "r6", "r7", "r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15"];

/// The state.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct S390State {
    /// r0..r15.
    pub gpr: [u64; 16],
    /// Floating-point registers: only their 64-bit contents (gcc spills GPRs there with
    /// LDGR/LGDR under register pressure).
    pub fpr: [u64; 16],
    /// PSW mask without the condition code (bits 18-19 are kept in `cc`).
    pub psw_mask: u64,
    /// PSW instruction address.
    pub psw_addr: u64,
    /// Condition code, 0..=3.
    pub cc: u8,
    /// Prefix register (the lowcore's absolute address; 0 in the harnesses).
    pub prefix: u64,
    /// CPU timer value at modelled time zero; it counts down from here.
    pub cpu_timer_base: u64,
    /// TOD clock value at modelled time zero; it counts up from here.
    pub tod_base: u64,
}

impl Default for S390State {
    /// Zero registers, supervisor state, 64-bit addressing, CC 0.
    fn default() -> S390State {
        S390State {
            gpr: [0; 16],
            fpr: [0; 16],
            psw_mask: psw::KERNEL_DEFAULT,
            psw_addr: 0,
            cc: 0,
            prefix: 0,
            cpu_timer_base: 0,
            tod_base: 0,
        }
    }
}

impl S390State {
    /// Register `n` (0 for numbers past 15).
    #[inline]
    pub fn reg(&self, n: u8) -> u64 {
        self.gpr.get(usize::from(n)).copied().unwrap_or(0)
    }

    /// Sets register `n` (ignored past 15).
    #[inline]
    pub fn set_reg(&mut self, n: u8, v: u64) {
        if let Some(r) = self.gpr.get_mut(usize::from(n)) {
            *r = v;
        }
    }

    /// The low 32 bits of register `n`.
    #[inline]
    pub fn reg32(&self, n: u8) -> u64 {
        self.reg(n) & 0xffff_ffff
    }

    /// Replaces the low 32 bits of register `n`, keeping the high half (32-bit operations).
    #[inline]
    pub fn set_reg32(&mut self, n: u8, v: u64) {
        let old = self.reg(n);
        self.set_reg(n, (old & !0xffff_ffff) | (v & 0xffff_ffff));
    }

    /// Whether the CPU is in problem state.
    #[inline]
    pub fn problem_state(&self) -> bool {
        self.psw_mask & psw::PROBLEM != 0
    }

    /// The architected PSW mask: the stored mask with the condition code merged in.
    pub fn full_psw_mask(&self) -> u64 {
        (self.psw_mask & !(3 << psw::CC_SHIFT)) | (u64::from(self.cc & 3) << psw::CC_SHIFT)
    }

    /// Loads a PSW mask, splitting the condition code out.
    pub fn set_full_psw_mask(&mut self, mask: u64) {
        self.cc = ((mask >> psw::CC_SHIFT) & 3) as u8;
        self.psw_mask = mask & !(3 << psw::CC_SHIFT);
    }

    /// The program mask (PSW bits 20-23), as IPM inserts it.
    pub fn program_mask(&self) -> u8 {
        ((self.psw_mask >> psw::PM_SHIFT) & 0xf) as u8
    }
}
