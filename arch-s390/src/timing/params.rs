//! The parameters of the s390x model, one documented row each, with sources and GUESS marks,
//! and the per-generation presets (z13, z14, z15).
//!
//! Source keys (full entries in `/work/shared/reference/timing-facts-z13-itanium2.md`):
//! - [CURRAN15] Curran et al., "The IBM z13 multithreaded microprocessor", IBM J. Res. & Dev.
//!   59(4/5), 2015 (abstract): 6 instructions decoded/dispatched/completed per cycle, 10 issued
//!   (2 load/store, 4 fixed point, 2 FP/vector, 2 branch), cracking and millicode.
//! - [TG13s] IBM z13s Technical Guide SG24-8294-00, sec. 2.3.3 and 3.4.12: 4 FXU, 2 LSU, up to 6
//!   instructions decoded per cycle.
//! - [Z13TD] LLVM `SystemZScheduleZ13.td` (and `Z14.td`, `Z15.td` for the presets), read through
//!   `llvm-mca-19 -mcpu=z13|z14|z15`'s instruction-info view: compiler cost estimates, used as
//!   the cross-check the issue asks for, not as hardware measurements.
//! - [HRH] LLVM `SystemZHazardRecognizer.h`: a decoder group holds at most 3 micro-ops.
//! - [POO] z/Architecture Principles of Operation SA22-7832, STORE CLOCK / STORE CLOCK FAST.

use std::fmt::Write as _;

/// Timing classes of the opcode table: each names how the instruction is grouped, which unit
/// runs it and its latency (see [`S390Params::cost`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Class {
    /// Register-register and register-immediate integer work, address generation: one FXU.
    Simple,
    /// A pure load (L, LG, LGRL, LLGF ...): one LSU, the load-use latency.
    Load,
    /// An operation on a storage operand (AG, LT, TM, CLI, CHSI, IC, LOCG ...): LSU then FXU.
    LoadOp,
    /// A store: FXU (data) and LSU.
    Store,
    /// Read-modify-write of storage in one micro-op (NI, OI, XI, LAA and the other interlocked
    /// load-and-ops).
    Rmw,
    /// MVC: a group of its own, the LSU busy for several cycles.
    SsMove,
    /// CLC, XC, NC, OC: cracked (two micro-ops).
    SsOp,
    /// LM, LMG, LMY: a group of its own, the LSU busy for the whole transfer.
    LoadMultiple,
    /// STM, STMG, STMY: a group of its own.
    StoreMultiple,
    /// Branches that group normally (BRC, BRCL, BCR, BC, compare-and-branch).
    Branch,
    /// Branch on count (BRCT, BRCTG, BCTR, BCTGR): ends its group.
    BranchCount,
    /// Calls (BRAS, BRASL, BAS, BASR): a group of their own.
    Call,
    /// Multiplies by a register or storage operand (MSGR, MSG, MS ...).
    Mul,
    /// Multiplies by an immediate (MHI, MGHI, MSFI, MSGFI).
    MulImm,
    /// Multiplies into an even/odd pair (MLR, MLGR, ML, MLG) and FLOGR: a group of their own.
    MulPair,
    /// Divides: a group of their own.
    Div,
    /// Add/subtract with carry/borrow (ALC, ALCG, SLB, SLBG ...): a group of their own.
    Carry,
    /// STPT, SPT, STCK, STCKF, ECTG: each kind has its own row.
    Timer(TimerKind),
    /// SSM, STNSM, STOSM: system-mask updates.
    SysMask,
    /// LPSWE, SVC and the other privileged controls: millicoded and serialising.
    Serial,
}

/// The timer and clock instructions, each costed by its own parameters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TimerKind {
    /// STPT: store CPU timer ([`S390Params::stpt`]).
    Stpt,
    /// SPT: set CPU timer ([`S390Params::spt`]).
    Spt,
    /// STCK: store clock, serialising ([`S390Params::stck`]).
    Stck,
    /// STCKF: store clock fast ([`S390Params::stck`], not serialising).
    Stckf,
    /// ECTG: extract CPU time: millicoded ([`S390Params::millicode`]).
    Ectg,
}

/// How an instruction occupies decoder groups ([Z13TD] lines 36-59, [HRH]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Grouping {
    /// One slot of a group.
    Normal,
    /// One slot, and the group ends after it.
    EndGroup,
    /// Two micro-ops: starts a new group and takes two of its slots.
    Cracked,
    /// Fills `n` whole groups by itself.
    Alone(u8),
}

