//! `real10`/`real16` (issue 13): decimal literals as the 80-bit extended format (64-bit
//! significand with explicit integer bit, 15-bit exponent biased by 16383, sign), rounded to
//! nearest from the exact decimal value, as gas writes them. `real16` is the same ten
//! bytes padded with six zeros. Rounding is to nearest, ties away from zero, as gas's.
//!
//! The decimal value is converted exactly with a small big-integer quotient: f64 would lose
//! the eleven extra significand bits the extended format holds.

use std::cmp::Ordering;

/// Little-endian 32-bit limbs of a non-negative integer (no trailing zero limbs).
#[derive(Clone, Debug, PartialEq, Eq)]
struct Big(Vec<u32>);

impl Big {
    fn from_u64(v: u64) -> Big {
        let mut b = Big(vec![v as u32, (v >> 32) as u32]);
        b.trim();
        b
    }

    fn trim(&mut self) {
        while self.0.last() == Some(&0) {
            self.0.pop();
        }
    }

    fn is_zero(&self) -> bool {
        self.0.is_empty()
    }

    fn bits(&self) -> u32 {
        match self.0.last() {
            Some(top) => (self.0.len() as u32 - 1) * 32 + (32 - top.leading_zeros()),
            None => 0,
        }
    }

    fn mul_add_small(&mut self, m: u32, a: u32) {
        let mut carry = u64::from(a);
        for limb in &mut self.0 {
            let v = u64::from(*limb) * u64::from(m) + carry;
            *limb = v as u32;
            carry = v >> 32;
        }
        if carry != 0 {
            self.0.push(carry as u32);
        }
        self.trim();
    }

    fn shl(&self, n: u32) -> Big {
        let (words, bits) = ((n / 32) as usize, n % 32);
        let mut out = vec![0u32; words];
        let mut carry = 0u32;
        for &limb in &self.0 {
            if bits == 0 {
                out.push(limb);
            } else {
                out.push((limb << bits) | carry);
                carry = limb >> (32 - bits);
            }
        }
        if carry != 0 {
            out.push(carry);
        }
        let mut b = Big(out);
        b.trim();
        b
    }

    fn cmp(&self, other: &Big) -> Ordering {
        self.0.len().cmp(&other.0.len()).then_with(|| self.0.iter().rev().cmp(other.0.iter().rev()))
    }

    /// `self - other`, which must not be negative.
    fn sub(&mut self, other: &Big) {
        let mut borrow = 0i64;
        for (i, limb) in self.0.iter_mut().enumerate() {
            let v = i64::from(*limb) - i64::from(other.0.get(i).copied().unwrap_or(0)) - borrow;
            borrow = i64::from(v < 0);
            *limb = v.rem_euclid(1 << 32) as u32;
        }
        self.trim();
    }
}

/// Largest decimal exponent accepted; well beyond the format's range (about 1e±4932) so
/// every representable value is converted, while bounding the big-integer work.
const MAX_EXP10: i64 = 6000;

/// Why a literal has no extended value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RealError {
    /// Not a decimal floating literal.
    Syntax,
    /// Too large for the format, or so small it would be denormal (not modelled).
    Range,
}

/// A decimal literal rounded to `p` significant bits: (negative, q, e) with the value
/// q * 2^e and q in [2^(p-1), 2^p), or q == 0 for zero.
fn significand(text: &str, p: u32) -> Result<(bool, u128, i64), RealError> {
    let (neg, body) = match text.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, text.strip_prefix('+').unwrap_or(text)),
    };
    let lower = body.to_ascii_lowercase();
    let (mant, exp) = match lower.split_once('e') {
        Some((m, e)) => {
            let e = e.strip_prefix('+').unwrap_or(e);
            let valid = !e.is_empty() && e.trim_start_matches('-').bytes().all(|b| b.is_ascii_digit());
            if !valid || e.len() > 8 {
                return Err(RealError::Syntax);
            }
            (m, e.parse::<i64>().map_err(|_| RealError::Syntax)?)
        }
        None => (lower.as_str(), 0),
    };
    let (int, frac) = mant.split_once('.').unwrap_or((mant, ""));
    if (int.is_empty() && frac.is_empty()) || !int.bytes().chain(frac.bytes()).all(|b| b.is_ascii_digit()) {
        return Err(RealError::Syntax);
    }
    let digits = format!("{int}{frac}");
    let digits = digits.trim_start_matches('0');
    if digits.is_empty() {
        return Ok((neg, 0, 0));
    }
    let exp10 = exp - frac.len() as i64;
    if exp10.abs() > MAX_EXP10 || digits.len() > 10_000 {
        return Err(RealError::Range);
    }
    let mut num = Big(Vec::new());
    for d in digits.bytes() {
        num.mul_add_small(10, u32::from(d - b'0'));
    }
    let mut den = Big::from_u64(1);
    let scale = if exp10 >= 0 { &mut num } else { &mut den };
    for _ in 0..exp10.unsigned_abs() {
        scale.mul_add_small(10, 0);
    }
    // q = floor(num * 2^s / den) gets p or p + 1 significant bits.
    let s = i64::from(p) - (i64::from(num.bits()) - i64::from(den.bits()));
    let (mut n, d) = if s >= 0 { (num.shl(s as u32), den) } else { (num, den.shl((-s) as u32)) };
    let mut q: u128 = 0;
    for bit in (0..=p + 2).rev() {
        let part = d.shl(bit);
        if part.cmp(&n) != Ordering::Greater {
            n.sub(&part);
            q |= 1u128 << bit;
        }
    }
    let mut shift = s;
    // To nearest, ties away from zero (gas 2.40: `real10 2**64+1`, `real8 2**53+1` round up):
    // `half` compares the discarded part with one half ulp.
    let half = if q >= 1 << p {
        let dropped = q & 1;
        q >>= 1;
        shift -= 1;
        match (dropped, n.is_zero()) {
            (0, _) => Ordering::Less,
            (_, true) => Ordering::Equal,
            _ => Ordering::Greater,
        }
    } else {
        n.shl(1).cmp(&d)
    };
    if half != Ordering::Less {
        q += 1;
        if q == 1 << p {
            q = 1 << (p - 1);
            shift -= 1;
        }
    }
    Ok((neg, q, -shift))
}

