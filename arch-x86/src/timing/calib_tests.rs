//! Compares the model with `arch-x86/timing-data/calibration.txt` (measured by calibrate.sh on
//! the AMD EPYC, Zen 4, machine its header names; the test host does not matter): the model runs the same kernel as a hand-built IssueInfo sequence and its
//! steady-state cycles per element must match the measurement within `TOLERANCE` (relative) or
//! `SLACK` cycles, whichever is larger. The Zen 4 preset is held to that, since calibration.txt
//! comes from a Zen 4 machine; the Golden Cove preset is compared and its disagreements are
//! expected (different core) and listed in the printed table, not asserted.

use super::*;
use TimingClass as T;

const CALIBRATION: &str = include_str!("../../timing-data/calibration.txt");
const TOLERANCE: f64 = 0.20;
const SLACK: f64 = 1.5;

const RAX: XReg = XReg::Gpr(0);
const RCX: XReg = XReg::Gpr(1);
const RDX: XReg = XReg::Gpr(2);
const RBX: XReg = XReg::Gpr(3);
const RSP: XReg = XReg::Gpr(4);
const FL: XReg = XReg::Flags;
const CELL: u64 = 0x10000;
const DIVISOR: u64 = 0x20000;

fn op(class: T) -> IssueInfo<'static> {
    IssueInfo { addr: 0x1000, class, srcs: &[], dsts: &[], load: None, store: None, taken: false }
}

/// One element of each kernel of calibrate.c, and what to subtract (the `or` of division chains).
fn kernel(name: &str) -> Option<(Vec<IssueInfo<'static>>, bool)> {
    let div = |bytes, signed| {
        vec![
            IssueInfo { dsts: &[RDX, FL], ..op(T::Alu) },
            IssueInfo {
                srcs: &[RAX, RDX],
                dsts: &[RAX, RDX, FL],
                load: Some((DIVISOR, bytes)),
                ..op(T::Div { bytes, signed })
            },
            IssueInfo { srcs: &[RAX, RBX], dsts: &[RAX, FL], ..op(T::Alu) },
        ]
    };
    let k = match name {
        "add_chain" | "add_imm_chain" | "or_chain" => {
            vec![IssueInfo { srcs: &[RAX, RCX], dsts: &[RAX, FL], ..op(T::Alu) }]
        }
        "imul_chain" => vec![IssueInfo { srcs: &[RAX, RCX], dsts: &[RAX, FL], ..op(T::Imul) }],
        "mul_chain" => vec![IssueInfo { srcs: &[RAX, RCX], dsts: &[RAX, RDX, FL], ..op(T::Mul) }],
        "div32_chain" => return Some((div(4, false), true)),
        "idiv32_chain" => return Some((div(4, true), true)),
        "div64_chain" => return Some((div(8, false), true)),
        "idiv64_chain" => return Some((div(8, true), true)),
        "load_chain" => vec![IssueInfo { srcs: &[RAX], dsts: &[RAX], load: Some((CELL, 8)), ..op(T::Load) }],
        "stlf_chain" => vec![
            IssueInfo { srcs: &[RAX, RBX], store: Some((CELL + 8, 8)), ..op(T::Store) },
            IssueInfo { srcs: &[RBX], dsts: &[RAX], load: Some((CELL + 8, 8)), ..op(T::Load) },
        ],
        "rdtsc" => vec![IssueInfo { dsts: &[RAX, RDX], ..op(T::Rdtsc) }],
        "rdtscp" => vec![IssueInfo { dsts: &[RAX, RDX, RCX], ..op(T::Rdtscp) }],
        "lfence" => vec![op(T::Lfence)],
        "mfence" => vec![op(T::Mfence)],
        "pushf_popf" => vec![
            IssueInfo { srcs: &[FL, RSP], dsts: &[RSP], store: Some((0x7ff8, 8)), ..op(T::Pushf) },
            IssueInfo { srcs: &[RSP], dsts: &[FL, RSP], load: Some((0x7ff8, 8)), ..op(T::Popf) },
        ],
        "pushf_pop" => vec![
            IssueInfo { srcs: &[FL, RSP], dsts: &[RSP], store: Some((0x7ff8, 8)), ..op(T::Pushf) },
            IssueInfo { srcs: &[RSP], dsts: &[RDX, RSP], load: Some((0x7ff8, 8)), ..op(T::Pop) },
        ],
        "call_ret" => vec![
            IssueInfo { srcs: &[RSP], dsts: &[RSP], store: Some((0x7ff8, 8)), taken: true, ..op(T::Call) },
            IssueInfo { srcs: &[RSP], dsts: &[RSP], load: Some((0x7ff8, 8)), taken: true, ..op(T::Ret) },
        ],
        "lock_cmpxchg" => vec![IssueInfo {
            srcs: &[RAX, RCX, RBX],
            dsts: &[RAX, FL],
            load: Some((CELL + 16, 8)),
            store: Some((CELL + 16, 8)),
            ..op(T::LockedRmw)
        }],
        // issue 15: a locked RMW after microcode (calibration-golden-cove.txt only)
        "pushf_popf_lock" => vec![
            IssueInfo { srcs: &[FL, RSP], dsts: &[RSP], store: Some((0x7ff8, 8)), ..op(T::Pushf) },
            IssueInfo { srcs: &[RSP], dsts: &[FL, RSP], load: Some((0x7ff8, 8)), ..op(T::Popf) },
            IssueInfo {
                srcs: &[RBX],
                dsts: &[FL],
                load: Some((CELL + 16, 8)),
                store: Some((CELL + 16, 8)),
                ..op(T::LockedRmw)
            },
        ],
        "rdtsc_lock" => vec![
            IssueInfo { dsts: &[RAX, RDX], ..op(T::Rdtsc) },
            IssueInfo {
                srcs: &[RBX],
                dsts: &[FL],
                load: Some((CELL + 16, 8)),
                store: Some((CELL + 16, 8)),
                ..op(T::LockedRmw)
            },
        ],
        "lock_add" => vec![IssueInfo {
            srcs: &[RBX],
            dsts: &[FL],
            load: Some((CELL + 16, 8)),
            store: Some((CELL + 16, 8)),
            ..op(T::LockedRmw)
        }],
        "cmpxchg" => vec![IssueInfo {
            srcs: &[RAX, RCX, RBX],
            dsts: &[RAX, FL],
            load: Some((CELL + 16, 8)),
            store: Some((CELL + 16, 8)),
            ..op(T::Cmpxchg)
        }],
        "jmp_taken" => vec![IssueInfo { taken: true, ..op(T::Jmp) }],
        "pause" => vec![op(T::Pause)],
        _ => return None,
    };
    Some((k, false))
}

