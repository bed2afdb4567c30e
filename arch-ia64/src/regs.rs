//! The one set of register names and numbers: application and control registers (SDM vol. 1
//! Table 3-3, vol. 2 Table 3-3; reference section 7) and the typed register resource the
//! table's implicit-register columns, the dependency checker and the timing model share.

/// Application register numbers (SDM vol. 1 Table 3-3).
pub mod ar {
    /// `ar.k0`.
    pub const K0: u8 = 0;
    /// `ar.k1`.
    pub const K1: u8 = 1;
    /// `ar.k2`.
    pub const K2: u8 = 2;
    /// `ar.k3`.
    pub const K3: u8 = 3;
    /// `ar.k4`.
    pub const K4: u8 = 4;
    /// `ar.k5`.
    pub const K5: u8 = 5;
    /// `ar.k6`.
    pub const K6: u8 = 6;
    /// `ar.k7`.
    pub const K7: u8 = 7;
    /// `ar.rsc`.
    pub const RSC: u8 = 16;
    /// `ar.bsp`.
    pub const BSP: u8 = 17;
    /// `ar.bspstore`.
    pub const BSPSTORE: u8 = 18;
    /// `ar.rnat`.
    pub const RNAT: u8 = 19;
    /// `ar.fcr`.
    pub const FCR: u8 = 21;
    /// `ar.eflag`.
    pub const EFLAG: u8 = 24;
    /// `ar.csd`.
    pub const CSD: u8 = 25;
    /// `ar.ssd`.
    pub const SSD: u8 = 26;
    /// `ar.cflg`.
    pub const CFLG: u8 = 27;
    /// `ar.fsr`.
    pub const FSR: u8 = 28;
    /// `ar.fir`.
    pub const FIR: u8 = 29;
    /// `ar.fdr`.
    pub const FDR: u8 = 30;
    /// `ar.ccv`.
    pub const CCV: u8 = 32;
    /// `ar.unat`.
    pub const UNAT: u8 = 36;
    /// `ar.fpsr`.
    pub const FPSR: u8 = 40;
    /// `ar.itc`.
    pub const ITC: u8 = 44;
    /// `ar.ruc`.
    pub const RUC: u8 = 45;
    /// `ar.pfs`.
    pub const PFS: u8 = 64;
    /// `ar.lc`.
    pub const LC: u8 = 65;
    /// `ar.ec`.
    pub const EC: u8 = 66;
}

/// Control register numbers (SDM vol. 2 Table 3-3).
pub mod cr {
    /// `cr.dcr`.
    pub const DCR: u8 = 0;
    /// `cr.itm`.
    pub const ITM: u8 = 1;
    /// `cr.iva`.
    pub const IVA: u8 = 2;
    /// `cr.pta`.
    pub const PTA: u8 = 8;
    /// `cr.gpta`.
    pub const GPTA: u8 = 9;
    /// `cr.ipsr`.
    pub const IPSR: u8 = 16;
    /// `cr.isr`.
    pub const ISR: u8 = 17;
    /// `cr.iip`.
    pub const IIP: u8 = 19;
    /// `cr.ifa`.
    pub const IFA: u8 = 20;
    /// `cr.itir`.
    pub const ITIR: u8 = 21;
    /// `cr.iipa`.
    pub const IIPA: u8 = 22;
    /// `cr.ifs`.
    pub const IFS: u8 = 23;
    /// `cr.iim`.
    pub const IIM: u8 = 24;
    /// `cr.iha`.
    pub const IHA: u8 = 25;
    /// `cr.iib0`.
    pub const IIB0: u8 = 26;
    /// `cr.iib1`.
    pub const IIB1: u8 = 27;
    /// `cr.lid`.
    pub const LID: u8 = 64;
    /// `cr.ivr`.
    pub const IVR: u8 = 65;
    /// `cr.tpr`.
    pub const TPR: u8 = 66;
    /// `cr.eoi`.
    pub const EOI: u8 = 67;
    /// `cr.irr0`.
    pub const IRR0: u8 = 68;
    /// `cr.irr1`.
    pub const IRR1: u8 = 69;
    /// `cr.irr2`.
    pub const IRR2: u8 = 70;
    /// `cr.irr3`.
    pub const IRR3: u8 = 71;
    /// `cr.itv`.
    pub const ITV: u8 = 72;
    /// `cr.pmv`.
    pub const PMV: u8 = 73;
    /// `cr.cmcv`.
    pub const CMCV: u8 = 74;
    /// `cr.lrr0`.
    pub const LRR0: u8 = 80;
    /// `cr.lrr1`.
    pub const LRR1: u8 = 81;
}

/// Predicate register p63, written by the modulo-scheduled loop branches (`br.ctop`, ...).
pub const PR_LOOP: u8 = 63;

