//! Names of application and control registers (SDM vol. 1 Table 3-3, vol. 2 Table 3-3;
//! reference section 7), shared by the parser and the formatter.

/// Application registers with names, by number.
pub const AR_NAMES: &[(u8, &str)] = &[
    (0, "ar.k0"),
    (1, "ar.k1"),
    (2, "ar.k2"),
    (3, "ar.k3"),
    (4, "ar.k4"),
    (5, "ar.k5"),
    (6, "ar.k6"),
    (7, "ar.k7"),
    (16, "ar.rsc"),
    (17, "ar.bsp"),
    (18, "ar.bspstore"),
    (19, "ar.rnat"),
    (21, "ar.fcr"),
    (24, "ar.eflag"),
    (25, "ar.csd"),
    (26, "ar.ssd"),
    (27, "ar.cflg"),
    (28, "ar.fsr"),
    (29, "ar.fir"),
    (30, "ar.fdr"),
    (32, "ar.ccv"),
    (36, "ar.unat"),
    (40, "ar.fpsr"),
    (44, "ar.itc"),
    (45, "ar.ruc"),
    (64, "ar.pfs"),
    (65, "ar.lc"),
    (66, "ar.ec"),
];

/// Control registers with names, by number.
pub const CR_NAMES: &[(u8, &str)] = &[
    (0, "cr.dcr"),
    (1, "cr.itm"),
    (2, "cr.iva"),
    (8, "cr.pta"),
    (9, "cr.gpta"),
    (16, "cr.ipsr"),
    (17, "cr.isr"),
    (19, "cr.iip"),
    (20, "cr.ifa"),
    (21, "cr.itir"),
    (22, "cr.iipa"),
    (23, "cr.ifs"),
    (24, "cr.iim"),
    (25, "cr.iha"),
    (26, "cr.iib0"),
    (27, "cr.iib1"),
    (64, "cr.lid"),
    (65, "cr.ivr"),
    (66, "cr.tpr"),
    (67, "cr.eoi"),
    (68, "cr.irr0"),
    (69, "cr.irr1"),
    (70, "cr.irr2"),
    (71, "cr.irr3"),
    (72, "cr.itv"),
    (73, "cr.pmv"),
    (74, "cr.cmcv"),
    (80, "cr.lrr0"),
    (81, "cr.lrr1"),
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
