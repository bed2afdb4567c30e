//! Dependency-violation (DV) checking in explicit mode, reproducing the warnings of GNU as 2.40
//! (`ia64-linux-gnu-as -x`) for register resources.
//!
//! The assembler feeds every instruction in program order ([`DvChecker::insn`]), every stop
//! ([`DvChecker::stop`]), every code label ([`DvChecker::label`]) and the `.pred.rel` directives.
//! The checker keeps gas's list of recorded resource uses and reports a conflict as gas does:
//! `Use of 'NAME' violates|may violate RAW|WAW dependency 'RESOURCE' (SEM)[ when entry is at
//! label 'L'][, specific resource number is N]`.
//!
//! **Diagnostic convention.** One report is one [`Diagnostic::warning`] at the later
//! instruction with that message (without gas's `Warning: ` prefix). When gas also prints
//! "Only the first path encountering the conflict is reported", that text is the first note,
//! located at the later instruction. The last note is always "This is the location of the
//! conflicting usage" at the earlier instruction.
//!
//! **Scope.** The resources are the register files GR, FR, PR and BR, every application register
//! by name (including the ten `AR[FPSR]` fields written by `mov ar.fpsr`), and every control
//! register by name. Out of scope, so never reported: the PSR fields, CFM, RSE, ALAT, memory,
//! `InService*`, the TLB and indirect register files (`pkr[]`, `rr[]`, `msr[]`, ...; the general
//! register indexing them is checked like any GR read), `AR[FPSR]` use by
//! floating-point arithmetic, `CR[IRR%]` writes by `mov r=cr.ivr`, and `CR[DCR]`/`CR[PTA]`/
//! `CR[GPTA]` reads by loads and `thash`. `.pred.rel.imply` and the "implied predicate has
//! branched" refinement are not modelled.
//!
//! **Automatic mode** (issue 13, [`DvChecker::auto_insn`]): instead of warning, each conflict is
//! resolved as gas does (a stop, a `srlz.d`, or a stop, `srlz.i` and stop). There the checker
//! also has gas's CFM, RSE, PSR-field, translation-cache/-register and indirect-register-file
//! rows, and the `CR[PTA]`/`CR[GPTA]` reads by memory accesses and `thash` (`dv_sys.rs`); explicit
//! mode keeps the scope above, so its warnings are unchanged. Both modes honour `.mem.offset`
//! (the AR[UNAT] bit of a spill or fill) and `.serialize.data`/`.serialize.instruction`.
//!
//! **How gas works, as reproduced here** (each point is pinned by a test below):
//! - Every use is classified against the rows of the architecture's dependency tables: a writer
//!   records one entry per RAW and WAW row it writes (in table order; the resources of one row
//!   in reverse operand order), and each later instruction checks the recorded entries in list
//!   order. WAW rows whose two writer sets differ act in both directions, so some pairs (two
//!   compares writing the same predicate, `mov pr=`) are reported twice.
//! - "violates" needs the same specific resource and an unpredicated later instruction.
//! - A stop drops `implied`/`impliedf` entries; `data`/`instr` entries need a stop, then a
//!   `srlz.d` (or `srlz.i` and one more stop); `other` entries are dropped only by `srlz.d`;
//!   entries of rows with no semantics (`none`) are kept but never reported.
//! - A taken branch (unpredicated `br`/`br.cond`/`br.call`/`br.ret`/`brl*`, any `br.ia`) or `rfi`
//!   drops everything, including mutex relations and entry paths. A predicated branch drops the
//!   entries made under the same predicate (unless that predicate was rewritten since); a
//!   predicated call instead acts as a stop for that predicate. Branches and `rfi` record only
//!   their predicate read. Counted/modulo-scheduled loop branches are ordinary instructions.
//! - Every code label starts a new entry path; a later warning found on the first path gets the
//!   "Only the first path" note, one found only on a path entered at a label gets the "when entry
//!   is at label" text.
//! - Mutex relations come from `.pred.rel.mutex` and from unpredicated or `.unc` compares
//!   writing two predicates; they suppress checks between instructions predicated on two of
//!   their members, except predicate WAW checks of `.unc` compares.

use emu_core::error::{Diagnostic, SourceLoc};

// F unit (issue 12): the FPSR fields of FP instructions.
#[path = "dv_fp.rs"]
mod dv_fp;
// automatic mode (issue 13): the CFM, RSE and PSR rows.
#[path = "dv_sys.rs"]
mod dv_sys;

use crate::exec::mm::MmOp;
use crate::exec::op::{BrKind, CmpType, FpArithOp, LoadKind, TlbOp};
/// A register resource, numbered as encoded (`ar.lc` = 65, `cr.ifs` = 23).
pub use crate::regs::Resource;
use crate::regs::{ar, cr};
use crate::table::{Implicit, Sem as Op};

/// What kind of instruction, as far as DV bookkeeping is concerned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DvKind {
    /// Anything not listed below (including `br.cloop`/`br.ctop`/`br.cexit`/`br.wtop`/`br.wexit`,
    /// which the checker treats as ordinary instructions whatever kind they are given).
    Plain,
    /// A branch. `unconditional`: qp is p0 (`br.ia` counts as taken in any case); `call`:
    /// br.call/brl.call.
    Branch {
        /// The branch is always taken.
        unconditional: bool,
        /// The branch is a call.
        call: bool,
    },
    /// rfi (clears everything).
    Rfi,
    /// srlz.d / srlz.i (clears data/instr deps in a later group).
    Srlz {
        /// `srlz.i` rather than `srlz.d`.
        instr: bool,
    },
    /// A compare/tbit/tnat/fcmp/fclass writing p1,p2; `unc`: the .unc form (both targets always
    /// written). The `.and`/`.or`/`.andcm`/`.orcm`/`.or.andcm`/`.and.orcm` type is read from the
    /// mnemonic.
    Compare {
        /// First target predicate.
        p1: u8,
        /// Second target predicate.
        p2: u8,
        /// The `.unc` form.
        unc: bool,
    },
}

/// One instruction as the checker sees it.
#[derive(Debug, Clone)]
pub struct DvInsn<'a> {
    /// Where the instruction is written.
    pub loc: SourceLoc,
    /// The opcode name gas uses in messages (e.g. "add", "mov.i", "br.call.sptk.many").
    pub name: &'a str,
    /// The row's semantics id with its completers resolved (issue 12): what the instruction
    /// is, for the checks that treat calls, returns, loop branches, compares, ... apart.
    pub sem: Option<Op>,
    /// The registers the row reads and writes implicitly (issue 12).
    pub implicit: Implicit,
    /// Whether the row has a status-field completer (`.s0`-`.s3`), whose FPSR fields it uses.
    pub status_field: bool,
    /// Qualifying predicate (0 when unpredicated).
    pub qp: u8,
    /// Explicit register operands read (inputs, `[rN]` bases). For `mov r=pr` pass
    /// [`all_predicates`]; implicit resources are added by the checker.
    pub reads: &'a [Resource],
    /// Explicit register operands written (outputs, post-increment bases). For `mov pr=r,mask`
    /// pass [`predicates_in_mask`], for `mov pr.rot=imm` [`rotating_predicates`]. The targets of
    /// a [`DvKind::Compare`] come from the kind; predicate entries here are then ignored.
    pub writes: &'a [Resource],
    /// DV category of the instruction.
    pub kind: DvKind,
}

/// p1..p63, the predicates `mov r=pr` reads (p0 is constant and never recorded).
pub fn all_predicates() -> Vec<Resource> {
    (1..64).map(Resource::Pr).collect()
}

/// The predicates `mov pr=r,mask17` writes: p1..p15 by mask bit, and p16..p63 when bit 16 is set.
pub fn predicates_in_mask(mask: u64) -> Vec<Resource> {
    let mut out: Vec<Resource> = (1..16).filter(|&p| mask & (1u64 << p) != 0).map(Resource::Pr).collect();
    if mask & (1u64 << 16) != 0 {
        out.extend(rotating_predicates());
    }
    out
}

/// p16..p63, the predicates `mov pr.rot=imm` writes.
pub fn rotating_predicates() -> Vec<Resource> {
    (16..64).map(Resource::Pr).collect()
}

/// RAW (a writer then a reader) or WAW (two writers).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Mode {
    Raw,
    Waw,
}

/// How a dependency is resolved, named as gas prints it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Sem {
    /// Never reported (the architecture allows it).
    None,
    Implied,
    ImpliedF,
    Data,
    Instr,
    /// The "SC Section ..." rows: resolved only by `srlz.d`.
    Other,
}

impl Sem {
    fn text(self) -> &'static str {
        match self {
            Sem::None => "none",
            Sem::Implied => "implied",
            Sem::ImpliedF => "impliedf",
            Sem::Data => "data",
            Sem::Instr => "instr",
            Sem::Other => "other",
        }
    }
}

/// One row of gas's dependency tables; `order` is its position there (RAW rows first, then
/// WAW), which fixes the order in which one instruction records its entries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Dep {
    mode: Mode,
    order: u16,
    name: &'static str,
    sem: Sem,
}

const fn dep(mode: Mode, order: u16, name: &'static str, sem: Sem) -> Dep {
    Dep { mode, order, name, sem }
}

/// The type of a parallel compare's write; two writes of the same type never conflict.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Cmp {
    None,
    And,
    Or,
}

/// Which resource of a row is used: `index` is printed as the specific resource number
/// (`None` for rows whose name has no `%`); a non-specific use conflicts with any entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Spec {
    specific: bool,
    index: Option<u8>,
    cmp: Cmp,
}

impl Spec {
    fn at(n: u8) -> Spec {
        Spec { specific: true, index: Some(n), cmp: Cmp::None }
    }
    fn whole() -> Spec {
        Spec { specific: true, index: None, cmp: Cmp::None }
    }
    fn any() -> Spec {
        Spec { specific: false, index: None, cmp: Cmp::None }
    }
}

/// How an instruction takes part in the rows that single out instruction classes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Class {
    Plain,
    BrCall,
    BrRet,
    /// br.ia, br.cond, br: branches through or to something, not call/return.
    BrOther,
    Brp,
    Rfi,
    Cover,
    Itc,
    SpillFill,
}

/// How a predicate write is classified by the PR rows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum PrWriter {
    /// Integer compare, tbit, tnat (normal or .unc).
    Int,
    /// fcmp, fclass, frcpa, ... (normal or .unc).
    Fp,
    /// `.and`/`.andcm` parallel compare target.
    And,
    /// `.or`/`.orcm` parallel compare target.
    Or,
    /// mov pr=, mov pr.rot=, and the modulo-scheduled loop branches.
    Move,
}

/// Serialization progress of a data/instr entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Srlz {
    None,
    Stop,
    Done,
}

/// One recorded resource use (gas's `regdeps` element).
#[derive(Debug, Clone)]
struct Entry {
    dep: Dep,
    spec: Spec,
    qp: u8,
    path: usize,
    loc: SourceLoc,
    link_to_qp_branch: bool,
    insn_srlz: Srlz,
    data_srlz: Srlz,
}

/// A set of predicates known to be mutually exclusive, valid on paths up to `path`.
#[derive(Debug, Clone, Copy)]
struct Mutex {
    mask: u64,
    path: usize,
}

/// One instruction as both modes see it before checking (see `DvChecker::prepare`).
struct Prepared {
    class: Class,
    loop_branch: bool,
    branch: bool,
    taken: bool,
    uses: Uses,
}

/// The uses of one instruction: `regs` are recorded, `chks` are checked against the record.
#[derive(Default)]
struct Uses {
    regs: Vec<(Dep, Spec)>,
    chks: Vec<(Dep, Spec)>,
}

impl Uses {
    fn reg(&mut self, d: Dep, s: Spec) {
        self.regs.push((d, s));
    }
    fn chk(&mut self, d: Dep, s: Spec) {
        self.chks.push((d, s));
    }
}

/// The explicit-mode DV checker of one assembly.
#[derive(Debug, Clone, Default)]
pub struct DvChecker {
    entries: Vec<Entry>,
    mutexes: Vec<Mutex>,
    /// Labels that started the current entry paths; the path count is its length.
    entry_labels: Vec<String>,
    safe_across_calls: u64,
    /// Warnings reported so far, up to [`MAX_DV_WARNINGS`].
    reported: usize,
    /// Set past [`MAX_DV_WARNINGS`]: nothing more is checked or recorded.
    gave_up: bool,
    /// Automatic mode (issue 13): the rotating size of the last `alloc` (gas's
    /// `md.rot.num_regs`), for the CFM rows of `dv_sys.rs`.
    rot_grs: u8,
    /// `.mem.offset` (issue 13): the AR[UNAT] bit the next spill or fill uses.
    unat_bit: Option<u8>,
}

