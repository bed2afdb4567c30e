//! The FPSR (`ar.fpsr`, SDM vol. 1 Figures 5-5 and 5-6), the computation model a status field
//! and an instruction completer select (Table 5-6), the IEEE flags, and what an operation
//! reports back.

use crate::state::fr::Fr;

/// The IEEE exception flags, in the bit order of both the FPSR trap-disable field (bits
/// 0-5: vd dd zd od ud id) and each status field's flags (v d z o u i).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub struct Flags(pub u8);

impl Flags {
    /// No flag.
    pub const NONE: Flags = Flags(0);
    /// Invalid operation.
    pub const V: Flags = Flags(1);
    /// Denormal/unnormal operand.
    pub const D: Flags = Flags(2);
    /// Zero divide.
    pub const Z: Flags = Flags(4);
    /// Overflow.
    pub const O: Flags = Flags(8);
    /// Underflow.
    pub const U: Flags = Flags(16);
    /// Inexact.
    pub const I: Flags = Flags(32);
    /// The exceptions that fault (raised before the result is written).
    pub const FAULTS: Flags = Flags(7);
    /// The exceptions that trap (raised after the result is written).
    pub const TRAPS: Flags = Flags(0x38);

    /// Whether every flag of `o` is set.
    pub fn has(self, o: Flags) -> bool {
        self.0 & o.0 == o.0
    }

    /// Whether no flag is set.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The flags of both.
    #[must_use]
    pub fn with(self, o: Flags) -> Flags {
        Flags(self.0 | o.0)
    }

    /// The flags of both sets.
    #[must_use]
    pub fn and(self, o: Flags) -> Flags {
        Flags(self.0 & o.0)
    }
}

/// The rounding control (status field `rc`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Rounding {
    /// 00: to nearest, ties to even.
    Nearest,
    /// 01: toward minus infinity.
    Down,
    /// 10: toward plus infinity.
    Up,
    /// 11: toward zero.
    Zero,
}

impl Rounding {
    /// The mode of a 2-bit `rc` value.
    pub fn from_bits(rc: u64) -> Rounding {
        match rc & 3 {
            0 => Rounding::Nearest,
            1 => Rounding::Down,
            2 => Rounding::Up,
            _ => Rounding::Zero,
        }
    }
}

/// One 13-bit status field of the FPSR (sf0 at bit 6, sf1 at 19, sf2 at 32, sf3 at 45).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StatusField {
    /// Flush to zero (bit 0).
    pub ftz: bool,
    /// Widest range exponent (bit 1): the 17-bit range for every precision.
    pub wre: bool,
    /// Precision control (bits 2-3): 00 single, 01 reserved, 10 double, 11 extended.
    pub pc: u8,
    /// Rounding control (bits 4-5).
    pub rc: Rounding,
    /// Traps disabled (bit 6): no fault or trap from this status field.
    pub td: bool,
    /// The sticky flags (bits 7-12).
    pub flags: Flags,
}

/// The bit offset of status field `sf` (0-3) in the FPSR.
pub fn sf_shift(sf: u8) -> u32 {
    6 + 13 * u32::from(sf & 3)
}

impl StatusField {
    /// Status field `sf` (0-3) of `fpsr`.
    pub fn of(fpsr: u64, sf: u8) -> StatusField {
        let v = fpsr >> sf_shift(sf);
        StatusField {
            ftz: v & 1 != 0,
            wre: v & 2 != 0,
            pc: ((v >> 2) & 3) as u8,
            rc: Rounding::from_bits(v >> 4),
            td: v & 0x40 != 0,
            flags: Flags(((v >> 7) & 0x3F) as u8),
        }
    }
}

/// `fpsr` with `flags` ORed into status field `sf`'s flags (the flags are sticky).
pub fn fpsr_with_flags(fpsr: u64, sf: u8, flags: Flags) -> u64 {
    fpsr | (u64::from(flags.0 & 0x3F) << (sf_shift(sf) + 7))
}

/// The precision an instruction computes in: its completer, or the status field's pc.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Precision {
    /// `.s`: 24-bit significand, 8-bit exponent (17-bit with wre).
    Single,
    /// `.d`: 53-bit significand, 11-bit exponent (17-bit with wre).
    Double,
    /// No completer: the status field's pc, 15-bit exponent (17-bit with wre).
    Dynamic,
    /// Parallel FP: 24-bit significand, 8-bit exponent (pc and wre ignored).
    Parallel,
    /// Instructions that always round to 64 bits in the 17-bit range.
    Widest,
}

/// Why an environment cannot be formed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EnvError {
    /// pc = 01 is reserved (SDM vol. 1 Figure 5-6).
    #[error("reserved precision control (pc = 01) in FPSR status field sf{0}")]
    ReservedPc(u8),
}

/// Everything an operation's rounding depends on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Env {
    /// Significand bits (24, 53 or 64).
    pub bits: u32,
    /// Smallest normal unbiased exponent.
    pub emin: i32,
    /// Largest unbiased exponent.
    pub emax: i32,
    /// Rounding mode.
    pub rc: Rounding,
    /// Flush tiny results to zero.
    pub ftz: bool,
    /// The exceptions that fault or trap when raised (none under td).
    pub enabled: Flags,
}

/// The exponent range of an `n`-bit IEEE-style exponent: (emin, emax).
fn range(n: u32) -> (i32, i32) {
    let emax = (1i32 << (n - 1)) - 1;
    (1 - emax, emax)
}

