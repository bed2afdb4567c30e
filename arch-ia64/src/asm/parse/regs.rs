//! Register names: the fixed names, numbered files, `ar.`/`cr.` names, aliases and the
//! `in`/`loc`/`out` names of the current register frame.

use crate::asm::syntax::{IndirectFile, Reg};
use crate::regs::{AR_NAMES, CR_NAMES};

/// The register frame set by the last `alloc` or `.regstk`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Frame {
    pub(super) ins: u32,
    pub(super) locals: u32,
    pub(super) outs: u32,
}

pub(super) enum RegLookup {
    /// Not a register name: a symbol.
    No,
    /// A register.
    Yes(Reg),
    /// Looks like a register but is invalid; the message says why.
    Bad(String),
}

pub(super) const INDIRECT: [(&str, IndirectFile); 11] = [
    ("cpuid", IndirectFile::Cpuid),
    ("dbr", IndirectFile::Dbr),
    ("ibr", IndirectFile::Ibr),
    ("pkr", IndirectFile::Pkr),
    ("pmc", IndirectFile::Pmc),
    ("pmd", IndirectFile::Pmd),
    ("rr", IndirectFile::Rr),
    ("itr", IndirectFile::Itr),
    ("dtr", IndirectFile::Dtr),
    ("msr", IndirectFile::Msr),
    ("dahr", IndirectFile::Dahr), // later forms (issue 12)
];

/// A numbered register file: how many registers, how to make one, and its range text.
type RegFile = (u32, fn(u8) -> Reg, &'static str);

/// `digits` as a number if it is written canonically (no sign, no leading zero).
pub(super) fn canonical_number(digits: &str) -> Option<u32> {
    if digits.is_empty() || digits.len() > 9 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    if digits.len() > 1 && digits.starts_with('0') {
        return None;
    }
    digits.parse().ok()
}

pub(super) fn lookup_reg(name: &str, frame: Option<Frame>) -> RegLookup {
    let fixed = match name {
        "sp" => Some(Reg::Gr(12)),
        "gp" => Some(Reg::Gr(1)),
        "tp" => Some(Reg::Gr(13)),
        "rp" => Some(Reg::Br(0)),
        "pr" => Some(Reg::PrAll),
        "pr.rot" => Some(Reg::PrRot),
        "psr" => Some(Reg::Psr),
        "psr.l" => Some(Reg::PsrL),
        "psr.um" => Some(Reg::PsrUm),
        "ip" => Some(Reg::Ip),
        _ => None,
    };
    if let Some(r) = fixed {
        return RegLookup::Yes(r);
    }
    if name.starts_with("ar.") {
        return match AR_NAMES.iter().find(|(_, s)| *s == name) {
            Some((v, _)) => RegLookup::Yes(Reg::Ar(*v)),
            None => RegLookup::Bad(format!("unknown application register '{name}'")),
        };
    }
    if name.starts_with("cr.") {
        return match CR_NAMES.iter().find(|(_, s)| *s == name) {
            Some((v, _)) => RegLookup::Yes(Reg::Cr(*v)),
            None => RegLookup::Bad(format!("unknown control register '{name}'")),
        };
    }
    let split = name.find(|c: char| c.is_ascii_digit()).unwrap_or(name.len());
    let (prefix, digits) = name.split_at(split);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return RegLookup::No;
    }
    let num = canonical_number(digits);
    // Register files whose out-of-range names are errors rather than symbols.
    let file: Option<RegFile> = match prefix {
        "r" => Some((128, Reg::Gr, "general registers are r0-r127")),
        "f" => Some((128, Reg::Fr, "floating-point registers are f0-f127")),
        "p" => Some((64, Reg::Pr, "predicate registers are p0-p63")),
        "b" => Some((8, Reg::Br, "branch registers are b0-b7")),
        "ar" => Some((128, Reg::Ar, "application registers are ar0-ar127")),
        "cr" => Some((128, Reg::Cr, "control registers are cr0-cr127")),
        "dahr" => Some((8, Reg::Dahr, "data access hint registers are dahr0-dahr7")), // later forms (issue 12)
        _ => None,
    };
    if let Some((limit, make, range)) = file {
        return match num.filter(|n| *n < limit).and_then(|n| u8::try_from(n).ok()) {
            Some(n) => RegLookup::Yes(make(n)),
            None => RegLookup::Bad(format!("unknown register '{name}' ({range})")),
        };
    }
    let Some(n) = num else { return RegLookup::No };
    let alias = |base: u32, count: u32, make: fn(u8) -> Reg| {
        if n < count {
            u8::try_from(base + n).map(|v| RegLookup::Yes(make(v))).unwrap_or(RegLookup::No)
        } else {
            RegLookup::No
        }
    };
    match prefix {
        "ret" => alias(8, 4, Reg::Gr),
        "farg" | "fret" => alias(8, 8, Reg::Fr),
        "in" | "loc" | "out" if n < 96 => {
            let Some(f) = frame else {
                return RegLookup::Bad(format!("'{name}' needs a register frame, but no alloc or .regstk precedes it"));
            };
            let (base, count) = match prefix {
                "in" => (32, f.ins),
                "loc" => (32 + f.ins, f.locals),
                _ => (32 + f.ins + f.locals, f.outs),
            };
            if n >= count {
                let have = if count == 0 {
                    format!("no {prefix} registers")
                } else {
                    format!("{prefix}0-{prefix}{}", count - 1)
                };
                return RegLookup::Bad(format!("register '{name}' out of range: the current frame has {have}"));
            }
            match u8::try_from(base + n) {
                Ok(v) if v < 128 => RegLookup::Yes(Reg::Gr(v)),
                _ => RegLookup::Bad(format!("register '{name}' out of range: the frame exceeds r127")),
            }
        }
        _ => RegLookup::No,
    }
}