/// Most dependency-violation warnings one assembly reports. Like gas, the checker compares
/// each instruction with every use recorded in its group, so a long group without stops
/// gives warnings quadratic in its length (20,000 writes of 20 registers: 20 million
/// warnings, 5 GB); past this many the checker stops, saying so.
pub const MAX_DV_WARNINGS: usize = 1000;

const GR: &str = "GR%, % in 1 - 127";
const FR: &str = "FR%, % in 2 - 127";
const BR: &str = "BR%, % in 0 - 7";

impl DvChecker {
    /// A checker with nothing recorded.
    pub fn new() -> DvChecker {
        DvChecker::default()
    }

    /// A code label was defined (starts a new entry path, "when entry is at label 'X'").
    /// Labels in data sections must not be passed.
    pub fn label(&mut self, name: &str) {
        self.entry_labels.push(name.to_string());
    }

    /// An instruction-group stop (`;;`, one the bundler added, or a flush point: `.proc`,
    /// `.endp`, `.align`, a section switch or data in a code section all end the group in gas
    /// and do nothing more to the DV state).
    pub fn stop(&mut self) {
        self.group_break(None);
    }

    /// `.pred.rel.mutex` / `.pred.rel "mutex"` with these predicates (p0 must not be listed;
    /// fewer than two predicates record nothing). Existing relations are kept.
    pub fn pred_rel_mutex(&mut self, preds: &[u8]) {
        let mask = mask_of(preds);
        if mask.count_ones() >= 2 {
            self.mutexes.push(Mutex { mask, path: self.entry_labels.len() });
        }
    }

    /// `.pred.rel.clear` with these predicates (an empty list clears all): drops every mutex
    /// relation that involves one of them.
    pub fn pred_rel_clear(&mut self, preds: &[u8]) {
        let mask = if preds.is_empty() { u64::MAX } else { mask_of(preds) };
        self.clear_mutex(mask);
    }

    /// `.pred.safe_across_calls`: mutex relations among these predicates survive calls.
    pub fn pred_safe_across_calls(&mut self, preds: &[u8]) {
        self.safe_across_calls = mask_of(preds);
    }

    /// Check one instruction in program order; returns the warnings it triggers (possibly
    /// several, in gas's order), then records its uses.
    pub fn insn(&mut self, insn: &DvInsn) -> Vec<Diagnostic> {
        if self.gave_up {
            return Vec::new();
        }
        let out = self.check_and_record(insn);
        self.count(out, &insn.loc)
    }

    /// Counts `out` against [`MAX_DV_WARNINGS`]; at the limit, keeps what fits, adds a last
    /// warning at `loc` and stops the checker.
    fn count(&mut self, mut out: Vec<Diagnostic>, loc: &SourceLoc) -> Vec<Diagnostic> {
        let room = MAX_DV_WARNINGS - self.reported;
        if out.len() <= room {
            self.reported += out.len();
            return out;
        }
        out.truncate(room);
        out.push(Diagnostic::warning(
            loc.clone(),
            format!(
                "more than {MAX_DV_WARNINGS} dependency violations; the rest of the file is not checked \
                 (add stops `;;` between the instruction groups)"
            ),
        ));
        self.reported = MAX_DV_WARNINGS;
        self.gave_up = true;
        self.entries = Vec::new();
        out
    }

    fn check_and_record(&mut self, insn: &DvInsn) -> Vec<Diagnostic> {
        let p = self.prepare(insn);
        let out = self.check(insn, &p.uses);
        self.record(insn, &p);
        out
    }

    /// What both modes derive from `insn` before checking it: its class, how it branches and
    /// the uses it makes (with `.mem.offset` applied).
    fn prepare(&mut self, insn: &DvInsn) -> Prepared {
        let class = classify(insn);
        let loop_branch = is_loop_branch(insn);
        let branch = !loop_branch && matches!(insn.kind, DvKind::Branch { .. });
        let taken = branch
            && (matches!(insn.kind, DvKind::Branch { unconditional: true, .. })
                || matches!(insn.sem, Some(Op::Branch { kind: BrKind::Ia, .. })));
        let mut uses = collect_uses(insn, class, branch || insn.kind == DvKind::Rfi || wtop_wexit(insn));
        self.apply_mem_offset(class, &mut uses);
        Prepared { class, loop_branch, branch, taken, uses }
    }

    /// Records a checked `insn` as both modes do.
    fn record(&mut self, insn: &DvInsn, p: &Prepared) {
        // Branches and rfi record only their predicate read, and no row of this module has a
        // branch predicate read on its first side.
        if !p.branch && insn.kind != DvKind::Rfi {
            self.mark(insn, &p.uses);
        }
        self.update(insn, p.branch, p.taken);
        self.note_predicates(insn, p.branch, p.taken, p.loop_branch);
    }

    fn check(&self, insn: &DvInsn, uses: &Uses) -> Vec<Diagnostic> {
        let mut out = Vec::new();
        for e in &self.entries {
            if let Some((path, certain_match)) = self.conflict(e, insn, uses) {
                out.push(self.report(insn, e, path, certain_match));
            }
        }
        out
    }

    /// Whether `insn` conflicts with the recorded entry `e`: the first entry path on which it
    /// does, and whether the match is specific.
    fn conflict(&self, e: &Entry, insn: &DvInsn, uses: &Uses) -> Option<(usize, bool)> {
        if e.dep.sem == Sem::None {
            return None;
        }
        let specs: Vec<Spec> = uses.chks.iter().filter(|(d, _)| *d == e.dep).map(|&(_, s)| s).collect();
        if specs.is_empty() {
            return None;
        }
        // gas's "note 11": a .unc compare writes its targets whatever its predicate, so
        // a mutex relation does not excuse its predicate WAW conflicts.
        let unc = matches!(insn.kind, DvKind::Compare { unc: true, .. });
        let note11 = unc && e.dep.mode == Mode::Waw && e.dep.name.starts_with("PR");
        for path in 0..=self.entry_labels.len() {
            if e.path < path {
                continue;
            }
            if !note11 && self.mutex(e.qp, insn.qp, path) {
                continue;
            }
            if let Some(certain_match) = match_specs(e, &specs) {
                return Some((path, certain_match));
            }
        }
        None
    }

    fn report(&self, insn: &DvInsn, e: &Entry, path: usize, specific: bool) -> Diagnostic {
        let certain = specific && insn.qp == 0;
        let mode = match e.dep.mode {
            Mode::Raw => "RAW",
            Mode::Waw => "WAW",
        };
        let mut msg = format!(
            "Use of '{}' {} {} dependency '{}' ({})",
            insn.name,
            if certain { "violates" } else { "may violate" },
            mode,
            e.dep.name,
            e.dep.sem.text()
        );
        if path > 0 {
            if let Some(l) = self.entry_labels.get(path - 1) {
                msg.push_str(&format!(" when entry is at label '{l}'"));
            }
        }
        if specific {
            if let Some(n) = e.spec.index {
                msg.push_str(&format!(", specific resource number is {n}"));
            }
        }
        let mut d = Diagnostic::warning(insn.loc.clone(), msg);
        if path < self.entry_labels.len() {
            d = d.with_note(insn.loc.clone(), "Only the first path encountering the conflict is reported");
        }
        d.with_note(e.loc.clone(), "This is the location of the conflicting usage")
    }

    fn mark(&mut self, insn: &DvInsn, uses: &Uses) {
        let mut regs = uses.regs.clone();
        regs.sort_by_key(|(d, _)| (d.mode, d.order));
        let path = self.entry_labels.len();
        let mut i = 0;
        while i < regs.len() {
            let d = regs[i].0;
            let mut j = i;
            while j < regs.len() && regs[j].0 == d {
                j += 1;
            }
            // gas records the resources of one row last operand first.
            for &(dep, spec) in regs[i..j].iter().rev() {
                self.entries.push(Entry {
                    dep,
                    spec,
                    qp: insn.qp,
                    path,
                    loc: insn.loc.clone(),
                    link_to_qp_branch: true,
                    insn_srlz: Srlz::None,
                    data_srlz: Srlz::None,
                });
            }
            i = j;
        }
    }

    fn update(&mut self, insn: &DvInsn, branch: bool, taken: bool) {
        match insn.kind {
            DvKind::Srlz { instr: true } => {
                for e in &mut self.entries {
                    if e.insn_srlz == Srlz::Stop {
                        e.insn_srlz = Srlz::Done;
                    }
                }
            }
            DvKind::Srlz { instr: false } => {
                self.remove_where(|e| e.data_srlz == Srlz::Stop || e.dep.sem == Sem::Other);
            }
            DvKind::Rfi => self.entries.clear(),
            _ if taken => self.entries.clear(),
            DvKind::Branch { call, .. } if branch && insn.qp != 0 => {
                if call {
                    self.group_break(Some(insn));
                } else {
                    let qp = insn.qp;
                    self.remove_where(|e| e.qp == qp && e.link_to_qp_branch && !same_line(&e.loc, &insn.loc));
                }
            }
            _ => {}
        }
    }

    /// gas's `note_register_values`: predicate relations after the instruction.
    fn note_predicates(&mut self, insn: &DvInsn, branch: bool, taken: bool, loop_branch: bool) {
        let call = matches!(insn.kind, DvKind::Branch { call: true, .. });
        let mut changed = match insn.kind {
            DvKind::Compare { p1, p2, .. } => mask_of(&[p1, p2]),
            _ => 0,
        };
        if !matches!(insn.kind, DvKind::Compare { .. }) {
            for r in insn.writes {
                if let Resource::Pr(p) = r {
                    changed |= mask_of(&[*p]);
                }
            }
        }
        self.clear_branch_link(changed);
        if loop_branch || matches!(insn.sem, Some(Op::Clrrrb { .. })) {
            // Rotating-register base changes invalidate everything about p16..p63.
            let rot = changed | !0xFFFFu64;
            self.clear_mutex(rot);
        } else if branch && call {
            let unsafe_mask = !self.safe_across_calls;
            self.clear_mutex(unsafe_mask);
            self.clear_branch_link(unsafe_mask);
            if taken {
                self.entry_labels.clear();
            }
        } else if insn.kind == DvKind::Rfi || taken {
            self.mutexes.clear();
            self.entry_labels.clear();
        } else if let DvKind::Compare { p1, p2, unc } = insn.kind {
            let ctype = compare_type(insn);
            let both = mask_of(&[p1, p2]);
            if p1 == p2 || ctype == CmpType::OrAndcm {
                // No statement about exclusion; existing relations stay.
            } else if ctype == CmpType::And {
                // An and-type write can only clear predicates: exclusion is preserved.
            } else if ctype == CmpType::Or {
                self.clear_mutex(both);
            } else if insn.qp == 0 || unc {
                self.clear_mutex(both);
                if p1 != 0 && p2 != 0 {
                    self.mutexes.push(Mutex { mask: both, path: self.entry_labels.len() });
                }
            } else {
                self.clear_mutex(both);
            }
        } else {
            self.clear_mutex(changed);
        }
    }

    /// gas's `insn_group_break`: a stop, or (with `only`) a predicated call acting as a stop
    /// for entries under its predicate made on other lines.
    fn group_break(&mut self, only: Option<&DvInsn>) {
        let mut i = 0;
        while i < self.entries.len() {
            let e = &mut self.entries[i];
            if let Some(insn) = only {
                if e.qp != insn.qp || same_line(&e.loc, &insn.loc) {
                    i += 1;
                    continue;
                }
            }
            if matches!(e.dep.sem, Sem::Implied | Sem::ImpliedF) || e.insn_srlz == Srlz::Done {
                self.entries.swap_remove(i);
                continue;
            }
            if matches!(e.dep.sem, Sem::Data | Sem::Instr) {
                if e.insn_srlz == Srlz::None {
                    e.insn_srlz = Srlz::Stop;
                }
                if e.data_srlz == Srlz::None {
                    e.data_srlz = Srlz::Stop;
                }
            }
            i += 1;
        }
    }

    /// Removes entries the way gas does (the last entry takes the removed one's place), which
    /// decides the order of later reports.
    fn remove_where(&mut self, f: impl Fn(&Entry) -> bool) {
        let mut i = 0;
        while i < self.entries.len() {
            if f(&self.entries[i]) {
                self.entries.swap_remove(i);
            } else {
                i += 1;
            }
        }
    }

