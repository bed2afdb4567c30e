//! Which misaligned ordinary (non-semaphore) accesses Itanium 2 completes in hardware while
//! PSR.ac is 0 (memory forms, issue 12).
//!
//! SDM vol. 2 part 2 section 7.1 ("Unaligned Reference Handler"): misaligned references the
//! processor does not support raise the Unaligned Data Reference fault; "this behavior is
//! implementation specific but typically occurs in cases where the access crosses a cache
//! line or page boundary". The message of Linux commit c0b5a64d937f (about Itanium erratum 237)
//! describes PSR.ac = 0 as letting a misaligned access succeed on CPUs "that implement logic to
//! handle some unaligned accesses".

/// GUESS: the boundary a misaligned access may not cross to complete in hardware: the 64-byte
/// L1D line of Itanium 2 ([KAPI] via `itanium2-timing.md`). Page boundaries (larger) are
/// covered by it.
pub const UNALIGNED_HW_LINE: u64 = 64;

/// GUESS: a misaligned access whose address is a multiple of this (a 16-byte FP pair or
/// extended value on an 8-byte boundary) is made of aligned 8-byte parts, which hardware
/// completes wherever they fall.
pub const UNALIGNED_HW_PART: u64 = 8;

/// Whether hardware completes a misaligned access of `size` bytes at `addr` when PSR.ac is 0:
/// it stays within one line, or it is made of aligned parts.
pub(super) fn handled_in_hardware(addr: u64, size: u8) -> bool {
    let last = addr.wrapping_add(u64::from(size.max(1)) - 1);
    addr / UNALIGNED_HW_LINE == last / UNALIGNED_HW_LINE || addr.is_multiple_of(UNALIGNED_HW_PART)
}