/// The execution resource a micro-op needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unit {
    /// A fixed-point unit.
    Fxu,
    /// A load/store unit.
    Lsu,
    /// A branch unit.
    Bru,
    /// The (single) millicode sequencer.
    Millicode,
}

/// What one instruction of a class costs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cost {
    /// Group occupancy.
    pub grouping: Grouping,
    /// Units held, each with the cycles it is held for (up to two kinds).
    pub units: [(Unit, u64); 2],
    /// Cycles from issue to the result (register or condition code).
    pub latency: u64,
    /// Waits for every older instruction to complete, and holds every younger one until it has
    /// completed and the front end has refilled.
    pub serialising: bool,
}

/// The model's parameters, in cycles unless the name says otherwise.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct S390Params {
    /// Generation name of the preset ("z13", "z14", "z15").
    pub name: &'static str,
    /// Core frequency in MHz: the CPU timer and TOD advance 4096 units per µs of it.
    pub freq_mhz: u64,
    /// Micro-ops per decoder group.
    pub group_size: u64,
    /// Decoder groups dispatched per cycle.
    pub groups_per_cycle: u64,
    /// Micro-ops in flight (dispatched, not completed) at most.
    pub window: u64,
    /// Fixed-point units.
    pub fxu: u64,
    /// Load/store units.
    pub lsu: u64,
    /// Branch units.
    pub bru: u64,
    /// Register-register integer latency.
    pub simple: u64,
    /// L1 load-to-use latency.
    pub load: u64,
    /// Latency of a store (its data leaves for the store queue).
    pub store: u64,
    /// Extra latency of a read-modify-write beyond the load.
    pub rmw: u64,
    /// Cycles MVC holds the LSU for up to 8 bytes.
    pub mvc: u64,
    /// Extra LSU cycles per 8 bytes an SS instruction moves or compares beyond the first 8.
    pub ss_per_8: u64,
    /// Extra latency of CLC/XC/NC/OC beyond the load.
    pub ss_op: u64,
    /// Latency of LM/LMG (and the cycles it holds the LSU: half of it).
    pub lm: u64,
    /// Cycles STM/STMG holds the FXU.
    pub stm: u64,
    /// Latency of a branch (to its link register, for calls).
    pub branch: u64,
    /// Front-end cycles lost after a taken branch (the group ends at the branch in any case).
    pub taken: u64,
    /// Latency of a register multiply.
    pub mul: u64,
    /// Latency of a multiply by an immediate.
    pub mul_imm: u64,
    /// Latency of a multiply into a register pair (and FLOGR).
    pub mul_pair: u64,
    /// Latency of a divide.
    pub div: u64,
    /// Latency of add/subtract with carry.
    pub carry: u64,
    /// STPT latency.
    pub stpt: u64,
    /// SPT latency.
    pub spt: u64,
    /// STCK / STCKF latency.
    pub stck: u64,
    /// Latency of a millicoded instruction (LPSWE, SVC, ECTG, privileged controls).
    pub millicode: u64,
    /// Cycles after a serialising instruction completes before the next group dispatches.
    pub serial_refill: u64,
}

impl Default for S390Params {
    /// IBM z13 at 5.0 GHz.
    fn default() -> S390Params {
        S390Params::z13()
    }
}

/// The generations with a preset, for `--model`.
pub const PRESETS: [&str; 3] = ["z13", "z14", "z15"];

impl S390Params {
    /// IBM z13 (2015).
    pub fn z13() -> S390Params {
        S390Params {
            name: "z13",
            freq_mhz: 5000,
            group_size: 3,
            groups_per_cycle: 2,
            window: 60,
            fxu: 4,
            lsu: 2,
            bru: 2,
            simple: 1,
            load: 4,
            store: 1,
            rmw: 2,
            mvc: 3,
            ss_per_8: 1,
            ss_op: 3,
            lm: 10,
            stm: 3,
            branch: 1,
            taken: 0,
            mul: 8,
            mul_imm: 5,
            mul_pair: 9,
            div: 30,
            carry: 2,
            stpt: 1,
            spt: 1,
            stck: 15,
            millicode: 30,
            serial_refill: 20,
        }
    }

    /// IBM z14 (2017): the z13 core with the changes LLVM's z14 model carries (multiplies one
    /// cycle faster, FLOGR 5) and the 5.2 GHz clock.
    pub fn z14() -> S390Params {
        S390Params { name: "z14", freq_mhz: 5200, mul: 7, mul_imm: 4, mul_pair: 8, millicode: 20, ..S390Params::z13() }
    }

