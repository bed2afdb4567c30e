//! Independent Rust references for the arch/ia64/lib routines, written from the C contracts
//! (the kernel's prototypes and the routines' documented results) and the RFCs, never from the
//! assembly: integer division by Rust's operators, ones'-complement sums from RFC 1071, byte
//! loops for the string and copy routines.
//!
//! Memory the user-access routines may fault on is a `Space`: the bytes a buffer holds up to
//! its first unmapped address.

/// `__divsi3` .. `__umoddi3`: the quotient or remainder of C's truncating division, as the
/// 64-bit register the routine returns (32-bit results sign- or zero-extended as the routine's
/// `sxt4`/`zxt4` of the operands make them; see the test for what is compared).
pub fn divide(signed: bool, modulo: bool, wide: bool, a: u64, b: u64) -> u64 {
    match (wide, signed) {
        (true, true) => {
            let (a, b) = (a as i64, b as i64);
            (if modulo { a % b } else { a / b }) as u64
        }
        (true, false) => {
            if modulo {
                a % b
            } else {
                a / b
            }
        }
        (false, true) => {
            let (a, b) = (a as i32, b as i32);
            i64::from(if modulo { a % b } else { a / b }) as u64
        }
        (false, false) => {
            let (a, b) = (a as u32, b as u32);
            u64::from(if modulo { a % b } else { a / b })
        }
    }
}

/// The ones'-complement sum (RFC 1071, section 1) of `data` taken as 16-bit words in the
/// machine's byte order (little-endian: the first byte of a pair is the low one; an odd
/// final byte is padded with a zero), folded to 16 bits. RFC 1071 section 2(B) is why the
/// byte order does not change the checksum's bytes in memory.
///
/// The sum is computed exactly and reduced modulo 0xffff (section 2(A): end-around carry is
/// addition modulo 2^16 - 1), keeping 0xffff rather than 0 for a non-zero total, as adding
/// end-around carries does.
pub fn ones_sum(data: &[u8]) -> u64 {
    let total: u128 = data.chunks(2).map(|w| u128::from(w[0]) | u128::from(w.get(1).copied().unwrap_or(0)) << 8).sum();
    fold(total)
}

/// `total` reduced to a 16-bit ones'-complement value.
pub fn fold(total: u128) -> u64 {
    if total == 0 {
        0
    } else {
        ((total - 1) % 0xffff + 1) as u64
    }
}

/// `do_csum(buf, len)`: the folded 16-bit ones'-complement sum of the buffer (not complemented).
pub fn do_csum(data: &[u8]) -> u64 {
    ones_sum(data)
}

/// `ip_fast_csum(iph, ihl)`: the complement of the sum of the `ihl` 32-bit words of the header
/// (RFC 791's header checksum, computed as RFC 1071 says).
pub fn ip_fast_csum(header: &[u8]) -> u64 {
    !ones_sum(header) & 0xffff
}

/// `csum_ipv6_magic(saddr, daddr, len, proto, sum)`: the complemented checksum of the IPv6
/// pseudo-header of RFC 8200 section 8.1 (source, destination, upper-layer packet length as 32
/// bits in network order, three zero bytes, next header) plus the partial sum `sum` (a 32-bit
/// ones'-complement value, added as its two 16-bit halves).
pub fn csum_ipv6_magic(saddr: &[u8; 16], daddr: &[u8; 16], len: u32, proto: u8, sum: u32) -> u64 {
    let mut pseudo = Vec::with_capacity(40);
    pseudo.extend_from_slice(saddr);
    pseudo.extend_from_slice(daddr);
    pseudo.extend_from_slice(&len.to_be_bytes());
    pseudo.extend_from_slice(&[0, 0, 0, proto]);
    let words: u128 = pseudo.chunks(2).map(|w| u128::from(w[0]) | u128::from(w[1]) << 8).sum();
    !fold(words + u128::from(sum & 0xffff) + u128::from(sum >> 16)) & 0xffff
}

/// `strlen(s)`: bytes before the first NUL.
pub fn strlen(s: &[u8]) -> u64 {
    s.iter().position(|&b| b == 0).expect("the generator ends every string") as u64
}

/// `__strnlen_user(s, n)` over the readable bytes `s` (the next byte faults): the length plus
/// one when a NUL is among the first `n` bytes, `n + 1` when none is, 0 when a byte before
/// either is unreadable.
pub fn strnlen_user(s: &[u8], n: u64) -> u64 {
    for i in 0..n {
        match s.get(i as usize) {
            None => return 0,
            Some(0) => return i + 1,
            Some(_) => {}
        }
    }
    n + 1
}

/// `__strncpy_from_user(dst, src, n)`: copies bytes up to and including a NUL, at most `n`;
/// returns the string's length when the NUL was copied, `n` when it was not, `-EFAULT` when a
/// byte could not be read (`src` holds the readable bytes) or written (`dst_room` bytes can
/// be). `dst` receives what was copied before the fault.
pub fn strncpy_from_user(dst: &mut [u8], dst_room: usize, src: &[u8], n: u64) -> u64 {
    let n = n as usize;
    for (i, &b) in src.iter().take(n).enumerate() {
        match dst.get_mut(i).filter(|_| i < dst_room) {
            None => return EFAULT.wrapping_neg(),
            Some(d) => *d = b,
        }
        if b == 0 {
            return i as u64;
        }
    }
    if src.len() < n {
        EFAULT.wrapping_neg()
    } else {
        n as u64
    }
}

/// Linux's EFAULT.
pub const EFAULT: u64 = 14;

/// `__copy_user(to, from, n)` into `dst` (the destination's bytes from `to` on, of which
/// `dst_room` are mapped) from the readable bytes `src`: the bytes before the first unmapped
/// byte of either side are copied, and the count not copied is returned (the uaccess
/// contract, Documentation/core-api and include/linux/uaccess.h: "returns the number of
/// bytes that could not be copied"). With `zero_tail`, a failed read also zero-fills the rest
/// of the destination (the older copy_from_user contract, kept by the CONFIG_ITANIUM
/// routine).
pub fn user_copy(dst: &mut [u8], dst_room: u64, src: &[u8], n: u64, zero_tail: bool) -> u64 {
    let (done, left) = user_copy_count(n, src.len() as u64, dst_room);
    dst[..done as usize].copy_from_slice(&src[..done as usize]);
    if zero_tail && (src.len() as u64) < n {
        let end = n.min(dst_room) as usize;
        dst[done as usize..end].fill(0);
    }
    left
}

/// `__copy_user(to, from, n)` / `__do_clear_user(to, n)`: the bytes that can be done before
/// the first unmapped byte of either side, and the return value, the count not done.
pub fn user_copy_count(n: u64, src_room: u64, dst_room: u64) -> (u64, u64) {
    let done = n.min(src_room).min(dst_room);
    (done, n - done)
}

/// `xor_ia64_N(bytes, p1, p2, ...)`: `p1[i] ^= p2[i] ^ ...` over `bytes` bytes.
pub fn xor_into(p1: &mut [u8], others: &[&[u8]]) {
    for (i, b) in p1.iter_mut().enumerate() {
        for o in others {
            *b ^= o[i];
        }
    }
}

/// `flush_icache_range(start, end)` / `clflush_cache_range(start, size)`: the number of
/// cache lines of `1 << shift` bytes that hold a byte of `[first, last]` (each must be
/// flushed once, and nothing outside them may be touched).
pub fn lines_covering(first: u64, last: u64, shift: u32) -> u64 {
    (last >> shift) - (first >> shift) + 1
}