/// The ten little-endian bytes of the extended value of `text` (`-1.5`, `0.2`, `1e-3`; gas's
/// `0f`/`0d` type prefix already removed).
pub fn extended_bytes(text: &str) -> Result<[u8; 10], RealError> {
    let (neg, q, e) = significand(text, 64)?;
    let sign = if neg { 0x8000u16 } else { 0 };
    let mut out = [0u8; 10];
    if q != 0 {
        let biased = e + 63 + 16383;
        if !(1..=0x7ffe).contains(&biased) {
            return Err(RealError::Range);
        }
        out[..8].copy_from_slice(&(q as u64).to_le_bytes());
        out[8..].copy_from_slice(&(sign | biased as u16).to_le_bytes());
    } else {
        out[8..].copy_from_slice(&sign.to_le_bytes());
    }
    Ok(out)
}

/// The IEEE single (`width` 4) or double (8) bits of `text`, rounded as gas rounds; `None`
/// when the value is not a normal number of that format (the caller then falls back on the
/// host conversion, which agrees with gas away from exact ties).
pub fn ieee_bits(text: &str, width: usize) -> Option<u64> {
    let (p, bias, max) = match width {
        4 => (24u32, 127i64, 254i64),
        _ => (53, 1023, 2046),
    };
    let (neg, q, e) = significand(text, p).ok()?;
    let sign = u64::from(neg) << (width * 8 - 1);
    if q == 0 {
        return Some(sign);
    }
    let biased = e + i64::from(p) - 1 + bias;
    if !(1..=max).contains(&biased) {
        return None;
    }
    Some(sign | (biased as u64) << (p - 1) | (q as u64 & ((1u64 << (p - 1)) - 1)))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Bytes from `objdump -s` of gas 2.40's `real10` of the same literals.
    #[test]
    fn gas_values() {
        let hex = |s: &str| -> Vec<u8> {
            (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap()).collect()
        };
        assert_eq!(extended_bytes("0.2").unwrap().to_vec(), hex("cdccccccccccccccfc3f"));
        assert_eq!(extended_bytes("0.1").unwrap().to_vec(), hex("cdccccccccccccccfb3f"));
        assert_eq!(extended_bytes("1.5").unwrap().to_vec(), hex("00000000000000c0ff3f"));
        assert_eq!(extended_bytes("-3").unwrap().to_vec(), hex("00000000000000c000c0"));
        assert_eq!(extended_bytes("0").unwrap(), [0; 10]);
        // 2**64 + 1 and 2**64 + 3: exact ties, both rounded up.
        assert_eq!(extended_bytes("18446744073709551617").unwrap().to_vec(), hex("01000000000000803f40"));
        assert_eq!(extended_bytes("18446744073709551619").unwrap().to_vec(), hex("02000000000000803f40"));
        assert_eq!(extended_bytes("x"), Err(RealError::Syntax));
        assert_eq!(extended_bytes("1e99999"), Err(RealError::Range));
        // gas: `real8 9007199254740993` (2**53 + 1) is 0x4340000000000001; `real4 16777217`.
        assert_eq!(ieee_bits("9007199254740993", 8), Some(0x4340_0000_0000_0001));
        assert_eq!(ieee_bits("16777217", 4), Some(0x4b80_0001));
        assert_eq!(ieee_bits("-0.1", 8), Some((-0.1f64).to_bits()));
    }
}