    fn mutex(&self, p1: u8, p2: u8, path: usize) -> bool {
        if p1 == p2 {
            return false;
        }
        let mask = mask_of(&[p1, p2]) | if p1 == 0 || p2 == 0 { 1 } else { 0 };
        self.mutexes.iter().any(|m| m.path >= path && m.mask & mask == mask)
    }

    fn clear_mutex(&mut self, mask: u64) {
        self.mutexes.retain(|m| m.mask & mask == 0);
    }

    fn clear_branch_link(&mut self, mask: u64) {
        for e in &mut self.entries {
            if e.qp < 64 && mask & (1u64 << e.qp) != 0 {
                e.link_to_qp_branch = false;
            }
        }
    }
}

/// br.wtop and br.wexit: loop branches that gas's tables count among the branch readers of
/// their qualifying predicate (`pr-readers-br`), so an integer compare may set it in the group.
fn wtop_wexit(insn: &DvInsn) -> bool {
    matches!(insn.sem, Some(Op::Branch { kind: BrKind::Wexit | BrKind::Wtop, .. }))
}

// automatic mode (issue 13, i13-auto): what gas's `check_dependencies` does instead of
// warning when no `-x` is given; the caller (`asm/auto.rs`) applies the actions to the packer.

/// What automatic mode inserts before an instruction to resolve a dependency, in order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AutoAction {
    /// A stop after the last queued instruction (gas's `insn_group_break (1, 0, 0)`).
    Stop,
    /// A `srlz.d` (data or "other" serialization), queued like a source instruction.
    SrlzD,
    /// A `srlz.i` (instruction serialization).
    SrlzI,
}

impl DvChecker {
    /// Automatic mode: resolve every conflict of `insn` with the recorded uses the way gas
    /// does (each conflict, in list order, removes itself by a stop, or a stop and a
    /// serialization, and the search starts over), then record `insn` as [`DvChecker::insn`]
    /// does. Returns what must be inserted before `insn`, in order; no warning is made.
    pub fn auto_insn(&mut self, insn: &DvInsn) -> Vec<AutoAction> {
        let mut p = self.prepare(insn);
        dv_sys::add(insn, p.class, self.rot_grs, &mut p.uses);
        let mut actions = Vec::new();
        // Each round removes at least the conflicting entry, so this ends.
        while let Some(i) = self.entries.iter().position(|e| self.conflict(e, insn, &p.uses).is_some()) {
            let e = self.entries[i].clone();
            self.resolve(&e, i, &mut actions);
        }
        self.record(insn, &p);
        actions
    }

    /// `.serialize.data` / `.serialize.instruction` (gas's `dot_serialize`): the DV state as
    /// if a serialization had been done, without a stop or an instruction.
    pub fn serialize(&mut self, instr: bool) {
        self.group_break(None);
        if instr {
            for e in &mut self.entries {
                if e.insn_srlz == Srlz::Stop {
                    e.insn_srlz = Srlz::Done;
                }
            }
        } else {
            self.remove_where(|x| x.data_srlz == Srlz::Stop || x.dep.sem == Sem::Other);
        }
        self.group_break(None);
    }

    /// `.mem.offset off, base`: the next instruction, if a spill or fill, uses the AR[UNAT] bit
    /// of `off` (bits 8:3), not "some bit" (gas compares only that bit, whatever the base).
    pub fn mem_offset(&mut self, offset: u64) {
        self.unat_bit = Some(((offset >> 3) & 0x3F) as u8);
    }

    /// Applies and consumes the `.mem.offset` hint (gas clears it after every instruction).
    fn apply_mem_offset(&mut self, class: Class, uses: &mut Uses) {
        let Some(bit) = self.unat_bit.take() else { return };
        if class != Class::SpillFill {
            return;
        }
        for (d, s) in uses.regs.iter_mut().chain(uses.chks.iter_mut()) {
            if d.name.starts_with("AR[UNAT]") {
                *s = Spec::at(bit);
            }
        }
    }

    /// An `alloc` declared `n` rotating registers (automatic mode's CFM rows count r32 up to
    /// r(30+n) as rotating, as gas does).
    pub fn set_rotating(&mut self, n: u8) {
        self.rot_grs = n;
    }

    /// gas's `remove_marked_resource` for the entry `e` found at index `i`.
    fn resolve(&mut self, e: &Entry, i: usize, actions: &mut Vec<AutoAction>) {
        match e.dep.sem {
            Sem::Instr => {
                if e.insn_srlz == Srlz::None {
                    actions.push(AutoAction::Stop);
                    self.group_break(None);
                }
                if e.insn_srlz != Srlz::Done {
                    actions.push(AutoAction::SrlzI);
                    for x in &mut self.entries {
                        if x.insn_srlz == Srlz::Stop {
                            x.insn_srlz = Srlz::Done;
                        }
                    }
                }
                actions.push(AutoAction::Stop);
                self.group_break(None);
            }
            Sem::Data | Sem::Other => {
                if e.data_srlz == Srlz::None {
                    actions.push(AutoAction::Stop);
                    self.group_break(None);
                }
                actions.push(AutoAction::SrlzD);
                self.remove_where(|x| x.data_srlz == Srlz::Stop || x.dep.sem == Sem::Other);
            }
            Sem::Implied | Sem::ImpliedF => {
                actions.push(AutoAction::Stop);
                self.group_break(None);
            }
            Sem::None => {
                // Never a conflict; drop it so the search cannot stall.
                if i < self.entries.len() {
                    self.entries.swap_remove(i);
                }
            }
        }
    }
}

/// gas's `resources_match` for one entry: `Some(true)` for a specific match, `Some(false)` when
/// one side is not specific, `None` for no conflict.
fn match_specs(e: &Entry, specs: &[Spec]) -> Option<bool> {
    for s in specs.iter().rev() {
        if e.dep.name.starts_with("PR") && s.cmp != Cmp::None && s.cmp == e.spec.cmp {
            continue;
        }
        if !s.specific || !e.spec.specific {
            return Some(false);
        }
        if s.index == e.spec.index {
            return Some(true);
        }
    }
    None
}

fn same_line(a: &SourceLoc, b: &SourceLoc) -> bool {
    a.file == b.file && a.line == b.line
}

fn mask_of(preds: &[u8]) -> u64 {
    preds.iter().filter(|&&p| p != 0 && p < 64).fold(0, |m, &p| m | (1u64 << p))
}

/// The parallel-compare type of a compare-like instruction (the table's canonical names
/// have only `.and`, `.or` and `.or.andcm`; gas's `.andcm`/`.orcm` spellings are aliases).
fn compare_type(insn: &DvInsn) -> CmpType {
    match insn.sem {
        Some(Op::Cmp { ctype, .. } | Op::Tbit { ctype, .. } | Op::Tnat { ctype, .. } | Op::Mm(MmOp::Tf { ctype })) => {
            ctype
        }
        _ => CmpType::Normal,
    }
}

/// The modulo-scheduled loop branches, which the checker treats as ordinary instructions.
fn is_loop_branch(insn: &DvInsn) -> bool {
    matches!(
        insn.sem,
        Some(Op::Branch { kind: BrKind::Cloop | BrKind::Cexit | BrKind::Ctop | BrKind::Wexit | BrKind::Wtop, .. })
    )
}

fn classify(insn: &DvInsn) -> Class {
    match insn.sem {
        Some(Op::Branch { kind: BrKind::Call, .. }) => Class::BrCall,
        Some(Op::Branch { kind: BrKind::Ret, .. }) => Class::BrRet,
        _ if matches!(insn.kind, DvKind::Branch { .. }) && !is_loop_branch(insn) => Class::BrOther,
        Some(Op::Brp) => Class::Brp,
        Some(Op::Rfi) => Class::Rfi,
        _ if insn.kind == DvKind::Rfi => Class::Rfi,
        Some(Op::Cover) => Class::Cover,
        Some(Op::Tlb(TlbOp::Itc { .. } | TlbOp::Itr { .. })) => Class::Itc,
        Some(Op::Load { kind: LoadKind::Fill, .. } | Op::Store { spill: true, .. }) => Class::SpillFill,
        _ => Class::Plain,
    }
}

/// Explicit plus implicit uses, without duplicates, in operand order.
fn collect_uses(insn: &DvInsn, class: Class, branch_like: bool) -> Uses {
    // ar.fpsr's fields are `dv_fp.rs`'s; the row's other implicit registers are gas's.
    let not_fpsr = |r: &&Resource| **r != Resource::Ar(ar::FPSR);
    let imp_r = insn.implicit.reads.iter().filter(not_fpsr).copied();
    let imp_w = insn.implicit.writes.iter().filter(not_fpsr).copied();
    let mut reads: Vec<(Resource, bool)> = Vec::new();
    let mut writes: Vec<(Resource, bool)> = Vec::new();
    let push = |v: &mut Vec<(Resource, bool)>, r: Resource, explicit: bool| {
        if !v.iter().any(|(x, _)| *x == r) {
            v.push((r, explicit));
        }
    };
    let compare = matches!(insn.kind, DvKind::Compare { .. });
    // gas's tables have no FR read or write for fpcmp, fcmp.unord and fcmp.ord, and no GR or
    // FR read for chk.a (issue 13, checked against ia64-linux-gnu-as); their other uses stay.
    let unordered = insn.name.starts_with("fcmp.unord") || insn.name.starts_with("fcmp.ord");
    let no_fr = |r: &Resource| {
        (matches!(r, Resource::Fr(_)) && (insn.name.starts_with("fpcmp") || unordered))
            || (matches!(r, Resource::Gr(_) | Resource::Fr(_)) && matches!(insn.sem, Some(Op::ChkA { .. })))
    };
    for &r in insn.reads.iter().filter(|r| !no_fr(r)) {
        push(&mut reads, r, true);
    }
    for &r in insn.writes.iter().filter(|r| !no_fr(r)) {
        if !(compare && matches!(r, Resource::Pr(_))) {
            push(&mut writes, r, true);
        }
    }
    for r in imp_r {
        push(&mut reads, r, false);
    }
    for r in imp_w {
        push(&mut writes, r, false);
    }
    // Operand-dependent implicit uses of the RSE application registers and of cr.ivr.
    for (r, _) in reads.clone() {
        match r {
            Resource::Ar(ar::BSPSTORE) | Resource::Ar(ar::RNAT) => push(&mut reads, Resource::Ar(ar::RSC), false),
            Resource::Cr(cr::IVR) => push(&mut reads, Resource::Cr(cr::TPR), false),
            _ => {}
        }
    }
    for (r, explicit) in writes.clone() {
        match r {
            Resource::Ar(ar::BSPSTORE) if explicit => {
                push(&mut reads, Resource::Ar(ar::RSC), false);
                push(&mut writes, Resource::Ar(ar::BSP), false);
                push(&mut writes, Resource::Ar(ar::RNAT), false);
            }
            Resource::Ar(ar::RNAT) if explicit => push(&mut reads, Resource::Ar(ar::RSC), false),
            _ => {}
        }
    }

    let mut u = Uses::default();
    if insn.qp != 0 {
        pr_read(&mut u, insn.qp, branch_like);
    }
    for &(r, _) in &reads {
        match r {
            Resource::Gr(n) => u.chk(dep(Mode::Raw, 300, GR, Sem::ImpliedF), Spec::at(n)),
            Resource::Fr(n) => u.chk(dep(Mode::Raw, 290, FR, Sem::ImpliedF), Spec::at(n)),
            Resource::Pr(n) => pr_read(&mut u, n, false),
            Resource::Br(n) => br_read(&mut u, n, class),
            Resource::Ar(n) => ar_use(&mut u, n, false, class),
            Resource::Cr(n) => cr_use(&mut u, n, false, class),
            // No row of this module has a PSR-field reader.
            Resource::Psr(_) => {}
        }
    }
    // Nor a predicate write (no WAW either way).
    if let (DvKind::Compare { p1, p2, .. }, false) = (insn.kind, unordered) {
        let fp = matches!(insn.sem, Some(Op::FpArith { kind: FpArithOp::Fcmp { .. }, .. } | Op::Fclass { .. }));
        let (t1, t2) = match compare_type(insn) {
            CmpType::OrAndcm => (PrWriter::Or, PrWriter::And),
            CmpType::And => (PrWriter::And, PrWriter::And),
            CmpType::Or => (PrWriter::Or, PrWriter::Or),
            _ if fp => (PrWriter::Fp, PrWriter::Fp),
            _ => (PrWriter::Int, PrWriter::Int),
        };
        pr_write(&mut u, p1, t1);
        pr_write(&mut u, p2, t2);
    }
    let fp_writer = matches!(
        insn.sem,
        Some(
            Op::Fclass { .. }
                | Op::FpArith {
                    kind: FpArithOp::Fcmp { .. } | FpArithOp::Frcpa { .. } | FpArithOp::Frsqrta { .. },
                    ..
                }
        )
    );
    // gas's tables leave the integer check loads (ld.c) out of the GR RAW row and the FP ones
    // (ldf.c, ldfp.c) out of the FR RAW row, post-increment included (issue 13, checked
    // against ia64-linux-gnu-as); their WAW rows stay.
    let check_load = insn.name.contains(".c.clr") || insn.name.contains(".c.nc");
    let fp_load = insn.name.starts_with("ldf");
    for &(r, _) in &writes {
        let raw = match r {
            Resource::Gr(_) => !check_load || fp_load,
            Resource::Fr(_) => !(check_load && fp_load),
            _ => true,
        };
        match r {
            Resource::Gr(n) => {
                if raw {
                    u.reg(dep(Mode::Raw, 300, GR, Sem::ImpliedF), Spec::at(n));
                }
                u.reg(dep(Mode::Waw, 300, GR, Sem::ImpliedF), Spec::at(n));
                u.chk(dep(Mode::Waw, 300, GR, Sem::ImpliedF), Spec::at(n));
            }
            Resource::Fr(n) => {
                if raw {
                    u.reg(dep(Mode::Raw, 290, FR, Sem::ImpliedF), Spec::at(n));
                }
                u.reg(dep(Mode::Waw, 290, FR, Sem::ImpliedF), Spec::at(n));
                u.chk(dep(Mode::Waw, 290, FR, Sem::ImpliedF), Spec::at(n));
            }
            Resource::Pr(n) => pr_write(&mut u, n, if fp_writer { PrWriter::Fp } else { PrWriter::Move }),
            Resource::Br(n) => br_write(&mut u, n, class),
            Resource::Ar(n) => ar_use(&mut u, n, true, class),
            Resource::Cr(n) => cr_use(&mut u, n, true, class),
            Resource::Psr(n) => psr_write(&mut u, n),
        }
    }
    let moves_fpsr = writes.iter().any(|(r, explicit)| *explicit && *r == Resource::Ar(ar::FPSR));
    dv_fp::add_uses(&mut u, insn, moves_fpsr);
    u
}

