//! RFLAGS arithmetic: the status flags of additions, subtractions and logic results.

use crate::state::flags::{AF, CF, OF, PF, SF, ZF};
use crate::state::mask;

/// The sign bit of a `size`-byte value.
#[inline]
pub fn sign_bit(size: u8) -> u64 {
    1u64 << (u32::from(size) * 8 - 1)
}

/// ZF, SF and PF of a `size`-byte result.
#[inline(always)]
pub fn szp(res: u64, size: u8) -> u64 {
    let res = res & mask(size);
    let mut f = 0;
    if res == 0 {
        f |= ZF;
    }
    if res & sign_bit(size) != 0 {
        f |= SF;
    }
    f | PARITY[usize::from(res as u8)]
}

/// PF for each low result byte: set when its number of one bits is even (a table: without the
/// popcnt instruction in the baseline target, counting costs a dozen host instructions).
static PARITY: [u64; 256] = {
    let mut t = [0u64; 256];
    let mut b = 0;
    while b < 256 {
        if (b as u8).count_ones().is_multiple_of(2) {
            t[b] = PF;
        }
        b += 1;
    }
    t
};

/// `a + b + carry` in `size` bytes: the result and all six status flags.
#[inline(always)]
pub fn add(a: u64, b: u64, carry: bool, size: u8) -> (u64, u64) {
    let m = mask(size);
    let (a, b) = (a & m, b & m);
    // The carry out of `size` bytes: of the 64-bit sum for 8 bytes, past the mask for fewer.
    let (sum, o1) = a.overflowing_add(b);
    let (sum, o2) = sum.overflowing_add(u64::from(carry));
    let res = sum & m;
    let mut f = szp(res, size);
    if if m == u64::MAX { o1 || o2 } else { sum > m } {
        f |= CF;
    }
    if (a ^ res) & (b ^ res) & sign_bit(size) != 0 {
        f |= OF;
    }
    if (a ^ b ^ res) & 0x10 != 0 {
        f |= AF;
    }
    (res, f)
}

/// `a - b - borrow` in `size` bytes: the result and all six status flags.
#[inline(always)]
pub fn sub(a: u64, b: u64, borrow: bool, size: u8) -> (u64, u64) {
    let m = mask(size);
    let (a, b) = (a & m, b & m);
    let res = a.wrapping_sub(b).wrapping_sub(u64::from(borrow)) & m;
    let mut f = szp(res, size);
    // a < b + borrow, without widening.
    if a < b || (borrow && a == b) {
        f |= CF;
    }
    if (a ^ b) & (a ^ res) & sign_bit(size) != 0 {
        f |= OF;
    }
    if (a ^ b ^ res) & 0x10 != 0 {
        f |= AF;
    }
    (res, f)
}

/// Flags of and/or/xor/test: CF = OF = 0; AF is undefined and cleared, as the host does.
#[inline(always)]
pub fn logic(res: u64, size: u8) -> u64 {
    szp(res, size)
}

/// Sign-extends the low `size` bytes of `v`.
#[inline]
pub fn sext(v: u64, size: u8) -> i64 {
    let shift = 64 - u32::from(size) * 8;
    ((v << shift) as i64) >> shift
}