impl Env {
    /// The environment of status field `sf` of `fpsr` for an instruction of precision `p`.
    ///
    /// # Errors
    /// A dynamic precision with the reserved pc value 01.
    pub fn new(fpsr: u64, sf: u8, p: Precision) -> Result<Env, EnvError> {
        let s = StatusField::of(fpsr, sf);
        let (bits, exp_bits) = match p {
            Precision::Single => (24, if s.wre { 17 } else { 8 }),
            Precision::Double => (53, if s.wre { 17 } else { 11 }),
            Precision::Parallel => (24, 8),
            Precision::Widest => (64, 17),
            Precision::Dynamic => {
                let bits = match s.pc {
                    0 => 24,
                    2 => 53,
                    3 => 64,
                    _ => return Err(EnvError::ReservedPc(sf & 3)),
                };
                (bits, if s.wre { 17 } else { 15 })
            }
        };
        let (emin, emax) = range(exp_bits);
        let enabled = if s.td { Flags::NONE } else { Flags(!(fpsr as u8) & 0x3F) };
        Ok(Env { bits, emin, emax, rc: s.rc, ftz: s.ftz, enabled })
    }

    /// An environment given directly (tests, and the fixed-precision conversions).
    pub fn with(bits: u32, exp_bits: u32, rc: Rounding, ftz: bool, enabled: Flags) -> Env {
        let (emin, emax) = range(exp_bits);
        Env { bits, emin, emax, rc, ftz, enabled }
    }
}

/// What an enabled exception does to the instruction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Event {
    /// Nothing enabled was raised: write the result and the flags.
    None,
    /// An enabled V, D or Z: FP Exception fault, nothing written. The flags are the ones
    /// to report in ISR.code (low/scalar half; `high` for the high half of parallel FP).
    Fault {
        /// The enabled fault flags of the scalar or low half.
        low: Flags,
        /// The enabled fault flags of the high half (parallel FP only).
        high: Flags,
    },
    /// The operands need system software to complete the operation (the Software Assist
    /// fault of frcpa/frsqrta, SDM vol. 3 frcpa/frsqrta pages): FP Exception fault with
    /// ISR.code swa, nothing written, raised whatever the trap controls say.
    SwaFault,
    /// An enabled O, U or I: the result and the flags are written, then an FP Exception trap.
    Trap {
        /// The trap flags of the scalar or low half (o, u, i as raised).
        low: Flags,
        /// The trap flags of the high half (parallel FP only).
        high: Flags,
        /// ISR.fpa of the scalar or low half: the delivered result is larger in magnitude
        /// than the exact one.
        fpa: bool,
        /// The same for the high half (parallel FP only).
        fpa_high: bool,
    },
}

/// The result of one operation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Outcome<T = Fr> {
    /// The value to write (meaningless under a fault).
    pub value: T,
    /// The flags to OR into the status field (not written under a fault).
    pub flags: Flags,
    /// Fault, trap or neither.
    pub event: Event,
}

impl<T> Outcome<T> {
    /// A result with `flags`, faulting if an enabled V/D/Z is among them, trapping on an
    /// enabled O/U/I.
    pub fn new(value: T, flags: Flags, fpa: bool, env: &Env) -> Outcome<T> {
        let fault = flags.and(Flags::FAULTS).and(env.enabled);
        let trap = flags.and(Flags::TRAPS).and(env.enabled);
        let event = if !fault.is_empty() {
            Event::Fault { low: fault, high: Flags::NONE }
        } else if !trap.is_empty() {
            Event::Trap { low: flags.and(Flags::TRAPS), high: Flags::NONE, fpa, fpa_high: false }
        } else {
            Event::None
        };
        Outcome { value, flags, event }
    }
}

/// Bit 0 of a trap's ISR.code: the trap is a floating-point trap (the trap code's fp bit,
/// beside lp, tb and ss in bits 1-3).
const TRAP_CODE_FP: u16 = 1;

impl Event {
    /// The ISR.code of the FP Exception fault or trap this event raises, or None.
    ///
    /// Fault (vector 0x5c00): v d z swa of the scalar or low half in bits 0-3, of the high
    /// half of a parallel operation in bits 4-7. Trap (vector 0x5d00): o u i fpa of the
    /// scalar or low half in bits 11-14 (SDM vol. 1 section 5.4.1.3: "the fpa bit in
    /// ISR.code (ISR{14})"), of the high half in bits 7-10. Linux's `handle_fpu_swa`
    /// (arch/ia64/kernel/traps.c) tests the same positions: v 0x11, d 0x22, z 0x44 for
    /// faults, o 0x880, u 0x1100, i 0x2200 for traps. A trap's code also has bit 0 (fp) of
    /// the trap code set, as every FP Exception trap does (Ski's `fpExceptionTrap` too).
    pub fn isr_code(self) -> Option<u16> {
        match self {
            Event::None => None,
            Event::Fault { low, high } => Some(u16::from(low.0 & 7) | (u16::from(high.0 & 7) << 4)),
            Event::SwaFault => Some(1 << 3),
            Event::Trap { low, high, fpa, fpa_high } => Some(
                TRAP_CODE_FP
                    | (u16::from((low.0 >> 3) & 7) << 11)
                    | (u16::from(fpa) << 14)
                    | (u16::from((high.0 >> 3) & 7) << 7)
                    | (u16::from(fpa_high) << 10),
            ),
        }
    }

    /// Whether the event is a fault (nothing of the instruction is written).
    pub fn is_fault(self) -> bool {
        matches!(self, Event::Fault { .. } | Event::SwaFault)
    }
}