/// Steady-state model cycles per element: run 400 elements, time the second half.
fn model_cycles(params: &X86Params, elem: &[IssueInfo<'static>], minus_or: bool) -> f64 {
    let mut m = X86Model::new(params.clone());
    let n = 400u64;
    let mut mid = 0;
    for k in 0..n {
        if k == n / 2 {
            mid = m.now();
        }
        for i in elem {
            m.issue(i);
        }
    }
    let per = (m.now() - mid) as f64 / (n / 2) as f64;
    if minus_or {
        per - params.alu as f64
    } else {
        per
    }
}

/// `(name, measured cycles)` for every numeric line of a calibration file's `text`.
fn measurements_of(text: &'static str) -> Vec<(&'static str, f64)> {
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| {
            let mut w = l.split_whitespace();
            let name = w.next()?;
            let value = w.next()?.parse::<f64>().ok()?;
            (w.next() == Some("cycles")).then_some((name, value))
        })
        .collect()
}

/// `(name, measured cycles)` for every numeric line of calibration.txt.
fn measurements() -> Vec<(&'static str, f64)> {
    measurements_of(CALIBRATION)
}

/// Rows `(kernel, measured, model)` for `params` against calibration.txt.
fn compare(params: &X86Params) -> Vec<(&'static str, f64, f64)> {
    compare_with(params, CALIBRATION)
}

/// Rows `(kernel, measured, model)` for `params` against the calibration file's `text`.
fn compare_with(params: &X86Params, text: &'static str) -> Vec<(&'static str, f64, f64)> {
    measurements_of(text)
        .into_iter()
        .filter_map(|(name, measured)| {
            let (elem, minus_or) = kernel(name)?;
            Some((name, measured, model_cycles(params, &elem, minus_or)))
        })
        .collect()
}