/// The name of the predicate rows covering `n` and their base position, or `None` for p0.
fn pr_group(n: u8) -> Option<(&'static str, u16, Spec)> {
    match n {
        1..=15 => Some(("PR%, % in 1 - 15", 400, Spec::at(n))),
        16..=62 => Some(("PR%, % in 16 - 62", 410, Spec::at(n))),
        63 => Some(("PR63", 420, Spec::whole())),
        _ => None,
    }
}

fn pr_read(u: &mut Uses, n: u8, by_branch: bool) {
    let Some((name, base, spec)) = pr_group(n) else {
        return;
    };
    if by_branch {
        u.chk(dep(Mode::Raw, base + 1, name, Sem::ImpliedF), spec);
        u.chk(dep(Mode::Raw, base + 2, name, Sem::None), spec);
    } else {
        u.chk(dep(Mode::Raw, base, name, Sem::ImpliedF), spec);
    }
}

fn pr_write(u: &mut Uses, n: u8, w: PrWriter) {
    let Some((name, base, spec)) = pr_group(n) else {
        return;
    };
    let all = dep(Mode::Raw, base, name, Sem::ImpliedF);
    let to_br_fp = dep(Mode::Raw, base + 1, name, Sem::ImpliedF);
    let to_br_int = dep(Mode::Raw, base + 2, name, Sem::None);
    u.reg(all, spec);
    if w == PrWriter::Fp {
        u.reg(to_br_fp, spec);
    } else {
        u.reg(to_br_int, spec);
    }
    let and_and = dep(Mode::Waw, base, name, Sem::None);
    let or_or = dep(Mode::Waw, base + 1, name, Sem::None);
    let first = dep(Mode::Waw, base + 2, name, Sem::ImpliedF);
    let second = dep(Mode::Waw, base + 3, name, Sem::ImpliedF);
    match w {
        PrWriter::And => {
            let s = Spec { cmp: Cmp::And, ..spec };
            u.reg(and_and, s);
            u.reg(first, s);
            u.chk(and_and, s);
            u.chk(second, s);
        }
        PrWriter::Or => {
            let s = Spec { cmp: Cmp::Or, ..spec };
            u.reg(or_or, s);
            u.reg(second, s);
            u.chk(or_or, s);
            u.chk(first, s);
        }
        PrWriter::Int | PrWriter::Fp | PrWriter::Move => {
            u.reg(first, spec);
            u.reg(second, spec);
            u.chk(first, spec);
            u.chk(second, spec);
        }
    }
}

fn br_read(u: &mut Uses, n: u8, class: Class) {
    let s = Spec::at(n);
    u.chk(dep(Mode::Raw, 200, BR, Sem::ImpliedF), s);
    if matches!(class, Class::BrCall | Class::BrRet | Class::BrOther) {
        u.chk(dep(Mode::Raw, 201, BR, Sem::None), s);
    } else {
        u.chk(dep(Mode::Raw, 202, BR, Sem::ImpliedF), s);
    }
}

fn br_write(u: &mut Uses, n: u8, class: Class) {
    let s = Spec::at(n);
    let call_then_mov = dep(Mode::Waw, 200, BR, Sem::ImpliedF);
    let mov_then_call = dep(Mode::Waw, 201, BR, Sem::ImpliedF);
    let mov_mov = dep(Mode::Waw, 202, BR, Sem::ImpliedF);
    let call_call = dep(Mode::Waw, 203, BR, Sem::None);
    if class == Class::BrCall {
        u.reg(dep(Mode::Raw, 200, BR, Sem::ImpliedF), s);
        u.reg(call_then_mov, s);
        u.reg(call_call, s);
        u.chk(mov_then_call, s);
        u.chk(call_call, s);
    } else {
        u.reg(dep(Mode::Raw, 201, BR, Sem::None), s);
        u.reg(dep(Mode::Raw, 202, BR, Sem::ImpliedF), s);
        u.reg(mov_then_call, s);
        u.reg(mov_mov, s);
        u.chk(call_then_mov, s);
        u.chk(mov_mov, s);
    }
}

/// The rows of one application register: (RAW name, WAW name, position, spec), or `None` for
/// `AR[PFS]` and `AR[FPSR]`, which have rows of their own.
fn ar_row(n: u8, class: Class) -> Option<(&'static str, &'static str, u16, Sem, Spec)> {
    let named = |name: &'static str, order: u16| Some((name, name, order, Sem::ImpliedF, Spec::whole()));
    match n {
        ar::K0..=ar::K7 => Some(("AR[K%], % in 0 - 7", "AR[K%], % in 0 - 7", 122, Sem::ImpliedF, Spec::at(n))),
        ar::RSC => named("AR[RSC]", 128),
        ar::BSP => named("AR[BSP]", 100),
        ar::BSPSTORE => named("AR[BSPSTORE]", 101),
        ar::RNAT => named("AR[RNAT]", 127),
        ar::FCR => named("AR[FCR]", 107),
        ar::EFLAG => named("AR[EFLAG]", 106),
        ar::CSD => named("AR[CSD]", 104),
        ar::SSD => named("AR[SSD]", 130),
        ar::CFLG => named("AR[CFLG]", 103),
        ar::FSR => named("AR[FSR]", 120),
        ar::FIR => named("AR[FIR]", 109),
        ar::FDR => named("AR[FDR]", 108),
        ar::CCV => named("AR[CCV]", 102),
        ar::UNAT => {
            let spec = if class == Class::SpillFill { Spec::any() } else { Spec::whole() };
            let name = "AR[UNAT]{%}, % in 0 - 63";
            Some((name, name, 131, Sem::ImpliedF, spec))
        }
        ar::ITC => named("AR[ITC]", 121),
        ar::RUC => named("AR[RUC]", 129),
        ar::LC => named("AR[LC]", 123),
        ar::EC => named("AR[EC]", 105),
        ar::FPSR | ar::PFS => None,
        48..=63 | 112..=127 => {
            Some(("AR%, % in 48-63, 112-127", "AR%, % in 48 - 63, 112-127", 133, Sem::ImpliedF, Spec::at(n)))
        }
        _ => {
            let name = "AR%, % in 8-15, 20, 22-23, 31, 33-35, 37-39, 41-43, 46-47, 67-111";
            Some((name, name, 132, Sem::None, Spec::at(n)))
        }
    }
}

const FPSR_RAW: [&str; 10] = [
    "AR[FPSR].sf0.controls",
    "AR[FPSR].sf1.controls",
    "AR[FPSR].sf2.controls",
    "AR[FPSR].sf3.controls",
    "AR[FPSR].sf0.flags",
    "AR[FPSR].sf1.flags",
    "AR[FPSR].sf2.flags",
    "AR[FPSR].sf3.flags",
    "AR[FPSR].traps",
    "AR[FPSR].rv",
];

const FPSR_WAW: [&str; 10] = [
    "AR[FPSR].sf0.controls",
    "AR[FPSR].sf1.controls",
    "AR[FPSR].sf2.controls",
    "AR[FPSR].sf3.controls",
    "AR[FPSR].sf0.flags",
    "AR[FPSR].sf1.flags",
    "AR[FPSR].sf2.flags",
    "AR[FPSR].sf3.flags",
    "AR[FPSR].rv",
    "AR[FPSR].traps",
];

fn ar_use(u: &mut Uses, n: u8, write: bool, class: Class) {
    if n == ar::FPSR {
        for (i, (&r, &w)) in FPSR_RAW.iter().zip(FPSR_WAW.iter()).enumerate() {
            let o = 110 + i as u16;
            let (raw, waw) = (dep(Mode::Raw, o, r, Sem::ImpliedF), dep(Mode::Waw, o, w, Sem::ImpliedF));
            if write {
                u.reg(raw, Spec::whole());
                u.reg(waw, Spec::whole());
                u.chk(waw, Spec::whole());
            } else {
                u.chk(raw, Spec::whole());
            }
        }
        return;
    }
    if n == ar::PFS {
        const PFS: &str = "AR[PFS]";
        let s = Spec::whole();
        let call_raw = dep(Mode::Raw, 124, PFS, Sem::ImpliedF);
        let mov_raw = dep(Mode::Raw, 125, PFS, Sem::ImpliedF);
        let mov_ret = dep(Mode::Raw, 126, PFS, Sem::None);
        let call_call = dep(Mode::Waw, 124, PFS, Sem::None);
        let call_then_mov = dep(Mode::Waw, 125, PFS, Sem::ImpliedF);
        let mov_then_call = dep(Mode::Waw, 126, PFS, Sem::ImpliedF);
        match (write, class == Class::BrCall, class == Class::BrRet) {
            (true, true, _) => {
                u.reg(call_raw, s);
                u.reg(call_call, s);
                u.reg(call_then_mov, s);
                u.chk(call_call, s);
                u.chk(mov_then_call, s);
            }
            (true, false, _) => {
                u.reg(mov_raw, s);
                u.reg(mov_ret, s);
                u.reg(mov_then_call, s);
                u.chk(call_then_mov, s);
            }
            (false, _, true) => {
                u.chk(call_raw, s);
                u.chk(mov_ret, s);
            }
            (false, _, false) => {
                u.chk(call_raw, s);
                u.chk(mov_raw, s);
            }
        }
        return;
    }
    let Some((raw_name, waw_name, order, sem, spec)) = ar_row(n, class) else {
        return;
    };
    let raw = dep(Mode::Raw, order, raw_name, sem);
    let waw = dep(Mode::Waw, order, waw_name, sem);
    if write {
        u.reg(raw, spec);
        u.reg(waw, spec);
        u.chk(waw, spec);
    } else {
        u.chk(raw, spec);
    }
}

/// A PSR field written implicitly (issue 12): gas's `PSR.vm` WAW row between two vmsw. Its
/// RAW rows (vmsw then a memory access, a privileged operation, ...) are out of scope, as
/// every other PSR field is.
fn psr_write(u: &mut Uses, n: u8) {
    if n == crate::regs::PSR_VM {
        let waw = dep(Mode::Waw, 450, "PSR.vm", Sem::ImpliedF);
        u.reg(waw, Spec::whole());
        u.chk(waw, Spec::whole());
    }
}

