//! What the Intel SDM (vol. 2, each instruction's "Flags Affected") defines of the RFLAGS
//! probes of flagtest.c: the status flags and whether the result is defined, per probe and
//! input. Only this much may be compared with the host: Intel and AMD cores, and generations
//! of each, differ in the rest.

use arch_x86::state::flags::{AF, CF, OF, PF, SF, STATUS, ZF};

/// The defined part of one probe's outcome.
pub struct Defined {
    /// Status flags whose value after the instruction the SDM defines (an unaffected flag is
    /// defined: it keeps its incoming value).
    pub flags: u64,
    /// Whether the result is defined.
    pub result: bool,
}

const ALL: Defined = Defined { flags: STATUS, result: true };

/// The defined outcome of probe `func` (e.g. `shl16`) on source `b` as flagtest.c passes it
/// (the destination's value never decides what is defined); shifts and rotates take their count from `b`'s low
/// byte, shld/shrd from bits 32-39.
pub fn outcome(func: &str, b: u64) -> Defined {
    let digits = func.find(|c: char| c.is_ascii_digit()).unwrap_or(func.len());
    let (op, bits) = func.split_at(digits);
    let bits: u32 = bits.parse().unwrap_or(64);
    let count_mask = if bits == 64 { 0x3f } else { 0x1f };
    let count = (b & 0xff) as u32 & count_mask;
    let src = b & (u64::MAX >> (64 - bits));
    // Flags after a shift or rotate by a non-zero masked count: OF only for a count of one.
    let of_if_one = |count: u32| if count == 1 { OF } else { 0 };
    match op {
        "add" | "sub" | "adc" | "sbb" | "cmp" | "neg" | "inc" | "dec" | "popcnt" => ALL,
        "and" | "or" | "xor" | "test" => Defined { flags: STATUS & !AF, result: true },
        "shl" | "shr" | "sar" if count != 0 => {
            // CF is undefined for shl/shr by the operand size or more (sar keeps shifting in
            // the sign, so its CF stays defined).
            let cf = if op != "sar" && count >= bits { 0 } else { CF };
            Defined { flags: SF | ZF | PF | cf | of_if_one(count), result: true }
        }
        "rol" | "ror" | "rcl" | "rcr" if count != 0 => Defined { flags: STATUS & !OF | of_if_one(count), result: true },
        "imul" => Defined { flags: CF | OF, result: true },
        "bt" | "bts" | "btr" => Defined { flags: CF | ZF, result: true },
        // The destination of a scan of zero is undefined (Intel), unchanged (AMD).
        "bsf" | "bsr" => Defined { flags: ZF, result: src != 0 },
        "tzcnt" | "lzcnt" => Defined { flags: CF | ZF, result: true },
        "shld" | "shrd" => {
            let count = ((b >> 32) & 0xff) as u32 & count_mask;
            match count {
                0 => ALL,
                c if c > bits => Defined { flags: 0, result: false },
                c => Defined { flags: CF | SF | ZF | PF | of_if_one(c), result: true },
            }
        }
        _ => ALL,
    }
}
