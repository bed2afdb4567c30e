//! The z13 parameters of the s390x model, one documented row each, with sources and GUESS marks.

use std::fmt::Write as _;

/// Timing classes of the opcode table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Class {
    /// Register-register and register-immediate integer work, address generation.
    Simple,
    /// An instruction whose second operand is a storage load.
    Load,
    /// A store.
    Store,
    /// Storage-to-storage, read-modify-write of storage, multiple-register storage operations.
    Storage,
    /// Branches (all kinds).
    Branch,
    /// Multiplies (and FLOGR).
    Mul,
    /// Divides.
    Div,
    /// STPT, SPT, STCK, STCKF, ECTG: each kind has its own cost.
    Timer(TimerKind),
    /// Serialising control: LPSWE, SSM, STNSM, STOSM, SVC and other privileged operations.
    Serial,
}

/// The timer and clock instructions, each costed by its own parameter.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TimerKind {
    /// STPT: store CPU timer ([`S390Params::stpt`]).
    Stpt,
    /// SPT: set CPU timer ([`S390Params::spt`]).
    Spt,
    /// STCK: store clock, serialising ([`S390Params::stck`]).
    Stck,
    /// STCKF: store clock fast ([`S390Params::stckf`]).
    Stckf,
    /// ECTG: extract CPU time; costed as STCK ([`S390Params::stck`]).
    Ectg,
}

/// The model's parameters, in cycles unless the name says otherwise.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct S390Params {
    /// Core frequency in MHz: the CPU timer and TOD advance 4096 units per µs of it.
    pub freq_mhz: u64,
    /// Cost of a [`Class::Simple`] instruction.
    pub simple: u64,
    /// Cost of a [`Class::Load`] instruction (L1 hit, load-use not overlapped).
    pub load: u64,
    /// Cost of a store.
    pub store: u64,
    /// Base cost of a storage-storage or storage RMW instruction.
    pub storage: u64,
    /// Extra cost per 8 bytes an SS instruction moves or compares beyond the first 8.
    pub storage_per_8: u64,
    /// Cost of a branch, taken or not.
    pub branch: u64,
    /// Extra cycles when a branch is taken (redirect bubble).
    pub taken: u64,
    /// Cost of a multiply.
    pub mul: u64,
    /// Cost of a divide.
    pub div: u64,
    /// STPT (store CPU timer).
    pub stpt: u64,
    /// SPT (set CPU timer).
    pub spt: u64,
    /// STCK (store clock, serialising).
    pub stck: u64,
    /// STCKF (store clock fast).
    pub stckf: u64,
    /// LPSWE and other serialising control instructions.
    pub serial: u64,
}

impl Default for S390Params {
    /// IBM z13 at 5.0 GHz.
    fn default() -> S390Params {
        S390Params {
            freq_mhz: 5000,
            simple: 1,
            load: 4,
            store: 1,
            storage: 5,
            storage_per_8: 1,
            branch: 1,
            taken: 2,
            mul: 6,
            div: 30,
            stpt: 20,
            spt: 30,
            stck: 30,
            stckf: 12,
            serial: 20,
        }
    }
}

struct Row {
    name: &'static str,
    value: u64,
    guess: bool,
    source: &'static str,
}

impl S390Params {
    fn rows(&self) -> Vec<Row> {
        let r = |name, value, guess, source| Row { name, value, guess, source };
        vec![
            r("freq_mhz", self.freq_mhz, false, "z13 clock 5.0 GHz (IBM z13 technical guide)"),
            r("simple", self.simple, false, "llvm SystemZScheduleZ13: FXa/FXb ops latency 1"),
            r("load", self.load, false, "llvm SystemZScheduleZ13: LSU latency 4 (L1 hit), not overlapped here"),
            r("store", self.store, false, "llvm SystemZScheduleZ13: store retires into the store queue, 1"),
            r("storage", self.storage, true, "MVC/CLC/XC and SI RMW: LSU + cracked, few cycles"),
            r("storage_per_8", self.storage_per_8, true, "8 bytes per LSU cycle for longer SS moves"),
            r("branch", self.branch, false, "llvm SystemZScheduleZ13: branch unit, 1"),
            r("taken", self.taken, true, "taken-branch redirect bubble on a predicted branch"),
            r("mul", self.mul, false, "llvm SystemZScheduleZ13: MSGR 6, MLGR 9 (one figure)"),
            r("div", self.div, false, "llvm SystemZScheduleZ13: DLGR/DSGR ~30"),
            r("stpt", self.stpt, true, "STPT: millicode-free but CPU-timer read is slow; no public figure"),
            r("spt", self.spt, true, "SPT: serialising control update; no public figure"),
            r("stck", self.stck, true, "STCK (and ECTG): serialises and stalls until the clock steps (PoP)"),
            r("stckf", self.stckf, true, "STCKF: the non-serialising form, cheaper than STCK"),
            r("serial", self.serial, true, "LPSWE/SSM/SVC: pipeline drain on a PSW change"),
        ]
    }

    /// The parameter table with sources; GUESS marks figures without a public source.
    pub fn explain_model(&self) -> String {
        let rows = self.rows();
        let width = rows.iter().map(|r| r.name.len()).max().unwrap_or(0);
        let mut out = String::new();
        let _ = writeln!(out, "s390x model of IBM z13 (in order, one instruction at a time); cycles are core cycles");
        let _ = writeln!(out, "CPU timer and TOD: 4096 units per microsecond at freq_mhz");
        let _ = writeln!(out, "{:<width$}  {:>5}  {:<5}  source", "parameter", "value", "guess");
        for r in rows {
            let guess = if r.guess { "GUESS" } else { "" };
            let _ = writeln!(out, "{:<width$}  {:>5}  {:<5}  {}", r.name, r.value, guess, r.source);
        }
        out
    }
}
