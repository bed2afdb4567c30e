//! A plain arbitrary-precision unsigned integer (little-endian 32-bit limbs): the exact
//! arithmetic of the reference model, written without any of the model's shortcuts.

use std::cmp::Ordering;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Big(Vec<u32>);

impl Big {
    pub fn zero() -> Big {
        Big(Vec::new())
    }

    pub fn from_u128(v: u128) -> Big {
        let mut limbs = Vec::new();
        let mut v = v;
        while v != 0 {
            limbs.push(v as u32);
            v >>= 32;
        }
        Big(limbs)
    }

    fn trim(mut self) -> Big {
        while self.0.last() == Some(&0) {
            self.0.pop();
        }
        self
    }

    pub fn is_zero(&self) -> bool {
        self.0.iter().all(|&l| l == 0)
    }

    pub fn bit_len(&self) -> u64 {
        for (i, &l) in self.0.iter().enumerate().rev() {
            if l != 0 {
                return i as u64 * 32 + u64::from(32 - l.leading_zeros());
            }
        }
        0
    }

    pub fn bit(&self, i: u64) -> bool {
        let w = (i / 32) as usize;
        w < self.0.len() && self.0[w] >> (i % 32) & 1 == 1
    }

    /// Whether any bit below position `i` is set.
    pub fn any_below(&self, i: u64) -> bool {
        let w = (i / 32) as usize;
        let full = self.0.iter().take(w).any(|&l| l != 0);
        let part = !i.is_multiple_of(32) && self.0.get(w).is_some_and(|&l| l & ((1u32 << (i % 32)) - 1) != 0);
        full || part
    }

    pub fn shl(&self, s: u64) -> Big {
        let words = (s / 32) as usize;
        let bits = (s % 32) as u32;
        let mut out = vec![0u32; words];
        let mut carry = 0u32;
        for &l in &self.0 {
            if bits == 0 {
                out.push(l);
            } else {
                out.push((l << bits) | carry);
                carry = l >> (32 - bits);
            }
        }
        out.push(carry);
        Big(out).trim()
    }

    pub fn shr(&self, s: u64) -> Big {
        let words = (s / 32) as usize;
        let bits = (s % 32) as u32;
        if words >= self.0.len() {
            return Big::zero();
        }
        let src = &self.0[words..];
        let mut out = Vec::with_capacity(src.len());
        for i in 0..src.len() {
            let lo = src[i] >> bits;
            let hi = if bits == 0 { 0 } else { src.get(i + 1).map_or(0, |&h| h << (32 - bits)) };
            out.push(lo | hi);
        }
        Big(out).trim()
    }

    pub fn add(&self, o: &Big) -> Big {
        let n = self.0.len().max(o.0.len());
        let mut out = Vec::with_capacity(n + 1);
        let mut carry = 0u64;
        for i in 0..n {
            let s = u64::from(*self.0.get(i).unwrap_or(&0)) + u64::from(*o.0.get(i).unwrap_or(&0)) + carry;
            out.push(s as u32);
            carry = s >> 32;
        }
        out.push(carry as u32);
        Big(out).trim()
    }

    /// `self - o`, `self >= o`.
    pub fn sub(&self, o: &Big) -> Big {
        let mut out = Vec::with_capacity(self.0.len());
        let mut borrow = 0i64;
        for i in 0..self.0.len() {
            let d = i64::from(self.0[i]) - i64::from(*o.0.get(i).unwrap_or(&0)) - borrow;
            if d < 0 {
                out.push((d + (1 << 32)) as u32);
                borrow = 1;
            } else {
                out.push(d as u32);
                borrow = 0;
            }
        }
        Big(out).trim()
    }

    pub fn cmp(&self, o: &Big) -> Ordering {
        let (a, b) = (self.clone().trim(), o.clone().trim());
        a.0.len().cmp(&b.0.len()).then_with(|| a.0.iter().rev().cmp(b.0.iter().rev()))
    }

    pub fn to_u128(&self) -> u128 {
        self.0.iter().rev().fold(0u128, |acc, &l| (acc << 32) | u128::from(l))
    }
}