/// Control registers with one RAW row (mov-to then mov-from) and one WAW row.
fn cr_simple(n: u8) -> Option<(&'static str, u16, Sem, Sem, Spec)> {
    let s = Spec::whole();
    Some(match n {
        cr::DCR => ("CR[DCR]", 501, Sem::Data, Sem::ImpliedF, s),
        cr::ITM => ("CR[ITM]", 520, Sem::Data, Sem::ImpliedF, s),
        cr::IVA => ("CR[IVA]", 522, Sem::Instr, Sem::ImpliedF, s),
        cr::PTA => ("CR[PTA]", 527, Sem::Data, Sem::ImpliedF, s),
        cr::GPTA => ("CR[GPTA]", 503, Sem::Data, Sem::ImpliedF, s),
        cr::ISR => ("CR[ISR]", 517, Sem::Data, Sem::ImpliedF, s),
        cr::IIPA => ("CR[IIPA]", 513, Sem::Data, Sem::ImpliedF, s),
        cr::IIM => ("CR[IIM]", 510, Sem::Data, Sem::ImpliedF, s),
        cr::IHA => ("CR[IHA]", 509, Sem::Data, Sem::ImpliedF, s),
        cr::LID => ("CR[LID]", 524, Sem::Other, Sem::Other, s),
        cr::ITV => ("CR[ITV]", 521, Sem::Data, Sem::ImpliedF, s),
        cr::PMV => ("CR[PMV]", 526, Sem::Data, Sem::ImpliedF, s),
        cr::CMCV => ("CR[CMCV]", 500, Sem::Data, Sem::ImpliedF, s),
        cr::LRR0 | cr::LRR1 => ("CR[LRR%], % in 0 - 1", 525, Sem::Data, Sem::ImpliedF, Spec::at(n)),
        cr::IRR0..=cr::IRR3 => ("CR[IRR%], % in 0 - 3", 516, Sem::Data, Sem::ImpliedF, Spec::at(n)),
        3..=7 | 10..=15 | 18 | 26..=63 | 75..=79 | 82..=127 => {
            ("CR%, % in 3-7, 10-15, 18, 26-63, 75-79, 82-127", 531, Sem::None, Sem::None, Spec::at(n))
        }
        _ => return None,
    })
}

fn cr_use(u: &mut Uses, n: u8, write: bool, class: Class) {
    let s = Spec::whole();
    let r = |o: u16, name: &'static str, sem: Sem| dep(Mode::Raw, o, name, sem);
    // (rows written by mov-to, rows read by the class, WAW row).
    let (wr, rd, waw): (Vec<Dep>, Vec<Dep>, Option<Dep>) = match n {
        cr::IFS => {
            let (a, b, c) =
                (r(506, "CR[IFS]", Sem::Data), r(507, "CR[IFS]", Sem::Implied), r(508, "CR[IFS]", Sem::Implied));
            let wr = if class == Class::Cover { vec![c] } else { vec![a, b] };
            let rd = if class == Class::Rfi { vec![b, c] } else { vec![a, c] };
            (wr, rd, Some(dep(Mode::Waw, 506, "CR[IFS]", Sem::ImpliedF)))
        }
        cr::IIP | cr::IPSR => {
            let (name, o) = if n == cr::IIP { ("CR[IIP]", 511) } else { ("CR[IPSR]", 514) };
            let (a, b) = (r(o, name, Sem::Data), r(o + 1, name, Sem::Implied));
            let rd = if class == Class::Rfi { vec![b] } else { vec![a] };
            (vec![a, b], rd, Some(dep(Mode::Waw, o, name, Sem::ImpliedF)))
        }
        cr::IFA | cr::ITIR => {
            let (name, o, imp_first) = if n == cr::IFA { ("CR[IFA]", 504, true) } else { ("CR[ITIR]", 518, false) };
            let (imp, data) = if imp_first {
                (r(o, name, Sem::Implied), r(o + 1, name, Sem::Data))
            } else {
                (r(o + 1, name, Sem::Implied), r(o, name, Sem::Data))
            };
            let wr = if imp_first { vec![imp, data] } else { vec![data, imp] };
            let rd = if class == Class::Itc { vec![imp] } else { vec![data] };
            (wr, rd, Some(dep(Mode::Waw, o, name, Sem::ImpliedF)))
        }
        cr::TPR => {
            let (a, b, c) =
                (r(528, "CR[TPR]", Sem::Data), r(529, "CR[TPR]", Sem::Other), r(530, "CR[TPR]", Sem::Implied));
            let rd = if class == Class::Rfi { vec![c] } else { vec![a] };
            (vec![a, b, c], rd, Some(dep(Mode::Waw, 528, "CR[TPR]", Sem::ImpliedF)))
        }
        cr::EOI => (vec![r(502, "CR[EOI]", Sem::Other)], Vec::new(), Some(dep(Mode::Waw, 502, "CR[EOI]", Sem::Other))),
        cr::IVR => (Vec::new(), Vec::new(), None),
        _ => {
            let Some((name, o, raw_sem, waw_sem, spec)) = cr_simple(n) else {
                return;
            };
            let raw = r(o, name, raw_sem);
            let waw = dep(Mode::Waw, o, name, waw_sem);
            if write {
                u.reg(raw, spec);
                u.reg(waw, spec);
                u.chk(waw, spec);
            } else {
                u.chk(raw, spec);
            }
            return;
        }
    };
    if write {
        for d in wr {
            u.reg(d, s);
        }
        if let Some(w) = waw {
            u.reg(w, s);
            u.chk(w, s);
        }
    } else {
        for d in rd {
            u.chk(d, s);
        }
    }
}

#[cfg(test)]
mod tests {
    //! Each test replays a small program through the checker and compares with the stderr of
    //! `ia64-linux-gnu-as -x` 2.40 for the same source (file name stripped).
    use super::Resource::{Ar, Br, Cr, Fr, Gr, Pr};
    use super::*;
    use std::sync::Arc;

    struct Run {
        c: DvChecker,
        out: Vec<String>,
        file: Arc<str>,
    }

    fn run() -> Run {
        Run { c: DvChecker::new(), out: Vec::new(), file: Arc::from("t.S") }
    }

    impl Run {
        #[allow(clippy::too_many_arguments)]
        fn k(
            &mut self,
            line: u32,
            name: &str,
            mnemonic: &str,
            qp: u8,
            r: &[Resource],
            w: &[Resource],
            kind: DvKind,
        ) -> &mut Run {
            let (sem, implicit, status_field) = row_facts(mnemonic);
            let insn = DvInsn {
                loc: SourceLoc::new(self.file.clone(), line, 0),
                name,
                sem,
                implicit,
                status_field,
                qp,
                reads: r,
                writes: w,
                kind,
            };
            for d in self.c.insn(&insn) {
                self.out.push(format!("{}: Warning: {}", d.loc.line, d.message));
                for (l, n) in &d.notes {
                    self.out.push(format!("{}: Warning: {}", l.line, n));
                }
            }
            self
        }
        fn i(&mut self, line: u32, name: &str, qp: u8, r: &[Resource], w: &[Resource]) -> &mut Run {
            self.k(line, name, name, qp, r, w, DvKind::Plain)
        }
        fn cmp(&mut self, line: u32, name: &str, qp: u8, p1: u8, p2: u8, unc: bool) -> &mut Run {
            self.k(line, name, name, qp, &[Gr(1), Gr(2)], &[], DvKind::Compare { p1, p2, unc })
        }
        fn br(&mut self, line: u32, name: &str, qp: u8, r: &[Resource], w: &[Resource], call: bool) -> &mut Run {
            self.k(line, name, name, qp, r, w, DvKind::Branch { unconditional: qp == 0, call })
        }
        fn stop(&mut self) -> &mut Run {
            self.c.stop();
            self
        }
        fn label(&mut self, l: &str) -> &mut Run {
            self.c.label(l);
            self
        }
        fn expect(&self, gas: &str) {
            let want: Vec<&str> = gas.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
            assert_eq!(self.out, want);
        }
    }

    /// The semantics id, implicit registers and status-field flag of the first row spelling
    /// `mnemonic` (canonical, as objdump prints it), as `dv_feed.rs` gives them.
    fn row_facts(mnemonic: &str) -> (Option<Op>, Implicit, bool) {
        use crate::table::{field::f, table, Unit};
        for form in &table().forms {
            if let Some(bits) = form.match_mnemonic(mnemonic) {
                let sf = form.unit == Unit::F && form.comps.iter().any(|c| c.field == f::SF);
                return (crate::exec::predecode::op_of(form, form.bits | bits), form.implicit, sf);
            }
        }
        (None, Implicit::default(), false)
    }

    const SEE: &str = "This is the location of the conflicting usage";

    #[test]
    fn gr_raw_waw_and_no_war() {
        // mov r8=1; add r9=r8,r0 ;;   (d1)
        let mut t = run();
        t.i(1, "mov", 0, &[], &[Gr(8)]).i(2, "add", 0, &[Gr(8), Gr(0)], &[Gr(9)]).stop();
        t.expect(&format!(
            "2: Warning: Use of 'add' violates RAW dependency 'GR%, % in 1 - 127' (impliedf), specific resource number is 8\n1: Warning: {SEE}"
        ));
        // add r9=r8,r0; mov r8=1 ;;  — gas reports no WAR for registers.
        let mut t = run();
        t.i(1, "add", 0, &[Gr(8), Gr(0)], &[Gr(9)]).i(2, "mov", 0, &[], &[Gr(8)]).stop();
        t.expect("");
        // (p6) mov r8=1; (p7) mov r8=2 ;;  (d2)
        let mut t = run();
        t.i(1, "mov", 6, &[], &[Gr(8)]).i(2, "mov", 7, &[], &[Gr(8)]).stop();
        t.expect(&format!(
            "2: Warning: Use of 'mov' may violate WAW dependency 'GR%, % in 1 - 127' (impliedf), specific resource number is 8\n1: Warning: {SEE}"
        ));
    }

    #[test]
    fn certainty_depends_on_later_predicate_only() {
        // (p6) mov r8=1; add r9=r8,r0 — violates; mov r8=1; (p6) add — may violate (d6).
        let mut t = run();
        t.i(1, "mov", 6, &[], &[Gr(8)]).i(2, "add", 0, &[Gr(8), Gr(0)], &[Gr(9)]).stop();
        t.i(3, "mov", 0, &[], &[Gr(8)]).i(4, "add", 6, &[Gr(8), Gr(0)], &[Gr(9)]).stop();
        t.expect(&format!(
            "2: Warning: Use of 'add' violates RAW dependency 'GR%, % in 1 - 127' (impliedf), specific resource number is 8\n1: Warning: {SEE}\n\
             4: Warning: Use of 'add' may violate RAW dependency 'GR%, % in 1 - 127' (impliedf), specific resource number is 8\n3: Warning: {SEE}"
        ));
    }

    #[test]
    fn r0_and_f1_writes_are_recorded() {
        // add r0=r8,r0; add r0=r9,r0 ;;  (gas also warns "Invalid use of r0", not ours)
        let mut t = run();
        t.i(1, "add", 0, &[Gr(8), Gr(0)], &[Gr(0)]).i(2, "add", 0, &[Gr(9), Gr(0)], &[Gr(0)]).stop();
        t.expect(&format!(
            "2: Warning: Use of 'add' violates RAW dependency 'GR%, % in 1 - 127' (impliedf), specific resource number is 0\n1: Warning: {SEE}\n\
             2: Warning: Use of 'add' violates WAW dependency 'GR%, % in 1 - 127' (impliedf), specific resource number is 0\n1: Warning: {SEE}"
        ));
        let mut t = run();
        t.i(1, "mov", 0, &[Fr(2)], &[Fr(1)]).i(2, "mov", 0, &[Fr(1)], &[Fr(3)]).stop();
        t.expect(&format!(
            "2: Warning: Use of 'mov' violates RAW dependency 'FR%, % in 2 - 127' (impliedf), specific resource number is 1\n1: Warning: {SEE}"
        ));
    }