/// PSR.vm (bit 46): virtual machine mode, written by `vmsw` (SDM vol. 2 Table 3-2).
pub const PSR_VM: u8 = 46;

/// A register named by its architectural number: an operand or an implicit use of a row.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Resource {
    /// General register r0..r127.
    Gr(u8),
    /// Floating-point register f0..f127.
    Fr(u8),
    /// Predicate register p0..p63.
    Pr(u8),
    /// Branch register b0..b7.
    Br(u8),
    /// Application register ar0..ar127.
    Ar(u8),
    /// Control register cr0..cr127.
    Cr(u8),
    /// A PSR field, by its bit number (only [`PSR_VM`] is named by a row).
    Psr(u8),
}

/// Application registers with names, by number.
pub const AR_NAMES: &[(u8, &str)] = &[
    (ar::K0, "ar.k0"),
    (ar::K1, "ar.k1"),
    (ar::K2, "ar.k2"),
    (ar::K3, "ar.k3"),
    (ar::K4, "ar.k4"),
    (ar::K5, "ar.k5"),
    (ar::K6, "ar.k6"),
    (ar::K7, "ar.k7"),
    (ar::RSC, "ar.rsc"),
    (ar::BSP, "ar.bsp"),
    (ar::BSPSTORE, "ar.bspstore"),
    (ar::RNAT, "ar.rnat"),
    (ar::FCR, "ar.fcr"),
    (ar::EFLAG, "ar.eflag"),
    (ar::CSD, "ar.csd"),
    (ar::SSD, "ar.ssd"),
    (ar::CFLG, "ar.cflg"),
    (ar::FSR, "ar.fsr"),
    (ar::FIR, "ar.fir"),
    (ar::FDR, "ar.fdr"),
    (ar::CCV, "ar.ccv"),
    (ar::UNAT, "ar.unat"),
    (ar::FPSR, "ar.fpsr"),
    (ar::ITC, "ar.itc"),
    (ar::RUC, "ar.ruc"),
    (ar::PFS, "ar.pfs"),
    (ar::LC, "ar.lc"),
    (ar::EC, "ar.ec"),
];

/// Control registers with names, by number.
pub const CR_NAMES: &[(u8, &str)] = &[
    (cr::DCR, "cr.dcr"),
    (cr::ITM, "cr.itm"),
    (cr::IVA, "cr.iva"),
    (cr::PTA, "cr.pta"),
    (cr::GPTA, "cr.gpta"),
    (cr::IPSR, "cr.ipsr"),
    (cr::ISR, "cr.isr"),
    (cr::IIP, "cr.iip"),
    (cr::IFA, "cr.ifa"),
    (cr::ITIR, "cr.itir"),
    (cr::IIPA, "cr.iipa"),
    (cr::IFS, "cr.ifs"),
    (cr::IIM, "cr.iim"),
    (cr::IHA, "cr.iha"),
    (cr::IIB0, "cr.iib0"),
    (cr::IIB1, "cr.iib1"),
    (cr::LID, "cr.lid"),
    (cr::IVR, "cr.ivr"),
    (cr::TPR, "cr.tpr"),
    (cr::EOI, "cr.eoi"),
    (cr::IRR0, "cr.irr0"),
    (cr::IRR1, "cr.irr1"),
    (cr::IRR2, "cr.irr2"),
    (cr::IRR3, "cr.irr3"),
    (cr::ITV, "cr.itv"),
    (cr::PMV, "cr.pmv"),
    (cr::CMCV, "cr.cmcv"),
    (cr::LRR0, "cr.lrr0"),
    (cr::LRR1, "cr.lrr1"),
];

/// The name of AR `n` (`ar.pfs`), or `None` if it has none.
pub fn ar_name(n: u8) -> Option<&'static str> {
    AR_NAMES.iter().find(|(k, _)| *k == n).map(|(_, s)| *s)
}

/// The name of CR `n` (`cr.ifs`), or `None` if it has none.
pub fn cr_name(n: u8) -> Option<&'static str> {
    CR_NAMES.iter().find(|(k, _)| *k == n).map(|(_, s)| *s)
}

/// The number of a named AR or CR (`ar.itc` -> 44), given the full name with prefix.
pub fn named_register(name: &str) -> Option<u8> {
    AR_NAMES.iter().chain(CR_NAMES).find(|(_, s)| *s == name).map(|(k, _)| *k)
}

/// Which unit may access AR `n` (gas rule R2): `Some(true)` M only, `Some(false)` I only,
/// `None` either.
pub fn ar_m_unit_only(n: u8) -> Option<bool> {
    match n {
        0..=47 => Some(true),
        64..=111 => Some(false),
        _ => None,
    }
}