    /// IBM z15 (2019): LLVM's z15 model has the z14 figures for every class here.
    pub fn z15() -> S390Params {
        S390Params { name: "z15", ..S390Params::z14() }
    }

    /// The preset called `name` (see [`PRESETS`]).
    pub fn preset(name: &str) -> Option<S390Params> {
        match name.to_ascii_lowercase().as_str() {
            "z13" => Some(S390Params::z13()),
            "z14" => Some(S390Params::z14()),
            "z15" => Some(S390Params::z15()),
            _ => None,
        }
    }

    /// What one instruction of `class` costs; `ss_len` is the length of an SS operand in bytes,
    /// `storage` whether it has a storage operand (the multiply, divide and carry classes have
    /// register and storage forms: [Z13TD]'s storage forms add LSULatency).
    pub fn cost(&self, class: Class, ss_len: u64, storage: bool) -> Cost {
        use Grouping::{Alone, Cracked, EndGroup, Normal};
        use Unit::{Bru, Fxu, Lsu, Millicode};
        let c = |grouping, a: (Unit, u64), b: (Unit, u64), latency| Cost {
            grouping,
            units: [a, b],
            latency,
            serialising: false,
        };
        let none = (Fxu, 0);
        let extra = self.ss_per_8 * (ss_len.saturating_sub(1) / 8);
        let load = if storage { self.load } else { 0 };
        match class {
            Class::Simple => c(Normal, (Fxu, 1), none, self.simple),
            Class::Load => c(Normal, (Lsu, 1), none, self.load),
            Class::LoadOp => c(Normal, (Lsu, 1), (Fxu, 1), self.load + self.simple),
            Class::Store => c(Normal, (Lsu, 1), (Fxu, 1), self.store),
            Class::Rmw => c(Normal, (Lsu, 1), (Fxu, 1), self.load + self.rmw),
            Class::SsMove => c(Alone(1), (Lsu, self.mvc + extra), (Fxu, 1), self.store),
            Class::SsOp => c(Cracked, (Lsu, 2 + extra), (Fxu, 1), self.load + self.ss_op + extra),
            Class::LoadMultiple => c(Alone(1), (Lsu, self.lm / 2), none, self.lm),
            Class::StoreMultiple => c(Alone(1), (Lsu, 2), (Fxu, self.stm), self.store),
            Class::Branch => c(Normal, (Bru, 1), none, self.branch),
            Class::BranchCount => c(EndGroup, (Fxu, 1), none, self.branch),
            Class::Call => c(Alone(1), (Fxu, 2), (Bru, 1), self.branch),
            Class::Mul => c(Normal, (Fxu, 1), (Lsu, u64::from(storage)), self.mul + load),
            Class::MulImm => c(Normal, (Fxu, 1), none, self.mul_imm),
            Class::MulPair => c(Alone(1), (Fxu, 2), (Lsu, u64::from(storage)), self.mul_pair + load),
            Class::Div => c(Alone(1), (Fxu, 2), (Lsu, u64::from(storage)), self.div),
            Class::Carry => c(Alone(1), (Fxu, 1), (Lsu, u64::from(storage)), self.carry + load),
            Class::Timer(TimerKind::Stpt) => c(Cracked, (Lsu, 2), (Fxu, 1), self.stpt),
            Class::Timer(TimerKind::Spt) => c(Alone(1), (Lsu, 2), none, self.spt),
            Class::Timer(TimerKind::Stck) => Cost { serialising: true, ..c(Alone(2), (Lsu, 3), (Fxu, 2), self.stck) },
            Class::Timer(TimerKind::Stckf) => c(Alone(2), (Lsu, 3), (Fxu, 2), self.stck),
            Class::Timer(TimerKind::Ectg) => c(Alone(1), (Millicode, self.millicode), none, self.millicode),
            Class::SysMask => c(Alone(1), (Lsu, 1), (Fxu, 1), self.simple),
            Class::Serial => {
                Cost { serialising: true, ..c(Alone(1), (Millicode, self.millicode), none, self.millicode) }
            }
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
            r("freq_mhz", self.freq_mhz, self.name == "z15", "z13 5.0 GHz, z14 5.2 GHz [WC14]; z15 5.2 GHz is IBM's announced figure, not in the sources read"),
            r("group_size", self.group_size, false, "[HRH] line 15: a decoder group holds at most 3 micro-ops"),
            r("groups_per_cycle", self.groups_per_cycle, true, "6 decoded/dispatched per cycle [CURRAN15][TG13s] / 3 per group: derived, no IBM statement"),
            r("window", self.window, true, "[Z13TD] MicroOpBufferSize 60 (2 x 30 issue queues); the z13 GCT size is unpublished"),
            r("fxu", self.fxu, false, "[TG13s] p. 49: 4 FXU; [CURRAN15]: 4 fixed-point issues per cycle"),
            r("lsu", self.lsu, false, "[TG13s] p. 49: 2 LSU; [CURRAN15]: 2 load/store issues per cycle"),
            r("bru", self.bru, false, "[CURRAN15]: 2 branch issues per cycle"),
            r("simple", self.simple, false, "[Z13TD] AGR/LGR/LA/RISBG/CGR: latency 1"),
            r("load", self.load, false, "[Z13TD] LSULatency 4 (LG, LGRL); no IBM figure"),
            r("store", self.store, false, "[Z13TD] STG: latency 1 (FXb + LSU)"),
            r("rmw", self.rmw, false, "[Z13TD] NI/OI/XI and LAA(G): 2 + LSULatency = 6"),
            r("mvc", self.mvc, false, "[Z13TD] MVC: LSU held 3 cycles, GroupAlone, no length dependence"),
            r("ss_per_8", self.ss_per_8, true, "one more LSU cycle per 8 bytes beyond the first 8 (LLVM has no length dependence)"),
            r("ss_op", self.ss_op, false, "[Z13TD] XC/NC/OC: 3 + LSULatency = 7, cracked (CLC is 6 there: 1 cycle over)"),
            r("lm", self.lm, false, "[Z13TD] LMG: latency 10, LSU5, GroupAlone (\"estimated average of 5 ops\")"),
            r("stm", self.stm, false, "[Z13TD] STMG: LSU2 + FXb3, GroupAlone"),
            r("branch", self.branch, false, "[Z13TD] BRC/BCR/BRCT/BRAS(L): latency 1; predicted correctly (warm paths)"),
            r("taken", self.taken, true, "no public taken-branch bubble; the lookahead predictor redirects fetch ahead of decode, so only the group ends"),
            r("mul", self.mul, false, "[Z13TD] MSGR 8 (z14/z15: 7); storage forms add the load"),
            r("mul_imm", self.mul_imm, false, "[Z13TD] MGHI 5 (z14/z15: 4)"),
            r("mul_pair", self.mul_pair, false, "[Z13TD] MLGR 9 (z14/z15: 8), GroupAlone; FLOGR (7, z14: 5) rides with it"),
            r("div", self.div, false, "[Z13TD] DSGR/DLGR and the storage forms (DLG): 30, GroupAlone"),
            r("carry", self.carry, false, "[Z13TD] ALC(G)R/SLB(G)R: 2, GroupAlone"),
            r("stpt", self.stpt, false, "[Z13TD] STPT: 1, LSU2 + FXb, cracked; not serialising ([POO370]'s list has no STPT; z/Arch list unread)"),
            r("spt", self.spt, false, "[Z13TD] SPT: 1, LSU2, GroupAlone"),
            r("stck", self.stck, false, "[Z13TD] STCK(F): 15, LSU3 + FXa2 + FXb, two groups; STCK serialises [POO], STCKF does not"),
            r("millicode", self.millicode, false, "[Z13TD] MCD placeholder: LPSWE/ECTG/SVC 30 (z14/z15 LPSWE 20)"),
            r("serial_refill", self.serial_refill, true, "serialisation discards prefetched instructions: the refill taken as LLVM's MispredictPenalty 20"),
        ]
    }

    /// The parameter table with sources; GUESS marks figures without a public source.
    pub fn explain_model(&self) -> String {
        let rows = self.rows();
        let width = rows.iter().map(|r| r.name.len()).max().unwrap_or(0);
        let mut out = String::new();
        let _ = writeln!(
            out,
            "s390x model of IBM {} (out of order: decoder groups, FXU/LSU/branch units, register and CC dependencies); cycles are core cycles",
            self.name
        );
        let _ = writeln!(out, "CPU timer and TOD: 4096 units per microsecond at freq_mhz");
        let _ = writeln!(out, "{:<width$}  {:>5}  {:<5}  source", "parameter", "value", "guess");
        for r in rows {
            let guess = if r.guess { "GUESS" } else { "" };
            let _ = writeln!(out, "{:<width$}  {:>5}  {:<5}  {}", r.name, r.value, guess, r.source);
        }
        out
    }
}