    #[test]
    fn order_follows_recording_order() {
        // mov r8=1; mov r9=1; add r8=r9,r8 ;;
        let mut t = run();
        t.i(1, "mov", 0, &[], &[Gr(8)]).i(2, "mov", 0, &[], &[Gr(9)]).i(3, "add", 0, &[Gr(9), Gr(8)], &[Gr(8)]).stop();
        t.expect(&format!(
            "3: Warning: Use of 'add' violates RAW dependency 'GR%, % in 1 - 127' (impliedf), specific resource number is 8\n1: Warning: {SEE}\n\
             3: Warning: Use of 'add' violates WAW dependency 'GR%, % in 1 - 127' (impliedf), specific resource number is 8\n1: Warning: {SEE}\n\
             3: Warning: Use of 'add' violates RAW dependency 'GR%, % in 1 - 127' (impliedf), specific resource number is 9\n2: Warning: {SEE}"
        ));
        // ld8 r8=[r9],8; add r9=r8,r0 ;;  — one row's resources are recorded last operand first.
        let mut t = run();
        t.i(1, "ld8", 0, &[Gr(9)], &[Gr(8), Gr(9)]).i(2, "add", 0, &[Gr(8), Gr(0)], &[Gr(9)]).stop();
        t.expect(&format!(
            "2: Warning: Use of 'add' violates RAW dependency 'GR%, % in 1 - 127' (impliedf), specific resource number is 8\n1: Warning: {SEE}\n\
             2: Warning: Use of 'add' violates WAW dependency 'GR%, % in 1 - 127' (impliedf), specific resource number is 9\n1: Warning: {SEE}"
        ));
        let mut t = run();
        t.i(1, "ld8", 0, &[Gr(9)], &[Gr(8), Gr(9)]).i(2, "add", 0, &[Gr(8), Gr(9)], &[Gr(10)]).stop();
        t.expect(&format!(
            "2: Warning: Use of 'add' violates RAW dependency 'GR%, % in 1 - 127' (impliedf), specific resource number is 9\n1: Warning: {SEE}\n\
             2: Warning: Use of 'add' violates RAW dependency 'GR%, % in 1 - 127' (impliedf), specific resource number is 8\n1: Warning: {SEE}"
        ));
    }

    #[test]
    fn stop_clears_and_every_writer_is_kept() {
        // (p6) mov r8=1; (p7) mov r8=2; add r10=r8,r0 ;; then a new group reads r8.
        let mut t = run();
        t.i(1, "mov", 6, &[], &[Gr(8)]).i(2, "mov", 7, &[], &[Gr(8)]).i(3, "add", 0, &[Gr(8), Gr(0)], &[Gr(10)]).stop();
        t.i(4, "add", 0, &[Gr(8)], &[Gr(11)]).stop();
        t.expect(&format!(
            "2: Warning: Use of 'mov' may violate WAW dependency 'GR%, % in 1 - 127' (impliedf), specific resource number is 8\n1: Warning: {SEE}\n\
             3: Warning: Use of 'add' violates RAW dependency 'GR%, % in 1 - 127' (impliedf), specific resource number is 8\n1: Warning: {SEE}\n\
             3: Warning: Use of 'add' violates RAW dependency 'GR%, % in 1 - 127' (impliedf), specific resource number is 8\n2: Warning: {SEE}"
        ));
    }

    #[test]
    fn fr_and_br() {
        let mut t = run();
        t.i(1, "mov", 0, &[Fr(9)], &[Fr(8)]).i(2, "mov", 0, &[Fr(8)], &[Fr(10)]).stop();
        t.i(3, "mov", 0, &[Gr(8)], &[Br(6)]).i(4, "mov", 0, &[Br(6)], &[Gr(9)]).stop();
        t.i(5, "mov", 0, &[Gr(8)], &[Br(6)]).i(6, "mov", 0, &[Gr(9)], &[Br(6)]).stop();
        t.expect(&format!(
            "2: Warning: Use of 'mov' violates RAW dependency 'FR%, % in 2 - 127' (impliedf), specific resource number is 8\n1: Warning: {SEE}\n\
             4: Warning: Use of 'mov' violates RAW dependency 'BR%, % in 0 - 7' (impliedf), specific resource number is 6\n3: Warning: {SEE}\n\
             6: Warning: Use of 'mov' violates WAW dependency 'BR%, % in 0 - 7' (impliedf), specific resource number is 6\n5: Warning: {SEE}"
        ));
    }

    #[test]
    fn branches_read_brs_and_int_predicates_of_their_group() {
        // mov b6=r8; (p6) br.cond b6;;  mov b0=r8; br.ret b0;;  cmp; (p6) br.cond;;  — all silent.
        let mut t = run();
        t.i(1, "mov", 0, &[Gr(8)], &[Br(6)]).br(2, "br.cond.sptk.many", 6, &[Br(6)], &[], false).stop();
        t.i(3, "mov", 0, &[Gr(8)], &[Br(0)]).br(4, "br.ret.sptk.many", 0, &[Br(0)], &[], false).stop();
        t.cmp(5, "cmp.eq", 0, 6, 7, false).br(6, "br.cond.sptk.many", 6, &[], &[], false).stop();
        t.expect("");
        // fcmp.eq p6,p7=f2,f3; (p6) br.cond  — fp compares are not exempt.
        let mut t = run();
        t.k(1, "fcmp.eq", "fcmp.eq.s0", 0, &[Fr(2), Fr(3)], &[], DvKind::Compare { p1: 6, p2: 7, unc: false });
        t.br(2, "br.cond.sptk.many", 6, &[], &[], false).stop();
        t.expect(&format!(
            "2: Warning: Use of 'br.cond.sptk.many' may violate RAW dependency 'PR%, % in 1 - 15' (impliedf), specific resource number is 6\n1: Warning: {SEE}"
        ));
    }

    #[test]
    fn br_call_writes_checked_but_not_recorded() {
        // mov b0=r8; br.call b0=b6 ;;  then  (p6) br.call b0=b6; mov r8=b0 ;;
        let mut t = run();
        t.i(1, "mov", 0, &[Gr(8)], &[Br(0)]).br(2, "br.call.sptk.many", 0, &[Br(6)], &[Br(0)], true).stop();
        t.br(3, "br.call.sptk.many", 6, &[Br(6)], &[Br(0)], true).i(4, "mov", 0, &[Br(0)], &[Gr(8)]).stop();
        t.expect(&format!(
            "2: Warning: Use of 'br.call.sptk.many' violates WAW dependency 'BR%, % in 0 - 7' (impliedf), specific resource number is 0\n1: Warning: {SEE}"
        ));
    }

    #[test]
    fn predicates() {
        // cmp.eq p6,p7; (p6) mov r8=1 (d5); p16; p63 (no number).
        let mut t = run();
        t.cmp(1, "cmp.eq", 0, 6, 7, false).i(2, "mov", 6, &[], &[Gr(8)]).stop();
        t.cmp(3, "cmp.eq", 0, 16, 17, false).i(4, "mov", 16, &[], &[Gr(8)]).stop();
        t.cmp(5, "cmp.eq", 0, 63, 17, false).i(6, "mov", 63, &[], &[Gr(8)]).stop();
        t.expect(&format!(
            "2: Warning: Use of 'mov' may violate RAW dependency 'PR%, % in 1 - 15' (impliedf), specific resource number is 6\n1: Warning: {SEE}\n\
             4: Warning: Use of 'mov' may violate RAW dependency 'PR%, % in 16 - 62' (impliedf), specific resource number is 16\n3: Warning: {SEE}\n\
             6: Warning: Use of 'mov' may violate RAW dependency 'PR63' (impliedf)\n5: Warning: {SEE}"
        ));
    }

    #[test]
    fn predicate_moves_and_double_waw() {
        // cmp.eq p6,p7; mov r8=pr ;;
        let mut t = run();
        t.cmp(1, "cmp.eq", 0, 6, 7, false).i(2, "mov", 0, &all_predicates(), &[Gr(8)]).stop();
        t.expect(&format!(
            "2: Warning: Use of 'mov' violates RAW dependency 'PR%, % in 1 - 15' (impliedf), specific resource number is 7\n1: Warning: {SEE}\n\
             2: Warning: Use of 'mov' violates RAW dependency 'PR%, % in 1 - 15' (impliedf), specific resource number is 6\n1: Warning: {SEE}"
        ));
        // mov pr=r8,0x42; (p6) add r9; (p7) add r9; (p1) add r10 ;;
        let mut t = run();
        let m = predicates_in_mask(0x42);
        t.i(1, "mov", 0, &[Gr(8)], &m).i(2, "add", 6, &[Gr(1), Gr(2)], &[Gr(9)]);
        t.i(3, "add", 7, &[Gr(1), Gr(2)], &[Gr(9)]).i(4, "add", 1, &[Gr(1), Gr(2)], &[Gr(10)]).stop();
        t.expect(&format!(
            "2: Warning: Use of 'add' may violate RAW dependency 'PR%, % in 1 - 15' (impliedf), specific resource number is 6\n1: Warning: {SEE}\n\
             3: Warning: Use of 'add' may violate WAW dependency 'GR%, % in 1 - 127' (impliedf), specific resource number is 9\n2: Warning: {SEE}\n\
             4: Warning: Use of 'add' may violate RAW dependency 'PR%, % in 1 - 15' (impliedf), specific resource number is 1\n1: Warning: {SEE}"
        ));
        // cmp.eq p6,p7; cmp.eq p6,p8 ;;  — the WAW row acts both ways: reported twice.
        let mut t = run();
        t.cmp(1, "cmp.eq", 0, 6, 7, false).cmp(2, "cmp.eq", 0, 6, 8, false).stop();
        let w = "2: Warning: Use of 'cmp.eq' violates WAW dependency 'PR%, % in 1 - 15' (impliedf), specific resource number is 6";
        t.expect(&format!("{w}\n1: Warning: {SEE}\n{w}\n1: Warning: {SEE}"));
        // mov pr=r8,0x42; mov pr=r9,0x40 ;;
        let mut t = run();
        t.i(1, "mov", 0, &[Gr(8)], &predicates_in_mask(0x42))
            .i(2, "mov", 0, &[Gr(9)], &predicates_in_mask(0x40))
            .stop();
        let w = "2: Warning: Use of 'mov' violates WAW dependency 'PR%, % in 1 - 15' (impliedf), specific resource number is 6";
        t.expect(&format!("{w}\n1: Warning: {SEE}\n{w}\n1: Warning: {SEE}"));
        // mov pr.rot=0x10000; (p16) add; (p6) add ;;
        let mut t = run();
        t.i(1, "mov", 0, &[], &rotating_predicates()).i(2, "add", 16, &[Gr(1), Gr(2)], &[Gr(9)]);
        t.i(3, "add", 6, &[Gr(1), Gr(2)], &[Gr(10)]).stop();
        t.expect(&format!(
            "2: Warning: Use of 'add' may violate RAW dependency 'PR%, % in 16 - 62' (impliedf), specific resource number is 16\n1: Warning: {SEE}"
        ));
    }

    #[test]
    fn application_registers() {
        let mut t = run();
        t.i(1, "mov.i", 0, &[Gr(9)], &[Ar(ar::LC)]).i(2, "mov.i", 0, &[Ar(ar::LC)], &[Gr(10)]).stop();
        t.i(3, "mov.i", 0, &[Gr(9)], &[Ar(ar::LC)]).i(4, "mov.i", 0, &[Gr(10)], &[Ar(ar::LC)]).stop();
        t.i(5, "mov.m", 0, &[Gr(9)], &[Ar(ar::K6)]).i(6, "mov.m", 0, &[Ar(ar::K6)], &[Gr(10)]).stop();
        t.i(7, "mov.m", 0, &[Gr(9)], &[Ar(ar::K6)]).i(8, "mov.m", 0, &[Ar(ar::K5)], &[Gr(10)]).stop();
        t.i(9, "mov", 0, &[Gr(9)], &[Ar(48)]).i(10, "mov", 0, &[Ar(48)], &[Gr(10)]).stop();
        t.i(11, "mov", 0, &[Gr(1)], &[Ar(48)]).i(12, "mov", 0, &[Gr(2)], &[Ar(48)]).stop();
        t.i(13, "mov.m", 0, &[Gr(9)], &[Ar(8)]).i(14, "mov.m", 0, &[Ar(8)], &[Gr(10)]).stop();
        t.expect(&format!(
            "2: Warning: Use of 'mov.i' violates RAW dependency 'AR[LC]' (impliedf)\n1: Warning: {SEE}\n\
             4: Warning: Use of 'mov.i' violates WAW dependency 'AR[LC]' (impliedf)\n3: Warning: {SEE}\n\
             6: Warning: Use of 'mov.m' violates RAW dependency 'AR[K%], % in 0 - 7' (impliedf), specific resource number is 6\n5: Warning: {SEE}\n\
             10: Warning: Use of 'mov' violates RAW dependency 'AR%, % in 48-63, 112-127' (impliedf), specific resource number is 48\n9: Warning: {SEE}\n\
             12: Warning: Use of 'mov' violates WAW dependency 'AR%, % in 48 - 63, 112-127' (impliedf), specific resource number is 48\n11: Warning: {SEE}"
        ));
    }