fn within(measured: f64, model: f64) -> bool {
    (model - measured).abs() <= (measured * TOLERANCE).max(SLACK)
}

#[test]
fn calibration_file_names_the_machine_and_has_every_kernel() {
    assert!(CALIBRATION.contains("# vendor_id"));
    let names: Vec<_> = measurements().into_iter().map(|(n, _)| n).collect();
    for k in [
        "add_chain",
        "imul_chain",
        "div32_chain",
        "div64_chain",
        "idiv64_chain",
        "load_chain",
        "stlf_chain",
        "rdtsc",
        "lfence",
        "pushf_popf",
        "call_ret",
        "lock_cmpxchg",
        "jmp_taken",
    ] {
        assert!(names.contains(&k), "{k} missing from calibration.txt");
    }
    assert!(CALIBRATION.contains("cli_sti n/a"), "cli/sti must be recorded as not measurable");
}

#[test]
fn zen4_preset_matches_the_calibration_machine_within_tolerance() {
    assert!(CALIBRATION.contains("AuthenticAMD"), "calibration.txt is not from the Zen 4 machine any more");
    let rows = compare(&X86Params::zen4());
    assert!(rows.len() >= 20);
    let bad: Vec<_> = rows.iter().filter(|(_, measured, model)| !within(*measured, *model)).collect();
    assert!(bad.is_empty(), "outside {TOLERANCE} / {SLACK} cycles: {bad:?}");
}

#[test]
fn golden_cove_preset_disagreements_are_listed() {
    // Documented disagreement: the calibration machine is Zen 4, not the Golden Cove the preset models.
    // The table goes to stderr (`cargo test -- --nocapture`); the kernels the two cores share
    // figures for (add, imul, div32, div64) must still agree.
    let rows = compare(&X86Params::golden_cove());
    for (name, measured, model) in &rows {
        let mark = if within(*measured, *model) { "" } else { "  DISAGREES (different core)" };
        eprintln!("{name:<14} measured {measured:>7.2}  golden_cove {model:>7.2}{mark}");
    }
    for shared in ["add_chain", "imul_chain", "div32_chain", "div64_chain"] {
        let row = rows.iter().find(|(n, _, _)| *n == shared);
        assert!(row.is_some_and(|(_, a, b)| within(*a, *b)), "{shared}");
    }
}

// Golden Cove calibration (issue 15): calibration-golden-cove.txt, measured by calibrate.sh with
// short runs on a Sapphire Rapids guest of this fleet, holds the Golden Cove preset as
// calibration.txt holds the Zen 4 one.
const CALIBRATION_GC: &str = include_str!("../../timing-data/calibration-golden-cove.txt");

/// Kernels the Golden Cove preset does not reproduce, with the reason (not asserted).
const GC_UNMODELLED: [(&str, &str); 4] = [
    ("add_imm_chain", "immediate folding (0.18 cycles per add) is not modelled: see `Ignored` in mod.rs"),
    ("load_chain", "0.33 cycles per dependent load is below any L1 latency: the chase is not a chain on this core"),
    ("stlf_chain", "0.5 cycles: below the model's 1-cycle forwarding floor (store_forward = 1)"),
    ("jmp_taken", "3.1 cycles for ten taken jumps in a row; loops (one taken branch) show no bubble"),
];

fn compare_gc() -> Vec<(&'static str, f64, f64)> {
    compare_with(&X86Params::golden_cove(), CALIBRATION_GC)
}

#[test]
fn golden_cove_preset_matches_its_calibration_within_tolerance() {
    assert!(CALIBRATION_GC.contains("GenuineIntel"), "calibration-golden-cove.txt is not from an Intel machine");
    let rows = compare_gc();
    for (name, measured, model) in &rows {
        eprintln!("{name:<16} measured {measured:>7.2}  golden_cove {model:>7.2}");
    }
    assert!(rows.len() >= 20, "{rows:?}");
    let bad: Vec<_> = rows
        .iter()
        .filter(|(name, measured, model)| !within(*measured, *model) && !GC_UNMODELLED.iter().any(|(n, _)| n == name))
        .collect();
    assert!(bad.is_empty(), "outside {TOLERANCE} / {SLACK} cycles: {bad:?}");
}
