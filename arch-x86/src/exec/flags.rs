//! RFLAGS arithmetic: the status flags of additions, subtractions and logic results.

use crate::state::flags::{AF, CF, OF, PF, SF, ZF};
use crate::state::mask;

/// The sign bit of a `size`-byte value.
#[inline]
pub fn sign_bit(size: u8) -> u64 {
    1u64 << (u32::from(size) * 8 - 1)
}

/// ZF, SF and PF of a `size`-byte result.
#[inline]
pub fn szp(res: u64, size: u8) -> u64 {
    let res = res & mask(size);
    let mut f = 0;
    if res == 0 {
        f |= ZF;
    }
    if res & sign_bit(size) != 0 {
        f |= SF;
    }
    if (res as u8).count_ones() & 1 == 0 {
        f |= PF;
    }
    f
}

/// `a + b + carry` in `size` bytes: the result and all six status flags.
#[inline]
pub fn add(a: u64, b: u64, carry: bool, size: u8) -> (u64, u64) {
    let m = mask(size);
    let (a, b) = (a & m, b & m);
    let wide = u128::from(a) + u128::from(b) + u128::from(carry);
    let res = wide as u64 & m;
    let mut f = szp(res, size);
    if wide > u128::from(m) {
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
#[inline]
pub fn sub(a: u64, b: u64, borrow: bool, size: u8) -> (u64, u64) {
    let m = mask(size);
    let (a, b) = (a & m, b & m);
    let res = a.wrapping_sub(b).wrapping_sub(u64::from(borrow)) & m;
    let mut f = szp(res, size);
    if u128::from(a) < u128::from(b) + u128::from(borrow) {
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
#[inline]
pub fn logic(res: u64, size: u8) -> u64 {
    szp(res, size)
}

/// Sign-extends the low `size` bytes of `v`.
#[inline]
pub fn sext(v: u64, size: u8) -> i64 {
    let shift = 64 - u32::from(size) * 8;
    ((v << shift) as i64) >> shift
}