    #[test]
    fn fpsr_fields() {
        let mut t = run();
        t.i(1, "mov.m", 0, &[Gr(9)], &[Ar(ar::FPSR)]).i(2, "mov.m", 0, &[Ar(ar::FPSR)], &[Gr(10)]).stop();
        let want: String = FPSR_RAW
            .iter()
            .map(|f| {
                format!("2: Warning: Use of 'mov.m' violates RAW dependency '{f}' (impliedf)\n1: Warning: {SEE}\n")
            })
            .collect();
        t.expect(&want);
    }

    #[test]
    fn pfs_rows() {
        // mov ar.pfs twice: no WAW row; then br.call: WAW; then br.ret: the row has no semantics.
        let mut t = run();
        t.i(1, "mov.i", 0, &[Gr(1)], &[Ar(ar::PFS)]).i(2, "mov.i", 0, &[Gr(2)], &[Ar(ar::PFS)]).stop();
        t.i(3, "mov.i", 0, &[Gr(1)], &[Ar(ar::PFS)]).br(4, "br.call.sptk.many", 0, &[], &[Br(0)], true).stop();
        t.label("1");
        t.i(5, "mov.i", 0, &[Gr(1)], &[Ar(ar::PFS)]).br(6, "br.ret.sptk.many", 0, &[Br(0)], &[], false).stop();
        t.expect(&format!(
            "4: Warning: Use of 'br.call.sptk.many' violates WAW dependency 'AR[PFS]' (impliedf)\n3: Warning: {SEE}"
        ));
    }

    #[test]
    fn unat_spill_fill_and_ccv() {
        let mut t = run();
        t.k(1, "st8.spill", "st8.spill", 0, &[Gr(9), Gr(8)], &[Gr(9)], DvKind::Plain);
        t.k(2, "ld8.fill", "ld8.fill", 0, &[Gr(9)], &[Gr(11)], DvKind::Plain).stop();
        t.i(3, "st8.spill", 0, &[Gr(9), Gr(8)], &[]).i(4, "mov.m", 0, &[Ar(ar::UNAT)], &[Gr(11)]).stop();
        t.i(5, "mov.m", 0, &[Gr(1)], &[Ar(ar::UNAT)]).i(6, "st8.spill", 0, &[Gr(9), Gr(8)], &[]).stop();
        t.i(7, "mov.m", 0, &[Gr(9)], &[Ar(ar::UNAT)]).i(8, "mov.m", 0, &[Ar(ar::UNAT)], &[Gr(10)]).stop();
        t.i(9, "mov.m", 0, &[Gr(9)], &[Ar(ar::CCV)])
            .i(10, "cmpxchg8.acq", 0, &[Gr(10), Gr(11), Ar(ar::CCV)], &[Gr(8)])
            .stop();
        let u = "'AR[UNAT]{%}, % in 0 - 63' (impliedf)";
        t.expect(&format!(
            "2: Warning: Use of 'ld8.fill' may violate RAW dependency {u}\n1: Warning: {SEE}\n\
             2: Warning: Use of 'ld8.fill' violates RAW dependency 'GR%, % in 1 - 127' (impliedf), specific resource number is 9\n1: Warning: {SEE}\n\
             4: Warning: Use of 'mov.m' may violate RAW dependency {u}\n3: Warning: {SEE}\n\
             6: Warning: Use of 'st8.spill' may violate WAW dependency {u}\n5: Warning: {SEE}\n\
             8: Warning: Use of 'mov.m' violates RAW dependency {u}\n7: Warning: {SEE}\n\
             10: Warning: Use of 'cmpxchg8.acq' violates RAW dependency 'AR[CCV]' (impliedf)\n9: Warning: {SEE}"
        ));
    }

    #[test]
    fn rse_application_registers() {
        // mov ar.rsc; mov ar.rnat ;;  mov ar.rsc; mov ar.bspstore ;;  loadrs; mov r=ar.bspstore;
        // mov r=ar.rnat; mov r=ar.bsp ;;  mov ar.bspstore; mov r=ar.bsp; mov r=ar.rnat ;;
        // (gas adds RSE reports, out of scope here.)
        let mut t = run();
        t.i(3, "mov.m", 0, &[Gr(1)], &[Ar(ar::RSC)]).i(4, "mov.m", 0, &[Gr(2)], &[Ar(ar::RNAT)]).stop();
        t.i(5, "mov.m", 0, &[Gr(1)], &[Ar(ar::RSC)]).i(6, "mov.m", 0, &[Gr(2)], &[Ar(ar::BSPSTORE)]).stop();
        t.i(7, "loadrs", 0, &[], &[]).i(8, "mov.m", 0, &[Ar(ar::BSPSTORE)], &[Gr(9)]).i(
            9,
            "mov.m",
            0,
            &[Ar(ar::RNAT)],
            &[Gr(10)],
        );
        t.i(10, "mov.m", 0, &[Ar(ar::BSP)], &[Gr(11)]).stop();
        t.i(11, "mov.m", 0, &[Gr(2)], &[Ar(ar::BSPSTORE)])
            .i(12, "mov.m", 0, &[Ar(ar::BSP)], &[Gr(11)])
            .i(13, "mov.m", 0, &[Ar(ar::RNAT)], &[Gr(12)])
            .stop();
        t.expect(&format!(
            "4: Warning: Use of 'mov.m' violates RAW dependency 'AR[RSC]' (impliedf)\n3: Warning: {SEE}\n\
             6: Warning: Use of 'mov.m' violates RAW dependency 'AR[RSC]' (impliedf)\n5: Warning: {SEE}\n\
             8: Warning: Use of 'mov.m' violates RAW dependency 'AR[BSPSTORE]' (impliedf)\n7: Warning: {SEE}\n\
             9: Warning: Use of 'mov.m' violates RAW dependency 'AR[RNAT]' (impliedf)\n7: Warning: {SEE}\n\
             12: Warning: Use of 'mov.m' violates RAW dependency 'AR[BSP]' (impliedf)\n11: Warning: {SEE}\n\
             13: Warning: Use of 'mov.m' violates RAW dependency 'AR[RNAT]' (impliedf)\n11: Warning: {SEE}"
        ));
    }

    #[test]
    fn control_registers_and_serialization() {
        let mut t = run();
        // mov cr.ifs=r9;; mov r10=cr.ifs ;;   (data survives a stop)
        t.i(1, "mov", 0, &[Gr(9)], &[Cr(cr::IFS)]).stop().i(2, "mov", 0, &[Cr(cr::IFS)], &[Gr(10)]).stop();
        // srlz.d in a later group clears it.
        t.k(3, "srlz.d", "srlz.d", 0, &[], &[], DvKind::Srlz { instr: false });
        t.i(4, "mov", 0, &[Cr(cr::IFS)], &[Gr(10)]).stop();
        // mov cr.ifs=r9; srlz.d;; mov r10=cr.ifs — srlz.d in the same group is too early.
        t.i(5, "mov", 0, &[Gr(9)], &[Cr(cr::IFS)])
            .k(6, "srlz.d", "srlz.d", 0, &[], &[], DvKind::Srlz { instr: false })
            .stop();
        t.i(7, "mov", 0, &[Cr(cr::IFS)], &[Gr(10)]).stop();
        // srlz.i needs one more stop.
        t.k(8, "srlz.i", "srlz.i", 0, &[], &[], DvKind::Srlz { instr: true });
        t.i(9, "mov", 0, &[Cr(cr::IFS)], &[Gr(10)]).stop().i(10, "mov", 0, &[Cr(cr::IFS)], &[Gr(11)]).stop();
        t.i(11, "mov", 0, &[Gr(9)], &[Cr(cr::IIP)]).i(12, "mov", 0, &[Gr(10)], &[Cr(cr::IIP)]).stop();
        t.i(13, "mov", 0, &[Gr(9)], &[Cr(cr::IVA)]).stop().i(14, "mov", 0, &[Cr(cr::IVA)], &[Gr(10)]).stop();
        t.k(15, "srlz.d", "srlz.d", 0, &[], &[], DvKind::Srlz { instr: false }).stop();
        t.i(16, "mov", 0, &[Cr(cr::IVA)], &[Gr(10)]).stop();
        t.i(17, "mov", 0, &[Gr(9)], &[Cr(cr::LID)]).i(18, "mov", 0, &[Cr(cr::LID)], &[Gr(10)]).stop();
        t.i(19, "mov", 0, &[Gr(9)], &[Cr(cr::LRR0)]).i(20, "mov", 0, &[Cr(cr::LRR0)], &[Gr(10)]).stop();
        t.i(21, "mov", 0, &[Gr(9)], &[Cr(cr::EOI)]).i(22, "mov", 0, &[Cr(cr::EOI)], &[Gr(10)]).stop();
        t.i(23, "mov", 0, &[Gr(9)], &[Cr(3)]).i(24, "mov", 0, &[Cr(3)], &[Gr(10)]).stop();
        t.expect(&format!(
            "2: Warning: Use of 'mov' violates RAW dependency 'CR[IFS]' (data)\n1: Warning: {SEE}\n\
             7: Warning: Use of 'mov' violates RAW dependency 'CR[IFS]' (data)\n5: Warning: {SEE}\n\
             9: Warning: Use of 'mov' violates RAW dependency 'CR[IFS]' (data)\n5: Warning: {SEE}\n\
             12: Warning: Use of 'mov' violates WAW dependency 'CR[IIP]' (impliedf)\n11: Warning: {SEE}\n\
             14: Warning: Use of 'mov' violates RAW dependency 'CR[IVA]' (instr)\n13: Warning: {SEE}\n\
             18: Warning: Use of 'mov' violates RAW dependency 'CR[LID]' (other)\n17: Warning: {SEE}\n\
             20: Warning: Use of 'mov' violates RAW dependency 'CR[LRR%], % in 0 - 1' (data), specific resource number is 80\n19: Warning: {SEE}"
        ));
    }

    #[test]
    fn cr_data_dep_then_new_writer() {
        // mov cr.iip=r9;; mov cr.iip=r10; mov r11=cr.iip ;;
        let mut t = run();
        t.i(1, "mov", 0, &[Gr(9)], &[Cr(cr::IIP)]).stop();
        t.i(2, "mov", 0, &[Gr(10)], &[Cr(cr::IIP)]).i(3, "mov", 0, &[Cr(cr::IIP)], &[Gr(11)]).stop();
        t.expect(&format!(
            "3: Warning: Use of 'mov' violates RAW dependency 'CR[IIP]' (data)\n1: Warning: {SEE}\n\
             3: Warning: Use of 'mov' violates RAW dependency 'CR[IIP]' (data)\n2: Warning: {SEE}"
        ));
    }

    #[test]
    fn rfi_reads_interruption_crs() {
        // mov cr.ifs=r9; rfi — the implied row (same group only).
        let mut t = run();
        t.i(1, "mov", 0, &[Gr(9)], &[Cr(cr::IFS)]).k(2, "rfi", "rfi", 0, &[], &[], DvKind::Rfi).stop();
        t.expect(&format!("2: Warning: Use of 'rfi' violates RAW dependency 'CR[IFS]' (implied)\n1: Warning: {SEE}"));
    }

    #[test]
    fn entry_paths() {
        // L1: mov r8=1; L2: add r9=r8,r0 ;;  (d8)
        let mut t = run();
        t.label("L1").i(1, "mov", 0, &[], &[Gr(8)]).label("L2").i(2, "add", 0, &[Gr(8), Gr(0)], &[Gr(9)]).stop();
        t.expect(&format!(
            "2: Warning: Use of 'add' violates RAW dependency 'GR%, % in 1 - 127' (impliedf), specific resource number is 8\n\
             2: Warning: Only the first path encountering the conflict is reported\n1: Warning: {SEE}"
        ));
        // .pred.rel.mutex p6,p7; add;; L1: (p6) mov r8=1; (p7) mov r8=2 ;;  (d17)
        let mut t = run();
        t.c.pred_rel_mutex(&[6, 7]);
        t.i(2, "add", 0, &[Gr(2), Gr(3)], &[Gr(1)]).stop().label("L1");
        t.i(3, "mov", 6, &[], &[Gr(8)]).i(4, "mov", 7, &[], &[Gr(8)]).stop();
        t.expect(&format!(
            "4: Warning: Use of 'mov' may violate WAW dependency 'GR%, % in 1 - 127' (impliedf) when entry is at label 'L1', specific resource number is 8\n3: Warning: {SEE}"
        ));
        // The same with a second label before the second write: both texts.
        let mut t = run();
        t.c.pred_rel_mutex(&[6, 7]);
        t.i(2, "add", 0, &[Gr(2), Gr(3)], &[Gr(1)]).stop().label("L1");
        t.i(3, "mov", 6, &[], &[Gr(8)]).label("L2").i(4, "mov", 7, &[], &[Gr(8)]).stop();
        t.expect(&format!(
            "4: Warning: Use of 'mov' may violate WAW dependency 'GR%, % in 1 - 127' (impliedf) when entry is at label 'L1', specific resource number is 8\n\
             4: Warning: Only the first path encountering the conflict is reported\n3: Warning: {SEE}"
        ));
        // A stop keeps the paths; a taken branch ends them.
        let mut t = run();
        t.label("L1").i(1, "add", 0, &[Gr(2), Gr(3)], &[Gr(1)]).stop();
        t.br(2, "br.sptk.many", 0, &[], &[], false).stop();
        t.i(3, "mov", 0, &[], &[Gr(8)]).i(4, "add", 0, &[Gr(8), Gr(0)], &[Gr(9)]).stop();
        t.expect(&format!(
            "4: Warning: Use of 'add' violates RAW dependency 'GR%, % in 1 - 127' (impliedf), specific resource number is 8\n3: Warning: {SEE}"
        ));
    }

