//! Register resources as the timing model's scoreboard sees them: one small number per
//! physical register, so a stacked register renamed by `br.call` or a banked r16-r31 is
//! tracked as the register it really is.

use crate::regs::{ar_name, cr_name};
use emu_core::timing::Reg;
use std::fmt;

/// Number of physical stacked general registers modelled (Linux falls back to 96 when
/// PAL_RSE_INFO fails; Itanium 2 implements 96).
pub const STACKED_PHYS: u16 = 96;

const GR_STATIC: u16 = 0; // r0-r15
const GR_BANK1: u16 = 16; // r16-r31, PSR.bn = 1
const GR_BANK0: u16 = 32; // r16-r31, PSR.bn = 0
const GR_STACKED: u16 = 48; // physical stacked registers
const FR: u16 = GR_STACKED + STACKED_PHYS;
const PR: u16 = FR + 128;
const BR: u16 = PR + 64;
const AR: u16 = BR + 8;
const CR: u16 = AR + 128;

/// Total number of resource ids (the size of a scoreboard).
pub const RES_COUNT: usize = (CR + 128) as usize;

/// One register resource.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Res(u16);

impl Res {
    /// r0-r15 (`n` < 16).
    pub const fn gr_static(n: u8) -> Res {
        Res(GR_STATIC + (n as u16 & 15))
    }

    /// r16-r31 of bank `bank` (0 or 1); `n` is 16..=31.
    pub const fn gr_banked(n: u8, bank: u8) -> Res {
        let base = if bank == 0 { GR_BANK0 } else { GR_BANK1 };
        Res(base + ((n as u16).wrapping_sub(16) & 15))
    }

    /// Physical stacked register `p` (0..96).
    pub const fn gr_stacked(p: u16) -> Res {
        Res(GR_STACKED + p % STACKED_PHYS)
    }

    /// The general register at physical index `i` of the layout above (static, bank 1,
    /// bank 0, stacked), as the register file numbers them too.
    pub(crate) const fn gr_physical(i: u16) -> Res {
        Res(i % FR)
    }

    /// f0-f127.
    pub const fn fr(n: u8) -> Res {
        Res(FR + (n as u16 & 127))
    }

    /// p0-p63.
    pub const fn pr(n: u8) -> Res {
        Res(PR + (n as u16 & 63))
    }

    /// b0-b7.
    pub const fn br(n: u8) -> Res {
        Res(BR + (n as u16 & 7))
    }

    /// ar0-ar127.
    pub const fn ar(n: u8) -> Res {
        Res(AR + (n as u16 & 127))
    }

    /// cr0-cr127.
    pub const fn cr(n: u8) -> Res {
        Res(CR + (n as u16 & 127))
    }

    /// The scoreboard index.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Whether this is an application register, and which.
    pub fn as_ar(self) -> Option<u8> {
        (AR..CR).contains(&self.0).then(|| (self.0 - AR) as u8)
    }

    /// Whether this is a control register, and which.
    pub fn as_cr(self) -> Option<u8> {
        (CR..CR + 128).contains(&self.0).then(|| (self.0 - CR) as u8)
    }

    /// Whether this is a predicate register, and which.
    pub fn as_pr(self) -> Option<u8> {
        (PR..BR).contains(&self.0).then(|| (self.0 - PR) as u8)
    }

    /// Whether this is a general register (any bank, static or stacked).
    pub fn is_gr(self) -> bool {
        self.0 < FR
    }
}

impl Res {
    /// The register as a stall record names it (typed stall causes, issue 16): no allocation.
    pub fn reg(self) -> Reg {
        let n = self.0;
        let num = |prefix: &'static str, number: u16| Reg::Numbered { prefix, number, suffix: "" };
        match n {
            _ if n < GR_BANK1 => num("r", n - GR_STATIC),
            _ if n < GR_BANK0 => num("r", n - GR_BANK1 + 16),
            _ if n < GR_STACKED => Reg::Numbered { prefix: "r", number: n - GR_BANK0 + 16, suffix: "(bank0)" },
            _ if n < FR => num("stacked-gr", n - GR_STACKED),
            _ if n < PR => num("f", n - FR),
            _ if n < BR => num("p", n - PR),
            _ if n < AR => num("b", n - BR),
            _ if n < CR => match ar_name((n - AR) as u8) {
                Some(name) => Reg::Named(name),
                None => num("ar", n - AR),
            },
            _ => match cr_name((n - CR) as u8) {
                Some(name) => Reg::Named(name),
                None => num("cr", n - CR),
            },
        }
    }
}

impl fmt::Display for Res {
    /// Names for stall reports: `r16`, `r16(bank0)`, `phys-gr40`, `f8`, `p6`, `b0`, `ar.itc`, `cr.ipsr`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.reg().fmt(f)
    }
}
