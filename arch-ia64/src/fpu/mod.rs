//! The IA-64 floating-point unit as pure functions: the 82-bit register format, the FPSR
//! status fields, exact IEEE rounding to every precision and exponent range, and the
//! arithmetic, compare, convert, min/max and memory-format operations of the F unit.
//!
//! Sources: Intel Itanium Architecture Software Developer's Manual rev. 2.3, vol. 1 chapter 5
//! (register encodings Table 5-2, FPSR Figure 5-5/5-6, computation model Table 5-6,
//! tininess "detected after rounding" section 5.4.3, trap-enabled responses section 5.4.1
//! and vol. 2 section 8.1.2) and the vol. 3 instruction pages (fma, fms, fnma, fpma, fcmp,
//! fcvt, fmin/fmax, ldf/stf, getf/setf). The code is written from those descriptions.
//!
//! Nothing here touches CPU state: each operation takes register values and an [`Env`]
//! (the status field and precision in force) and returns an [`Outcome`]: the result, the
//! IEEE flags to OR into the status field, and whether an enabled exception faults (before
//! the result is written) or traps (after it is).
//!
//! Readings of the manual where it leaves a detail open are stated where they are made:
//! NaN operands keep their sign through fms/fnma; pseudo-NaNs and pseudo-infinities
//! (exponent 0x1FFFF, integer bit clear) are unsupported operands (Invalid, QNaN
//! indefinite); the trap-enabled overflow/underflow result keeps the 17-bit exponent
//! field modulo 2^17 when even that range is exceeded.
//!
//! frcpa/frsqrta/fprcpa/fprsqrta follow the SDM's reference tables (see [`recip`]) and raise
//! the Software Assist fault the SDM defines for them; no other operation asks for software
//! assistance (this model completes them all in "hardware").

pub mod class;
pub mod cmp;
pub mod cvt;
pub mod env;
pub mod fma;
pub mod memfmt;
pub mod parallel;
pub mod recip;
pub mod round;
mod wide;

pub use class::{classify, Class};
pub use env::{Env, Event, Flags, Outcome, Precision, Rounding, StatusField};
#[cfg(test)]
mod tests;