    #[test]
    fn branches_clear() {
        let add = |t: &mut Run, l| {
            t.i(l, "add", 0, &[Gr(8), Gr(0)], &[Gr(9)]).stop();
        };
        // Unconditional br.call / br.ret / rfi / any br.ia clear everything.
        let mut t = run();
        t.i(1, "mov", 0, &[], &[Gr(8)]).br(2, "br.call.sptk.many", 0, &[], &[Br(0)], true);
        add(&mut t, 3);
        t.i(4, "mov", 0, &[], &[Gr(8)]).br(5, "br.ret.sptk.many", 0, &[Br(0)], &[], false);
        add(&mut t, 6);
        t.i(7, "mov", 0, &[], &[Gr(8)]).k(8, "rfi", "rfi", 0, &[], &[], DvKind::Rfi);
        add(&mut t, 9);
        t.i(10, "mov", 0, &[], &[Gr(8)]).br(11, "br.ia.sptk.many", 6, &[Br(0)], &[], false);
        add(&mut t, 12);
        t.expect("");
        // (p6) br.ret, br.cloop, epc, break.b do not.
        let mut t = run();
        t.i(1, "mov", 0, &[], &[Gr(8)]).br(2, "br.ret.sptk.many", 6, &[Br(0)], &[], false);
        add(&mut t, 3);
        t.i(4, "mov", 0, &[], &[Gr(8)]).k(
            5,
            "br.cloop.sptk.many",
            "br.cloop.sptk.many",
            0,
            &[],
            &[],
            DvKind::Branch { unconditional: true, call: false },
        );
        add(&mut t, 6);
        t.i(7, "mov", 0, &[], &[Gr(8)]).i(8, "epc", 0, &[], &[]);
        add(&mut t, 9);
        let raw = |l: u32, e: u32| {
            format!("{l}: Warning: Use of 'add' violates RAW dependency 'GR%, % in 1 - 127' (impliedf), specific resource number is 8\n{e}: Warning: {SEE}\n")
        };
        t.expect(&format!("{}{}{}", raw(3, 1), raw(6, 4), raw(9, 7)));
    }

    #[test]
    fn predicated_branch_clears_its_predicate() {
        let mut t = run();
        // (p6) mov r8=1; (p6) br.cond; add r9=r8 — cleared.  (p7) br.cond — not.
        t.i(1, "mov", 6, &[], &[Gr(8)]).br(2, "br.cond.sptk.many", 6, &[], &[], false);
        t.i(3, "add", 0, &[Gr(8), Gr(0)], &[Gr(9)]).stop();
        t.i(4, "mov", 6, &[], &[Gr(8)]).br(5, "br.cond.sptk.many", 7, &[], &[], false);
        t.i(6, "add", 0, &[Gr(8), Gr(0)], &[Gr(9)]).stop();
        // (p6) mov r8=1; (p6) br.call; add — cleared too.
        t.i(7, "mov", 6, &[], &[Gr(8)]).br(8, "br.call.sptk.many", 6, &[], &[Br(0)], true);
        t.i(9, "add", 0, &[Gr(8), Gr(0)], &[Gr(9)]).stop();
        // (p6) mov r8=1; cmp.eq p6,p7 (rewrites p6); (p6) br.cond; add — kept.
        t.i(10, "mov", 6, &[], &[Gr(8)]).cmp(11, "cmp.eq", 0, 6, 7, false).br(
            12,
            "br.cond.sptk.many",
            6,
            &[],
            &[],
            false,
        );
        t.i(13, "add", 0, &[Gr(8), Gr(0)], &[Gr(9)]).stop();
        // (p6) mov cr.ifs=r8;; (p6) br.cond; mov r9=cr.ifs — the data entry is cleared as well.
        t.i(14, "mov", 6, &[Gr(8)], &[Cr(cr::IFS)]).stop().br(15, "br.cond.sptk.many", 6, &[], &[], false);
        t.i(16, "mov", 0, &[Cr(cr::IFS)], &[Gr(9)]).stop();
        let raw = |l: u32, e: u32| {
            format!("{l}: Warning: Use of 'add' violates RAW dependency 'GR%, % in 1 - 127' (impliedf), specific resource number is 8\n{e}: Warning: {SEE}\n")
        };
        t.expect(&format!("{}{}", raw(6, 4), raw(13, 10)));
    }

    fn two_writes(t: &mut Run, first: u32) {
        t.i(first, "mov", 6, &[], &[Gr(8)]).i(first + 1, "mov", 7, &[], &[Gr(8)]).stop();
    }

    fn waw8(l: u32) -> String {
        format!("{l}: Warning: Use of 'mov' may violate WAW dependency 'GR%, % in 1 - 127' (impliedf), specific resource number is 8\n{}: Warning: {SEE}\n", l - 1)
    }

    #[test]
    fn mutex_relations() {
        // d3: declared mutex suppresses; d19: RAW too.
        let mut t = run();
        t.c.pred_rel_mutex(&[6, 7, 8]);
        two_writes(&mut t, 1);
        t.i(3, "mov", 6, &[], &[Gr(8)]).i(4, "add", 7, &[Gr(8), Gr(0)], &[Gr(9)]).stop();
        t.expect("");
        // d4: unpredicated compare; d15: predicated .unc compare; d16: predicated plain compare.
        let mut t = run();
        t.cmp(1, "cmp.eq", 0, 6, 7, false).stop();
        two_writes(&mut t, 2);
        t.cmp(4, "cmp.eq.unc", 5, 6, 7, true).stop();
        two_writes(&mut t, 5);
        t.cmp(7, "cmp.eq", 5, 6, 7, false).stop();
        two_writes(&mut t, 8);
        t.expect(&waw8(9));
        // d7: a compare rewriting p6 drops {p6,p7} but makes {p6,p8}.
        let mut t = run();
        t.c.pred_rel_mutex(&[6, 7]);
        t.cmp(1, "cmp.eq", 0, 6, 8, false).stop();
        two_writes(&mut t, 2);
        t.i(4, "mov", 6, &[], &[Gr(8)]).i(5, "mov", 8, &[], &[Gr(8)]).stop();
        t.expect(&waw8(3));
        // .and keeps the relation, .or drops it.
        let mut t = run();
        t.c.pred_rel_mutex(&[6, 7]);
        t.cmp(1, "cmp.eq.and", 0, 6, 8, false).stop();
        two_writes(&mut t, 2);
        t.cmp(4, "cmp.eq.or", 0, 6, 8, false).stop();
        two_writes(&mut t, 5);
        t.expect(&waw8(6));
        // mov pr= and .pred.rel.clear drop it; a later check is made before the instruction's
        // own predicate update.
        let mut t = run();
        t.c.pred_rel_mutex(&[6, 7]);
        t.i(1, "mov", 6, &[], &[Gr(8)]).cmp(2, "cmp.eq.or", 7, 6, 8, false).stop();
        t.i(3, "mov", 0, &[Gr(1)], &predicates_in_mask(0x40)).stop();
        two_writes(&mut t, 4);
        t.c.pred_rel_mutex(&[6, 7, 8]);
        t.c.pred_rel_clear(&[8]);
        two_writes(&mut t, 6);
        t.expect(&format!("{}{}", waw8(5), waw8(7)));
    }

    #[test]
    fn calls_and_safe_predicates() {
        let mut t = run();
        t.c.pred_rel_mutex(&[6, 7]);
        t.br(1, "br.call.sptk.many", 5, &[], &[Br(0)], true).stop();
        two_writes(&mut t, 2);
        t.c.pred_safe_across_calls(&[6, 7]);
        t.c.pred_rel_mutex(&[6, 7]);
        t.br(4, "br.call.sptk.many", 5, &[], &[Br(0)], true).stop();
        two_writes(&mut t, 5);
        t.expect(&waw8(3));
    }

    #[test]
    fn unc_compares_ignore_mutex_for_predicate_waw() {
        // .pred.rel.mutex p1,p2; (p1) cmp.eq.unc p6,p7; (p2) cmp.eq.unc p6,p7 ;; then plain.
        let mut t = run();
        t.c.pred_rel_mutex(&[1, 2]);
        t.cmp(2, "cmp.eq.unc", 1, 6, 7, true).cmp(3, "cmp.eq.unc", 2, 6, 7, true).stop();
        t.cmp(4, "cmp.eq", 1, 6, 7, false).cmp(5, "cmp.eq", 2, 6, 7, false).stop();
        let w = |n| {
            format!("3: Warning: Use of 'cmp.eq.unc' may violate WAW dependency 'PR%, % in 1 - 15' (impliedf), specific resource number is {n}\n2: Warning: {SEE}\n")
        };
        t.expect(&format!("{}{}{}{}", w(7), w(6), w(7), w(6)));
    }

    #[test]
    fn parallel_compares_of_one_type_do_not_conflict() {
        let mut t = run();
        t.cmp(1, "cmp.eq.and", 0, 6, 7, false).cmp(2, "cmp.ne.and", 0, 6, 7, false).stop();
        t.cmp(3, "cmp.eq.or", 0, 6, 7, false).cmp(4, "cmp.ne.or", 0, 6, 7, false).stop();
        t.expect("");
    }

    #[test]
    fn and_then_or_conflicts_cover_and_br_ia() {
        let mut t = run();
        t.cmp(5, "cmp.eq.and", 0, 6, 7, false).cmp(6, "cmp.ne.or", 0, 6, 7, false).stop();
        // mov cr.ifs=r1; cover;; mov r8=cr.ifs
        t.i(7, "mov", 0, &[Gr(1)], &[Cr(cr::IFS)]).i(8, "cover", 0, &[], &[]).stop();
        t.i(9, "mov", 0, &[Cr(cr::IFS)], &[Gr(8)]).stop();
        // mov ar.pfs=r1; mov ar.lc=r2; br.ia b6 ;;
        t.i(10, "mov.i", 0, &[Gr(1)], &[Ar(ar::PFS)]).i(11, "mov.i", 0, &[Gr(2)], &[Ar(ar::LC)]);
        t.br(12, "br.ia.sptk.many", 0, &[Br(6)], &[], false).stop();
        let w = |n| {
            format!("6: Warning: Use of 'cmp.ne.or' violates WAW dependency 'PR%, % in 1 - 15' (impliedf), specific resource number is {n}\n5: Warning: {SEE}\n")
        };
        t.expect(&format!(
            "{}{}8: Warning: Use of 'cover' violates WAW dependency 'CR[IFS]' (impliedf)\n7: Warning: {SEE}\n\
             9: Warning: Use of 'mov' violates RAW dependency 'CR[IFS]' (data)\n7: Warning: {SEE}\n\
             12: Warning: Use of 'br.ia.sptk.many' violates RAW dependency 'AR[PFS]' (impliedf)\n10: Warning: {SEE}\n\
             12: Warning: Use of 'br.ia.sptk.many' violates RAW dependency 'AR[LC]' (impliedf)\n11: Warning: {SEE}",
            w(7),
            w(6)
        ));
    }

    #[test]
    fn implicit_resource_lists() {
        let imp = |m: &str| row_facts(m).1;
        assert_eq!(imp("br.call.sptk.many").reads, [Ar(ar::BSP), Ar(ar::EC)]);
        assert_eq!(imp("br.call.sptk.many").writes, [Ar(ar::BSP), Ar(ar::PFS)]);
        assert_eq!(imp("cover").writes, [Ar(ar::BSP), Cr(cr::IFS)]);
        assert_eq!(imp("add"), Implicit::default());
        assert_eq!(predicates_in_mask(0x10042).len(), 2 + 48);
        assert!(!all_predicates().contains(&Pr(0)));
    }
}
