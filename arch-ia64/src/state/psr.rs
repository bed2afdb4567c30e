//! The processor status register (SDM vol. 2 section 3.3.2, Figure 3-2;
//! `reference/ia64-system.md` section 1).

use bitflags::bitflags;

bitflags! {
    /// PSR bits. `cpl` (33:32) and `ri` (42:41) are two-bit fields: see [`Psr::cpl`] and
    /// [`Psr::ri`].
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
    pub struct Psr: u64 {
        /// Big-endian data accesses.
        const BE = 1 << 1;
        /// User performance monitor enable.
        const UP = 1 << 2;
        /// Alignment check.
        const AC = 1 << 3;
        /// f2-f31 modified.
        const MFL = 1 << 4;
        /// f32-f127 modified.
        const MFH = 1 << 5;
        /// Interruption collection.
        const IC = 1 << 13;
        /// External interrupts enabled.
        const I = 1 << 14;
        /// Protection keys.
        const PK = 1 << 15;
        /// Data address translation.
        const DT = 1 << 17;
        /// f2-f31 disabled.
        const DFL = 1 << 18;
        /// f32-f127 disabled.
        const DFH = 1 << 19;
        /// Secure performance monitors.
        const SP = 1 << 20;
        /// Privileged performance monitor enable.
        const PP = 1 << 21;
        /// Disable instruction-set transition.
        const DI = 1 << 22;
        /// Secure interval timer: ar.itc reads fault at cpl != 0.
        const SI = 1 << 23;
        /// Debug breakpoint fault.
        const DB = 1 << 24;
        /// Lower-privilege transfer trap.
        const LP = 1 << 25;
        /// Taken-branch trap.
        const TB = 1 << 26;
        /// Register-stack translation.
        const RT = 1 << 27;
        /// Privilege level, low bit.
        const CPL0 = 1 << 32;
        /// Privilege level, high bit.
        const CPL1 = 1 << 33;
        /// IA-32 instruction set.
        const IS = 1 << 34;
        /// Machine-check mask.
        const MC = 1 << 35;
        /// Instruction address translation.
        const IT = 1 << 36;
        /// Instruction debug fault disable.
        const ID = 1 << 37;
        /// Data access fault disable.
        const DA = 1 << 38;
        /// Data debug fault disable.
        const DD = 1 << 39;
        /// Single step.
        const SS = 1 << 40;
        /// Restart instruction, low bit.
        const RI0 = 1 << 41;
        /// Restart instruction, high bit.
        const RI1 = 1 << 42;
        /// Exception deferral.
        const ED = 1 << 43;
        /// Register bank: GR16-31 bank 1 when set.
        const BN = 1 << 44;
        /// Instruction access-bit fault disable.
        const IA = 1 << 45;
        /// Virtual machine.
        const VM = 1 << 46;
    }
}

impl Psr {
    /// The current privilege level, 0 (most privileged) to 3.
    pub fn cpl(self) -> u8 {
        ((self.bits() >> 32) & 3) as u8
    }

    /// The same PSR at privilege level `cpl`.
    pub fn with_cpl(self, cpl: u8) -> Psr {
        Psr::from_bits_retain((self.bits() & !(3 << 32)) | (u64::from(cpl & 3) << 32))
    }

    /// The slot of the next instruction in the bundle at IP.
    pub fn ri(self) -> u8 {
        ((self.bits() >> 41) & 3) as u8
    }

    /// The same PSR with restart slot `ri`.
    pub fn with_ri(self, ri: u8) -> Psr {
        Psr::from_bits_retain((self.bits() & !(3 << 41)) | (u64::from(ri & 3) << 41))
    }

    /// The register bank selected for GR16-31.
    pub fn bank(self) -> u8 {
        u8::from(self.contains(Psr::BN))
    }

    /// What `mov r1=psr` returns: PSR{31:0} plus mc and it (SDM vol. 2 Table 3-1 note b).
    pub fn readable(self) -> u64 {
        (self.bits() & 0xFFFF_FFFF) | (self.bits() & (Psr::MC.bits() | Psr::IT.bits()))
    }

    /// The PSR an interruption installs (reference section 2 step 4): ic, i, bn, cpl, ri and
    /// the single-instruction disables cleared; be and pp from DCR; translation bits kept.
    pub fn on_interruption(self, dcr: u64) -> Psr {
        let keep = Psr::UP | Psr::MFL | Psr::MFH | Psr::PK | Psr::DT | Psr::RT | Psr::MC | Psr::IT;
        let mut p = self & keep;
        p.set(Psr::BE, dcr & 2 != 0);
        p.set(Psr::PP, dcr & 1 != 0);
        p
    }
}
