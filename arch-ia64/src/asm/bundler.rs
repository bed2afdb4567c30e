//! The bundle packer: turns the stream of parsed instructions into bundles exactly the way
//! `ia64-linux-gnu-as -x` (GNU as 2.40, default itanium2 tuning) does it.
//! Rules R1–R12 of `reference/gas-ia64-bundling.md`; everything below was checked against the
//! real assembler with hand-written cases and random programs.
//!
//! Facts found by the differential check that the reference does not spell out:
//! - **Dynamic instructions are resolved for good when tried.** When an unsuffixed `chk.s`, `mov
//!   ar48`, `hint` (or `nop`) is tried in a slot, gas turns it into the suffixed form for that slot
//!   *before* it knows whether it fits, and keeps that form if it does not. A `chk.s` skipped over
//!   a B slot is a `chk.s.m` from then on (and an M-type instruction for the next bundle's
//!   template choice); one skipped over the F slot of MFI becomes `chk.s.i`.
//! - **`hint` never goes to a B slot** (gas defaults to `-mhint.b=error`): in a B slot it becomes
//!   `hint.i` (for good, as above), so it waits for the next bundle. With a template directive
//!   in force gas reports "hint in B unit can't be used" instead.
//! - **SLOT2 and LAST jump before the stop checks.** The jump to slot 2 (R7 B-type, R9) happens
//!   before the mid-bundle stop test of R6, so `add ;; br.cloop` tests the stop "after slot 1"
//!   and switches MIB to MI;;I, pushing the branch to the next bundle.
//! - **A template directive starts a bundle** for the instruction after it, like a label (and
//!   before the R6 stop test, so `ld8 ;; .mmi add` gives MII `ld8 · nop.i · nop.i ;;`), but the
//!   R3 look-ahead still sees that instruction: `ld8 .mfi ld8` gives MMI `ld8 · nop.m · nop.i`.
//! - **A `.align` that needs no padding still obeys R12:** if the next instruction is
//!   must-be-first, gas sets the end stop of the bundle right before the `.align` (unless
//!   nothing was emitted since the previous `.align`): `itc.d .align 16 alloc` gives 0x0b.
//! - **`.align` padding only waits for the very next instruction:** a data directive or `.proc`
//!   (which aligns) in between settles it without a stop, but a plain section switch does not
//!   ([`Bundler::switch_section`]). Of several `.align`s in a row only the last can get the stop.

use std::collections::VecDeque;

use crate::bundle::{SlotUnit, Template};

/// How an instruction may be placed (from the instruction table / parser).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum InsnClass {
    /// Integer ALU: an M or an I slot.
    A,
    /// M slot only.
    M,
    /// I slot only.
    I,
    /// F slot only.
    F,
    /// B slot only.
    B,
    /// The L+X pair of MLX (movl, brl, nop.x, ...).
    X,
    /// `nop`/`break` without unit suffix: any slot, takes its form (`.x` in the L slot of MLX).
    Dyn,
    /// `chk.s` without suffix, `mov` to/from ar48-63/ar112-127: M or I slot only.
    DynMI,
    /// `hint` without suffix: like [`InsnClass::Dyn`] but never a B slot (gas `-mhint.b=error`).
    Hint,
}

/// Placement constraints (gas FIRST/LAST/SLOT2 flags).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Placement {
    /// No constraint.
    Any,
    /// Must start an instruction group (alloc, flushrs, loadrs): a stop is added before it.
    First,
    /// Must end an instruction group (cover, rfi, itc.d, ...): a stop is added after it.
    Last,
    /// Only valid in slot 2 (br.cloop, br.ctop, br.cexit, br.wtop, br.wexit).
    Slot2,
}

/// One instruction as the packer sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct PendingInsn {
    /// Which slots it fits.
    pub class: InsnClass,
    /// FIRST/LAST/SLOT2 constraint.
    pub placement: Placement,
}

/// What one slot of an emitted bundle holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SlotFill {
    /// The instruction with this sequence index (0-based count of all `push` calls ever), placed
    /// as `unit`. An X instruction fills slot 1 as `L` and slot 2 as `X`, with the same index.
    /// A dynamic instruction takes the form of `unit` (`nop.x` for `L`).
    Insn {
        /// Sequence number returned by [`Bundler::push`].
        index: usize,
        /// The unit of the slot, i.e. the form the instruction is encoded in.
        unit: SlotUnit,
    },
    /// A filler nop of the slot's unit (an unused L+X pair: both `Nop`, encoded as one nop.x).
    Nop,
}

/// One finished bundle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct PlacedBundle {
    /// The template, including its stop bits.
    pub template: Template,
    /// Slot 0, 1 and 2.
    pub slots: [SlotFill; 3],
}

impl PlacedBundle {
    /// An `.align` filler bundle: MMI with three nops, stop after slot 2 if `stop`.
    pub fn padding(stop: bool) -> PlacedBundle {
        PlacedBundle { template: Template::MMI.with_end_stop(stop), slots: [SlotFill::Nop; 3] }
    }
}

/// Where an instruction landed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SlotLocation {
    /// Bundle number counted from the first bundle this packer ever emitted (padding included),
    /// the same numbering as [`Bundler::emitted`].
    pub bundle: usize,
    /// Slot 0, 1 or 2 (1 for an X instruction, which also fills slot 2).
    pub slot: usize,
}

/// What went wrong with one instruction (gas reports these with `as_bad`, so assembly fails).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DiagnosticKind {
    /// "`insn' does not fit into TEMPLATE template": no slot of the user template took the
    /// instruction after the directive, so gas dropped it (its location stays `None`).
    DoesNotFitTemplate {
        /// The template from the directive.
        template: Template,
    },
    /// "hint in B unit can't be used": an unsuffixed `hint` in a B slot of a user template.
    HintInBUnit,
    /// "`insn' does not fit into bundle": a manual bundle `{ ... }` holds more than its
    /// template's slots take; this is the first instruction left over.
    DoesNotFitBundle,
}

/// A problem found while packing, tied to the instruction's sequence index.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Diagnostic {
    /// Sequence index of the offending instruction.
    pub index: usize,
    /// What is wrong.
    pub kind: DiagnosticKind,
}

/// Why an `.align` request was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AlignError {
    /// gas: "alignment not a power of 2".
    NotPowerOfTwo(u64),
    /// More than [`MAX_PADDING_BUNDLES`] filler bundles would be needed. gas would write them
    /// (gigabytes for `.align 1<<32`); we refuse instead of exhausting memory.
    TooLarge(u64),
}

/// Upper bound on the filler bundles one `.align` may produce (16 MiB of padding).
pub const MAX_PADDING_BUNDLES: u64 = 1 << 20;

/// The instruction type used for the template choice (R3); `Dyn` stands for every dynamic class.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Ty {
    Nil,
    A,
    I,
    M,
    F,
    B,
    X,
    Dyn,
}

const TYS: [Ty; 8] = [Ty::Nil, Ty::A, Ty::I, Ty::M, Ty::F, Ty::B, Ty::X, Ty::Dyn];

/// Best template for every triple of types, indexed by `Ty as usize`.
type TemplateTable = [[[Template; 8]; 8]; 8];

/// Whether an instruction of type `ty` counts as fitting `unit` when choosing a template.
fn ty_fits(ty: Ty, unit: SlotUnit) -> bool {
    match ty {
        Ty::Nil => false,
        Ty::A => matches!(unit, SlotUnit::M | SlotUnit::I),
        Ty::I => unit == SlotUnit::I,
        Ty::M => unit == SlotUnit::M,
        Ty::F => unit == SlotUnit::F,
        Ty::B => unit == SlotUnit::B,
        Ty::X => unit == SlotUnit::L,
        Ty::Dyn => true,
    }
}

/// Bonus for a slot left empty: itanium2 prefers M and I nops over F and B ones.
fn empty_bonus(unit: SlotUnit) -> u32 {
    if matches!(unit, SlotUnit::M | SlotUnit::I) {
        2
    } else {
        0
    }
}

/// The R3 score of template units `u` for the types `t`: 3 per instruction that fits in order
/// (earliest slot first), plus the empty-slot bonus for slots nothing was placed in.
fn goodness(u: [SlotUnit; 3], t: [Ty; 3]) -> u32 {
    let [u0, u1, u2] = u;
    let [t0, t1, t2] = t;
    // An X instruction in slot 1 (only MLX has an L there) also uses slot 2.
    let x_in_1 = |ty: Ty| ty == Ty::X && u1 == SlotUnit::L;
    if ty_fits(t0, u0) {
        if ty_fits(t1, u1) {
            if x_in_1(t1) || ty_fits(t2, u2) {
                9
            } else {
                6 + empty_bonus(u2)
            }
        } else if ty_fits(t1, u2) {
            6 + empty_bonus(u1)
        } else {
            3 + empty_bonus(u1) + empty_bonus(u2)
        }
    } else if ty_fits(t0, u1) {
        if x_in_1(t0) || ty_fits(t1, u2) {
            6
        } else {
            3 + empty_bonus(u2)
        }
    } else if ty_fits(t0, u2) {
        3 + empty_bonus(u1)
    } else {
        0
    }
}

/// Builds the R3 lookup table: highest score wins, ties go to the lower template code, and a
/// triple nothing fits (only all-`Nil`) gets MII.
fn build_table() -> TemplateTable {
    let mut table = [[[Template::MII; 8]; 8]; 8];
    for (i, &t0) in TYS.iter().enumerate() {
        for (j, &t1) in TYS.iter().enumerate() {
            for (k, &t2) in TYS.iter().enumerate() {
                let mut best = 0;
                let mut choice = Template::MII;
                // Only stop-free codes: stops never influence the choice.
                for tmpl in Template::all().filter(|t| t.code() & 1 == 0) {
                    let score = goodness(tmpl.units(), [t0, t1, t2]);
                    if score > best {
                        best = score;
                        choice = tmpl;
                    }
                }
                table[i][j][k] = choice;
            }
        }
    }
    table
}

/// The template-choice type of a (possibly already resolved) class.
fn ty_of(class: InsnClass) -> Ty {
    match class {
        InsnClass::A => Ty::A,
        InsnClass::M => Ty::M,
        InsnClass::I => Ty::I,
        InsnClass::F => Ty::F,
        InsnClass::B => Ty::B,
        InsnClass::X => Ty::X,
        InsnClass::Dyn | InsnClass::DynMI | InsnClass::Hint => Ty::Dyn,
    }
}

/// The fixed class an instruction becomes when encoded for `unit`.
fn class_for_unit(unit: SlotUnit) -> InsnClass {
    match unit {
        SlotUnit::M => InsnClass::M,
        SlotUnit::I => InsnClass::I,
        SlotUnit::F => InsnClass::F,
        SlotUnit::B => InsnClass::B,
        SlotUnit::L | SlotUnit::X => InsnClass::X,
    }
}

/// Whether a resolved class can occupy a slot of `unit`.
fn class_fits(class: InsnClass, unit: SlotUnit) -> bool {
    match class {
        InsnClass::A => matches!(unit, SlotUnit::M | SlotUnit::I),
        InsnClass::M => unit == SlotUnit::M,
        InsnClass::I => unit == SlotUnit::I,
        InsnClass::F => unit == SlotUnit::F,
        InsnClass::B => unit == SlotUnit::B,
        InsnClass::X => unit == SlotUnit::L,
        // Dynamic classes are resolved before this test; kept total for safety.
        InsnClass::Dyn => true,
        InsnClass::DynMI => matches!(unit, SlotUnit::M | SlotUnit::I),
        InsnClass::Hint => unit != SlotUnit::B,
    }
}

/// What an `.align` leaves for the next instruction to decide (R12).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Undecided {
    /// Nothing.
    Nothing,
    /// This many filler bundles, all with or all without the end stop; they follow `ready`.
    Padding(usize),
    /// No filler was needed: if the next instruction is must-be-first, gas sets the end stop
    /// of the bundle with this number, the one just before the `.align`.
    PreviousStop(usize),
}

/// One queued instruction.
#[derive(Debug, Clone, Copy)]
struct Queued {
    index: usize,
    class: InsnClass,
    placement: Placement,
    labelled: bool,
    user_template: Option<Template>,
    /// The instruction group ends after it.
    stop: bool,
    /// It follows a `{`: it starts a manual bundle.
    manual_on: bool,
    /// A `}` follows it: it ends its manual bundle.
    manual_off: bool,
}

/// The packer. Feed it instructions, stops and flush points in source order; it emits bundles
/// the way gas does, up to three instructions behind the source (R1).
///
/// Results: [`Bundler::take`] drains the finished bundles (in order; bundle numbers keep
/// counting across calls), and [`Bundler::location`] tells for every pushed instruction its
/// bundle number and slot once it has been emitted.
///
/// Use one packer per code section: bundle numbers, `emitted` and the `.align` state are
/// per section, as gas keeps them per frag chain.
#[derive(Debug, Clone)]
pub struct Bundler {
    table: TemplateTable,
    pending: VecDeque<Queued>,
    /// Finished bundles not yet taken.
    ready: Vec<PlacedBundle>,
    /// What the last `.align` left for the next instruction to decide.
    undecided: Undecided,
    /// Bundles emitted so far, held padding included.
    emitted: usize,
    /// Bundles already handed out by `take` (the first bundle number in `ready`).
    released: usize,
    /// Bundles emitted since the last `.align` (gas: the fixed part of the current frag).
    since_align: usize,
    /// Already-taken bundles that later got their end stop set (see `take_late_stops`).
    late_stops: Vec<usize>,
    /// Location of every pushed instruction, by sequence index.
    locations: Vec<Option<SlotLocation>>,
    diagnostics: Vec<Diagnostic>,
    /// A `{` was seen and the next pushed instruction starts a manual bundle.
    next_manual_on: bool,
}

impl Default for Bundler {
    fn default() -> Self {
        Bundler::new()
    }
}

impl Bundler {
    /// An empty packer.
    pub fn new() -> Bundler {
        Bundler {
            table: build_table(),
            pending: VecDeque::new(),
            ready: Vec::new(),
            undecided: Undecided::Nothing,
            emitted: 0,
            released: 0,
            since_align: 0,
            late_stops: Vec::new(),
            locations: Vec::new(),
            diagnostics: Vec::new(),
            next_manual_on: false,
        }
    }

    /// Queue one instruction and return its sequence index. `labelled`: a code label was defined
    /// right before it (R5; any number of labels count the same). `user_template`: a template
    /// directive (.mii etc.) preceded it (R3; stop bits in it are ignored).
    pub fn push(&mut self, insn: PendingInsn, labelled: bool, user_template: Option<Template>) -> usize {
        self.push_inner(insn, labelled, user_template, true)
    }

    /// [`Bundler::push`] for automatic mode (issue 13), where gas adds a must-be-first
    /// instruction's stop before the serializations it inserts for it: the stop was already
    /// placed (`first_stop` false), so the instruction does not add one on the last queued.
    pub fn push_inner(
        &mut self,
        insn: PendingInsn,
        labelled: bool,
        user_template: Option<Template>,
        first_stop: bool,
    ) -> usize {
        let first = insn.placement == Placement::First;
        self.settle_padding(first);
        if first && first_stop {
            // R8: the stop goes on the previous instruction only while it is still queued.
            if let Some(prev) = self.pending.back_mut() {
                prev.stop = true;
            }
        }
        let index = self.locations.len();
        self.locations.push(None);
        self.pending.push_back(Queued {
            index,
            class: insn.class,
            placement: insn.placement,
            labelled,
            user_template: user_template.map(|t| t.with_end_stop(false)),
            stop: insn.placement == Placement::Last,
            manual_on: std::mem::take(&mut self.next_manual_on),
            manual_off: false,
        });
        if self.pending.len() >= 4 {
            self.emit_one();
        }
        index
    }

    /// `{`: the next pushed instruction starts a manual bundle. As in gas, the instructions
    /// before it end their bundle there, while the template look-ahead (R3) still sees past it.
    pub fn open_manual(&mut self) {
        self.next_manual_on = true;
    }

    /// `}`: the most recently pushed instruction ends its manual bundle (the rest of the
    /// bundle is filled with nops).
    pub fn close_manual(&mut self) {
        if let Some(last) = self.pending.back_mut() {
            last.manual_off = true;
        }
    }

    /// `;;` after the most recently pushed instruction (R6). Nothing happens when no instruction
    /// is queued (right after a flush), as in gas.
    pub fn stop(&mut self) {
        if let Some(last) = self.pending.back_mut() {
            last.stop = true;
        }
    }

    /// A flush point (R11: data directive, `.endp`, end of input, ...): mark a stop on the last
    /// pending instruction and emit everything. Also settles held `.align` padding without a
    /// stop, so after `flush` everything is available from [`Bundler::take`].
    pub fn flush(&mut self) {
        self.settle_padding(false);
        self.flush_queue();
    }

    /// Emits every pending instruction without marking a stop (gas's `ia64_flush_insns`,
    /// as `.handlerdata` runs it; issue 13).
    pub fn emit_pending(&mut self) {
        while !self.pending.is_empty() {
            self.emit_one();
        }
    }

    /// A section switch away from this code section: like [`Bundler::flush`], except that held
    /// `.align` padding stays undecided (gas still gives it a stop if the next instruction in
    /// this section is must-be-first). Call [`Bundler::flush`] at the end of input.
    pub fn switch_section(&mut self) {
        self.flush_queue();
    }

    /// `.align alignment` in code (R12). Flushes first (R11); `addr` is the address the next
    /// bundle would have had before that flush (it is advanced by the bundles the flush emits).
    /// Returns the number of filler bundles. Their stop bit is decided by the next pushed
    /// instruction (stop when it is [`Placement::First`]); until then [`Bundler::take`] holds
    /// them back, but [`Bundler::emitted`] counts them. Alignments of 16 or less add nothing.
    ///
    /// When no filler is needed but a bundle was emitted since the previous `.align`, a
    /// must-be-first next instruction makes gas set the end stop of that last bundle instead
    /// (in place if it was not taken yet, otherwise reported by [`Bundler::take_late_stops`]).
    /// gas sets the bit on whatever 16 bytes precede the `.align`; data emitted by the caller
    /// in between is not seen here.
    pub fn align(&mut self, addr: u64, alignment: u64) -> Result<usize, AlignError> {
        if alignment != 0 && !alignment.is_power_of_two() {
            return Err(AlignError::NotPowerOfTwo(alignment));
        }
        let before = self.emitted;
        self.flush();
        let flushed = (self.emitted - before) as u64;
        let addr = addr.wrapping_add(flushed.wrapping_mul(16));
        let gap = match alignment {
            0 => 0,
            a => (a - addr % a) % a,
        };
        let bundles = gap / 16;
        if bundles > MAX_PADDING_BUNDLES {
            return Err(AlignError::TooLarge(alignment));
        }
        // The bound above keeps this conversion lossless on every supported target.
        let bundles = usize::try_from(bundles).map_err(|_| AlignError::TooLarge(alignment))?;
        self.undecided = if bundles > 0 {
            Undecided::Padding(bundles)
        } else if self.since_align > 0 {
            Undecided::PreviousStop(self.emitted - 1)
        } else {
            Undecided::Nothing
        };
        self.since_align = 0;
        self.emitted += bundles;
        Ok(bundles)
    }

    /// Number of bundles emitted so far, undecided padding included. This is what `.` means
    /// in `s = .` (R5): it lags behind the queued instructions.
    pub fn emitted(&self) -> usize {
        self.emitted
    }

    /// Number of instructions queued but not yet placed.
    pub fn pending(&self) -> usize {
        self.pending.len()
    }

    /// Take the bundles finished since the last call, in order. Padding bundles are
    /// [`PlacedBundle::padding`]. Padding whose stop bit is still undecided is kept back.
    pub fn take(&mut self) -> Vec<PlacedBundle> {
        self.released += self.ready.len();
        std::mem::take(&mut self.ready)
    }

    /// Bundle numbers, already returned by [`Bundler::take`], whose template must get the
    /// stop after slot 2 (`Template::with_end_stop(true)`): the rare R12 case of a zero-length
    /// `.align` followed by a must-be-first instruction. Drains the list.
    pub fn take_late_stops(&mut self) -> Vec<usize> {
        std::mem::take(&mut self.late_stops)
    }

    /// Where the instruction with sequence index `index` was placed; `None` while it is still
    /// queued, for an unknown index, or when gas would have dropped it (see [`Diagnostic`]).
    pub fn location(&self, index: usize) -> Option<SlotLocation> {
        self.locations.get(index).copied().flatten()
    }

    /// Take the problems found so far (in the order found).
    pub fn take_diagnostics(&mut self) -> Vec<Diagnostic> {
        std::mem::take(&mut self.diagnostics)
    }

    /// Apply the next instruction's verdict (`stop`: it is must-be-first) to what the last
    /// `.align` left undecided.
    fn settle_padding(&mut self, stop: bool) {
        match std::mem::replace(&mut self.undecided, Undecided::Nothing) {
            Undecided::Nothing => {}
            Undecided::Padding(n) => {
                let len = self.ready.len() + n;
                self.ready.resize(len, PlacedBundle::padding(stop));
            }
            Undecided::PreviousStop(bundle) if stop => {
                match bundle.checked_sub(self.released).and_then(|k| self.ready.get_mut(k)) {
                    Some(b) => b.template = b.template.with_end_stop(true),
                    None => self.late_stops.push(bundle),
                }
            }
            Undecided::PreviousStop(_) => {}
        }
    }

    /// R11: stop after the last queued instruction, then emit until nothing is queued.
    fn flush_queue(&mut self) {
        self.stop();
        while !self.pending.is_empty() {
            self.emit_one();
        }
    }

    /// R3 table lookup over the first ≤3 queued instructions, stopping before a labelled one.
    fn lookup(&self) -> Template {
        let mut idx = [0usize; 3];
        for (pos, q) in self.pending.iter().take(3).enumerate() {
            if pos != 0 && q.labelled {
                break;
            }
            if let Some(slot) = idx.get_mut(pos) {
                *slot = ty_of(q.class) as usize;
            }
        }
        let [a, b, c] = idx;
        // Every `Ty as usize` is below 8, the table's size in each dimension.
        self.table[a][b][c]
    }

    /// Build one bundle from the oldest queued instructions (R3, R4, R6–R10), consuming 1 to 3.
    fn emit_one(&mut self) {
        let Some(head) = self.pending.front() else {
            return;
        };
        let user = head.user_template;
        let mut tmpl = user.unwrap_or_else(|| self.lookup());
        let bundle_no = self.emitted;
        let mut slots = [SlotFill::Nop; 3];
        let mut consumed = 0usize;
        // Group-end flag of the last instruction placed (it becomes the end stop bit).
        let mut group_end = false;
        // Inside `{ ... }`: whether this bundle is manual, and whether its `}` was reached.
        let mut manual = false;
        let mut closed = false;
        let mut i = 0usize;
        while i < 3 {
            let Some(cur) = self.pending.get_mut(consumed) else {
                break;
            };
            if cur.manual_on {
                if consumed > 0 {
                    break;
                }
                manual = true;
            }
            // R9: branches that live only in slot 2 jump there.
            if cur.placement == Placement::Slot2 {
                i = 2;
            }
            // R7: must-be-last instructions need a stop right after their slot.
            if cur.placement == Placement::Last {
                let (need_slot, need_tmpl) = match cur.class {
                    InsnClass::M => (0, Template::M_MI),
                    InsnClass::B => (2, tmpl),
                    _ => (i, tmpl),
                };
                if need_slot < i {
                    break;
                }
                i = need_slot;
                if need_tmpl != tmpl {
                    tmpl = need_tmpl;
                    // The template's mid-bundle stop replaces the instruction's own.
                    cur.stop = false;
                }
            }
            // R5: a labelled instruction starts a bundle, and so does one after a template
            // directive (which, unlike a label, does not cut the R3 look-ahead).
            if consumed > 0 && (cur.labelled || cur.user_template.is_some()) {
                break;
            }
            // R6: the previous group ended inside this bundle.
            if group_end {
                let units = tmpl.units();
                let is_first = cur.placement == Placement::First;
                if i == 1 && (user == Some(Template::MMI) || (user.is_none() && units[0] == SlotUnit::M)) {
                    tmpl = Template::M_MI;
                    group_end = false;
                } else if i == 2
                    && (user == Some(Template::MII) || (user.is_none() && units[1] == SlotUnit::I))
                    && !is_first
                {
                    tmpl = Template::MI_I;
                    group_end = false;
                } else if !is_first
                    && ((i == 1 && user == Some(Template::MII)) || (i == 2 && user == Some(Template::MMI)))
                {
                    // A user template without that stop position: gas moves on to the next
                    // slot, so `.mii add ;; add` still gets its stop as MI;;I after a nop.i.
                    i += 1;
                    continue;
                } else if consumed > 0 {
                    break;
                }
            }
            let Some(&unit) = tmpl.units().get(i) else {
                break;
            };
            // R2: dynamic instructions take the slot's form, for good, fit or not.
            match cur.class {
                InsnClass::Dyn => cur.class = class_for_unit(unit),
                InsnClass::Hint => {
                    if unit != SlotUnit::B {
                        cur.class = class_for_unit(unit);
                    } else if user.is_none() {
                        cur.class = InsnClass::I;
                    } else {
                        self.diagnostics.push(Diagnostic { index: cur.index, kind: DiagnosticKind::HintInBUnit });
                        cur.class = InsnClass::B;
                    }
                }
                InsnClass::DynMI => {
                    let as_i =
                        unit == SlotUnit::I || (unit == SlotUnit::F && tmpl.with_end_stop(false) == Template::MFI);
                    cur.class = if as_i { InsnClass::I } else { InsnClass::M };
                }
                _ => {}
            }
            if !class_fits(cur.class, unit) {
                // R4: leave a nop and try the same instruction in the next slot.
                i += 1;
                continue;
            }
            if let Some(s) = slots.get_mut(i) {
                *s = SlotFill::Insn { index: cur.index, unit };
            }
            if let Some(loc) = self.locations.get_mut(cur.index) {
                *loc = Some(SlotLocation { bundle: bundle_no, slot: i });
            }
            group_end = cur.stop;
            consumed += 1;
            let off = cur.manual_off;
            if unit == SlotUnit::L {
                // R10: the X half follows in slot 2.
                i += 1;
                if let Some(s) = slots.get_mut(i) {
                    *s = SlotFill::Insn { index: cur.index, unit: SlotUnit::X };
                }
            }
            i += 1;
            if off {
                closed = true;
                break;
            }
        }
        if manual && !closed && consumed > 0 {
            if let Some(left) = self.pending.get(consumed) {
                if !left.manual_on {
                    self.diagnostics.push(Diagnostic { index: left.index, kind: DiagnosticKind::DoesNotFitBundle });
                }
            }
        }
        if consumed == 0 {
            // Only possible with a user template: gas reports it and drops the instruction so
            // that it cannot loop forever; the bundle of nops is still written.
            if let Some(dropped) = self.pending.front() {
                self.diagnostics.push(Diagnostic {
                    index: dropped.index,
                    kind: DiagnosticKind::DoesNotFitTemplate { template: tmpl },
                });
            }
            consumed = 1;
        }
        self.pending.drain(..consumed.min(self.pending.len()));
        self.ready.push(PlacedBundle { template: tmpl.with_end_stop(group_end), slots });
        self.emitted += 1;
        self.since_align += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Class and placement of the mnemonics used in the case descriptions.
    fn classify(m: &str) -> Option<PendingInsn> {
        use InsnClass as C;
        use Placement as P;
        let (class, placement) = match m {
            "add" | "adds" | "sub" | "cmp.eq" | "cmp.ne" | "mov" => (C::A, P::Any),
            "ld8" | "st8" | "rsm" | "srlz.d" | "invala" | "mov.m" | "movcr" | "nop.m" | "break.m" => (C::M, P::Any),
            "extr" | "extr.u" | "shl" | "shr.u" | "sxt4" | "mov.i" | "movb" | "movpr" | "nop.i" | "break.i" => {
                (C::I, P::Any)
            }
            "fma.s" | "nop.f" | "break.f" => (C::F, P::Any),
            "br.ret" | "br.cond" | "br.call" | "br" | "nop.b" | "break.b" => (C::B, P::Any),
            "movl" | "brl.call" | "nop.x" | "break.x" => (C::X, P::Any),
            "nop" | "break" => (C::Dyn, P::Any),
            "hint" => (C::Hint, P::Any),
            "chk.s" | "movar48" => (C::DynMI, P::Any),
            "alloc" | "flushrs" | "loadrs" => (C::M, P::First),
            "cover" | "rfi" | "bsw.0" | "clrrrb" => (C::B, P::Last),
            "itc.d" | "itc.i" | "ptc.g" => (C::M, P::Last),
            "br.cloop" | "br.ctop" => (C::B, P::Slot2),
            _ => return None,
        };
        Some(PendingInsn { class, placement })
    }

    fn template_of(name: &str) -> Option<Template> {
        Some(match name {
            ".mii" => Template::MII,
            ".mlx" => Template::MLX,
            ".mmi" => Template::MMI,
            ".mfi" => Template::MFI,
            ".mmf" => Template::MMF,
            ".mib" => Template::MIB,
            ".mbb" => Template::MBB,
            ".bbb" => Template::BBB,
            ".mmb" => Template::MMB,
            ".mfb" => Template::MFB,
            _ => return None,
        })
    }

    /// Runs a case description through the packer. Tokens: mnemonics (an optional `(pN)`
    /// prefix is ignored), `;;`, `name:` labels, `.align=N`, template directives, `.proc`,
    /// `.endp`, `flush`, and `s=.` (records `emitted()`). Returns the bundles and the `s=.` values.
    fn run(src: &str) -> (Vec<PlacedBundle>, Vec<usize>, Bundler) {
        let mut b = Bundler::new();
        let mut out = Vec::new();
        let mut dots = Vec::new();
        let mut label = false;
        let mut user = None;
        for tok in src.split_whitespace() {
            let tok = match tok.find(')') {
                Some(p) if tok.starts_with("(p") => &tok[p + 1..],
                _ => tok,
            };
            if tok == ";;" {
                b.stop();
            } else if tok == "s=." {
                dots.push(b.emitted());
            } else if tok == "{" {
                b.open_manual();
            } else if tok == "}" {
                b.close_manual();
            } else if tok == "flush" || tok == ".endp" {
                b.flush();
            } else if tok == ".proc" {
                b.flush();
                let addr = 16 * b.emitted() as u64;
                assert!(b.align(addr, 16).is_ok());
            } else if let Some(n) = tok.strip_prefix(".align=") {
                let addr = 16 * b.emitted() as u64;
                assert!(b.align(addr, n.parse().unwrap_or(0)).is_ok());
                label = false;
            } else if tok.ends_with(':') {
                label = true;
            } else if let Some(t) = template_of(tok) {
                user = Some(t);
            } else {
                let insn = classify(tok).unwrap_or_else(|| panic!("unknown mnemonic {tok}"));
                b.push(insn, label, user.take());
                label = false;
            }
            out.extend(b.take());
        }
        b.flush();
        out.extend(b.take());
        (out, dots, b)
    }

    /// Renders bundles as `code s0 s1 s2 | ...`: hex template code, `-` for a filler nop and the
    /// sequence index for an instruction. Also checks each unit against the template.
    fn render(bundles: &[PlacedBundle]) -> String {
        let mut parts = Vec::new();
        for pb in bundles {
            let units = pb.template.units();
            let mut s = format!("{:02x}", pb.template.code());
            for (k, fill) in pb.slots.iter().enumerate() {
                match fill {
                    SlotFill::Nop => s.push_str(" -"),
                    SlotFill::Insn { index, unit } => {
                        let expect = if units[k] == SlotUnit::X { SlotUnit::X } else { units[k] };
                        assert_eq!(*unit, expect, "unit of slot {k} in {pb:?}");
                        s.push_str(&format!(" {index}"));
                    }
                }
            }
            parts.push(s);
        }
        parts.join(" | ")
    }

    /// Checks a case and that `location` agrees with the bundles.
    fn check(src: &str, expected: &str) {
        let (bundles, _, b) = run(src);
        assert_eq!(render(&bundles), expected, "case: {src}");
        for (n, pb) in bundles.iter().enumerate() {
            for (k, fill) in pb.slots.iter().enumerate() {
                if let SlotFill::Insn { index, unit } = fill {
                    if *unit != SlotUnit::X {
                        assert_eq!(b.location(*index), Some(SlotLocation { bundle: n, slot: k }));
                    }
                }
            }
        }
    }

    #[test]
    fn cases_01_to_15_single_bundles() {
        check("add ;;", "01 0 - -");
        check("ld8 ;;", "01 0 - -");
        check("extr ;;", "01 - 0 -");
        check("fma.s ;;", "0d - 0 -");
        check("br.ret ;;", "11 - - 0");
        check("movl ;;", "05 - 0 0");
        check("add add ;;", "01 0 1 -");
        check("ld8 ld8 ;;", "09 0 1 -");
        check("ld8 fma.s ;;", "0d 0 1 -");
        check("add br.ret ;;", "11 0 - 1");
        check("ld8 add add ;;", "01 0 1 2");
        check("ld8 ld8 add ;;", "09 0 1 2");
        check("ld8 add br.ret ;;", "11 0 1 2");
        check("ld8 ld8 br.ret ;;", "19 0 1 2");
        check("ld8 fma.s br.ret ;;", "1d 0 1 2");
        check("ld8 ld8 fma.s ;;", "0f 0 1 2");
    }

    #[test]
    fn cases_16_to_23_lookahead() {
        check("ld8 (p6)br.cond br.ret ;; 1: add ;;", "13 0 1 2 | 01 3 - -");
        check("(p6)br.cond (p7)br.cond br.ret ;; 1: add ;;", "17 0 1 2 | 01 3 - -");
        check("ld8 ld8 add add ;;", "08 0 1 2 | 01 3 - -");
        check("add add add add add add ;;", "00 0 1 2 | 01 3 4 5");
        check("ld8 ld8 add fma.s add br.ret ;;", "08 0 1 2 | 0c - 3 4 | 11 - - 5");
        check("extr shl sxt4 ;;", "00 - 0 1 | 01 - 2 -");
        check("fma.s fma.s ;;", "0c - 0 - | 0d - 1 -");
    }

    #[test]
    fn cases_24_to_32_stops() {
        check("add ;; add add ;;", "0b 0 1 2");
        check("add add ;; add ;;", "03 0 1 2");
        check("ld8 ld8 ;; add ;;", "09 0 1 - | 01 2 - -");
        check("ld8 ;; mov.i add ;;", "0a 0 - 1 | 01 2 - -");
        check("add add ;; br.ret ;;", "02 0 1 - | 11 - - 2");
        check("ld8 ;; br.ret ;;", "0a 0 - - | 11 - - 1");
        check("add ;; add ;; add ;;", "0b 0 1 - | 01 2 - -");
        check("fma.s ;; add ;;", "0d - 0 - | 01 1 - -");
        check("add add", "01 0 1 -");
    }

    #[test]
    fn cases_33_to_39_labels_and_align() {
        check("add L1: add add ;;", "00 0 - - | 01 1 2 -");
        check("add .L2: add 1: add add ;;", "00 0 - - | 00 1 - - | 01 2 3 -");
        check("add ;; L1: add add ;;", "01 0 - - | 01 1 2 -");
        // A tag `[t1:]` is no bundle break: nothing is passed to the packer for it.
        check("add add add ;;", "01 0 1 2");
        check("add .align=32 add ;;", "01 0 - - | 08 - - - | 01 1 - -");
        check("add ;; .align=32 alloc add ;;", "01 0 - - | 09 - - - | 01 1 2 -");
        check("add add add ;; .align=16 add ;;", "01 0 1 2 | 01 3 - -");
    }

    #[test]
    fn cases_40_to_47_mlx_and_explicit_nops() {
        check("add movl add ;;", "04 0 1 1 | 01 2 - -");
        check("ld8 ld8 movl ;;", "08 0 1 - | 05 - 2 2");
        check("movl ;; movl ;;", "05 - 0 0 | 05 - 1 1");
        check("add brl.call ;;", "05 0 1 1");
        check("break.m break.i break.b ;;", "11 0 1 2");
        check("nop.m nop.i nop.b ;;", "11 0 1 2");
        check("nop.f ;; nop.x ;; break.f ;;", "0d - 0 - | 05 - 1 1 | 0d - 2 -");
        check("break ;; add break nop ;;", "0a 0 1 2 | 01 3 - -");
    }

    #[test]
    fn cases_48_to_57_first_last_slot2() {
        check("add cover ;;", "11 0 - 1");
        check("cover ;; br.ret ;;", "13 - - 0 | 11 - - 1");
        check("(p6)br.cond br.call cover ;; 1: add ;;", "17 0 1 2 | 01 3 - -");
        check("itc.d add ;;", "0b 0 1 -");
        check("add itc.i add ;;", "08 0 - - | 0b 1 2 -");
        check("add alloc add ;;", "0b 0 1 2");
        check("add add alloc ;;", "01 0 1 - | 01 2 - -");
        check("add flushrs add ;;", "0b 0 1 2");
        check("add br.cloop ;; 1: add ;;", "11 0 - 1 | 01 2 - -");
        check("ld8 ld8 add br.ctop ;; 1: add ;;", "08 0 1 2 | 11 - - 3 | 01 4 - -");
    }

    #[test]
    fn cases_58_to_66() {
        check(
            "add .proc f1: add add br.ret .endp .proc f2: add .endp add ;;",
            "01 0 - - | 11 1 2 3 | 01 4 - - | 01 5 - -",
        );
        check("add flush add ;;", "01 0 - - | 01 1 - -");
        check("add ;; ld8 ld8 add ;;", "0a 0 1 - | 01 2 3 -");
        check("fma.s br.ret add ;;", "1c - 0 1 | 01 2 - -");
        check("ld8 add movb ;; br.call ;;", "01 0 1 2 | 11 - - 3");
        check("cmp.eq ;; (p6)ld8 (p7)add (p6)br.cond ;; 1: add ;;", "0a 0 1 2 | 11 - - 3 | 01 4 - -");
        check(".mfi add add add ;;", "0c 0 - 1 | 01 2 - -");
        check("ld8 nop.i ld8 ;;", "00 0 1 - | 01 2 - -");
    }

    #[test]
    fn cases_67_to_84() {
        check("br.call ;; br.ret ;;", "13 - 0 - | 11 - - 1");
        check("br.cond br.cond ;; br.ret ;; 1: add ;;", "17 0 1 - | 11 - - 2 | 01 3 - -");
        check("add L9: movl ;;", "00 0 - - | 05 - 1 1");
        check("ld8 L8: br.ret ;;", "00 0 - - | 11 - - 1");
        check("cover add add ;;", "11 - - 0 | 01 1 2 -");
        check("mov bsw.0 ;; mov rfi ;;", "11 0 - 1 | 11 2 - 3");
        check("add ;; extr extr ;;", "0a 0 - 1 | 01 - 2 -");
        check("ld8 fma.s ;; extr ;;", "0d 0 1 - | 01 - 2 -");
        check("add add add add .align=64 add ;;", "00 0 1 2 | 01 3 - - | 08 - - - | 08 - - - | 01 4 - -");
        check("extr movl ;;", "00 - 0 - | 05 - 1 1");
        check("ld8 movl ;;", "05 0 1 1");
        check("add ;; movl ;;", "0a 0 - - | 05 - 1 1");
        // Case 79: the 16 data bytes between the bundles are the caller's; data flushes.
        check("add flush add ;;", "01 0 - - | 01 1 - -");
        check("br.cloop br.ret ;; 1: (p6)br.cond br.ret ;;", "12 - - 0 | 11 - - 1 | 13 - 2 3");
        check("add ;; L5: .align=32 add ;;", "01 0 - - | 08 - - - | 01 1 - -");
        check("movar48 ;; add movar48 chk.s ;; 1: chk.s ;;", "0a 0 1 2 | 01 3 - - | 01 4 - -");
    }

    #[test]
    fn cases_65_83_dot_lags_behind() {
        let (bundles, dots, _) = run("add s=. add add ;;");
        assert_eq!(render(&bundles), "01 0 1 2");
        assert_eq!(dots, vec![0]);
        let (bundles, dots, _) = run("add add add ;; s=. add ;; br ;;");
        assert_eq!(render(&bundles), "01 0 1 2 | 0a 3 - - | 11 - - 4");
        assert_eq!(dots, vec![0]);
        let (_, dots, _) = run("add add add s=. add s=. add s=. add s=. add s=. ;;");
        assert_eq!(dots, vec![0, 1, 1, 1, 2]);
    }

    #[test]
    fn case_80_sysexit() {
        let src = ".proc f: adds adds cmp.ne mov.m ;; ld8 ld8 (p6)mov (p7)mov ;; \
            ld8 ld8 movb ;; ld8 ld8 mov.i extr.u shr.u ;; rsm mov.m ;; srlz.d invala ;; \
            loadrs ;; mov.m ;; mov.m mov.m movpr ;; mov.m mov (p6)br.cond ;; \
            (p7)st8 adds mov mov br.ret ;; .Lerr: mov adds cover ;; movcr movcr ;; \
            bsw.0 ;; rfi ;; .endp";
        check(
            src,
            "00 0 1 2 | 0a 3 4 - | 01 5 6 7 | 09 8 9 10 | 08 11 12 13 | 01 - 14 15 | \
             09 16 17 - | 09 18 19 - | 0b 20 21 - | 09 22 23 24 | 11 25 26 27 | \
             00 28 29 30 | 11 31 - 32 | 11 33 34 35 | 19 36 37 - | 13 - - 38 | 11 - - 39",
        );
    }

    #[test]
    fn table_outcomes_of_r3() {
        let b = Bundler::new();
        let t = |x: Ty, y: Ty, z: Ty| b.table[x as usize][y as usize][z as usize];
        use Ty::*;
        assert_eq!(t(A, Nil, Nil), Template::MII);
        assert_eq!(t(I, Nil, Nil), Template::MII);
        assert_eq!(t(F, Nil, Nil), Template::MFI);
        assert_eq!(t(B, Nil, Nil), Template::MIB);
        assert_eq!(t(X, Nil, Nil), Template::MLX);
        assert_eq!(t(A, M, Nil), Template::MMI);
        assert_eq!(t(A, A, F), Template::MMF);
        assert_eq!(t(M, B, B), Template::MBB);
        assert_eq!(t(M, B, A), Template::MIB);
        assert_eq!(t(B, B, B), Template::BBB);
        assert_eq!(t(B, B, A), Template::MBB);
        assert_eq!(t(I, X, Nil), Template::MII);
        assert_eq!(t(Dyn, Dyn, Dyn), Template::MII);
    }

    #[test]
    fn zero_length_align_before_first() {
        // Already taken: reported as a late stop on bundle 0.
        let (bundles, _, mut b) = run("itc.d .align=16 alloc ;;");
        assert_eq!(render(&bundles), "0a 0 - - | 01 1 - -");
        assert_eq!(b.take_late_stops(), vec![0]);
        // Not taken yet: fixed in place.
        let mut b = Bundler::new();
        let itc = PendingInsn { class: InsnClass::M, placement: Placement::Last };
        let alloc = PendingInsn { class: InsnClass::M, placement: Placement::First };
        b.push(itc, false, None);
        assert_eq!(b.align(0, 16), Ok(0));
        b.switch_section();
        b.push(alloc, false, None);
        b.flush();
        assert_eq!(render(&b.take()), "0b 0 - - | 01 1 - -");
        assert!(b.take_late_stops().is_empty());
        // Nothing emitted since the previous .align, or a plain next instruction: no stop.
        let (bundles, _, mut b) = run("add .align=32 .align=16 alloc ;;");
        assert_eq!(render(&bundles), "01 0 - - | 08 - - - | 01 1 - -");
        assert!(b.take_late_stops().is_empty());
        let (_, _, mut b) = run("add .align=16 add ;;");
        assert!(b.take_late_stops().is_empty());
    }

    #[test]
    fn align_edge_cases() {
        let mut b = Bundler::new();
        assert_eq!(b.align(0, 32), Ok(0));
        assert_eq!(b.align(0, 24), Err(AlignError::NotPowerOfTwo(24)));
        assert_eq!(b.align(0x10, 0), Ok(0));
        assert_eq!(b.align(0x10, 1 << 40), Err(AlignError::TooLarge(1 << 40)));
        // Padding is held until the next instruction decides its stop.
        b.push(PendingInsn { class: InsnClass::A, placement: Placement::Any }, false, None);
        b.flush();
        assert_eq!(b.align(0x10, 64), Ok(3));
        assert_eq!(b.emitted(), 4);
        assert_eq!(b.take().len(), 1);
        assert!(b.take().is_empty());
        // A second .align settles the first without a stop; only the last can get one.
        assert_eq!(b.align(0x40, 128), Ok(4));
        b.push(PendingInsn { class: InsnClass::M, placement: Placement::First }, false, None);
        b.flush();
        let got = b.take();
        assert_eq!(got.len(), 8);
        assert!(got[..3].iter().all(|p| *p == PlacedBundle::padding(false)));
        assert!(got[3..7].iter().all(|p| *p == PlacedBundle::padding(true)));
        // A section switch leaves the decision to the next instruction of the section.
        assert_eq!(b.align(0x80, 256), Ok(8));
        b.switch_section();
        assert!(b.take().is_empty());
        b.push(PendingInsn { class: InsnClass::M, placement: Placement::First }, false, None);
        b.flush();
        assert_eq!(b.take().first(), Some(&PlacedBundle::padding(true)));
    }

    #[test]
    fn dynamic_forms_found_by_the_differential_check() {
        // hint skips B slots and stays hint.i; chk.s in a B or F slot stays chk.s.m.
        check("br.ret hint br.ret ;;", "16 0 - - | 11 - 1 2");
        check(".mlx nop hint ;;", "05 0 1 1");
        check(".mfb chk.s chk.s ;;", "1c 0 - - | 01 1 - -");
        check("fma.s hint ;;", "0d - 0 1");
        // A stop after slot 0 before a slot-2 branch is tested as a stop after slot 1.
        check("add ;; br.cloop ;;", "02 0 - - | 11 - - 1");
    }

    /// Manual bundles, as `ia64-linux-gnu-as -x` packs them (`tests/corpus/ia64/src/kernel_bundles.S`):
    /// `{` ends the bundle before it, `}` ends its own, the look-ahead still sees past `{`
    /// (the end of input adds the last stop).
    #[test]
    fn manual_bundles() {
        check("add { .mii add add ;; add } { .mib nop.m nop.i br.ret ;; }", "00 0 - - | 02 1 2 3 | 11 4 5 6");
        check("{ ld8 add } add { .mfb ld8 br.call }", "00 0 1 - | 18 2 - - | 1d 3 - 4");
        check("{ .mmi ld8 ;; ld8 nop.i ;; } { .mii add }", "0b 0 1 2 | 01 3 - -");
        let (_, _, mut b) = run("{ .mii add add add add }");
        assert_eq!(
            b.take_diagnostics(),
            vec![Diagnostic { index: 3, kind: DiagnosticKind::DoesNotFitBundle }],
            "a fourth instruction does not fit"
        );
    }

    #[test]
    fn user_templates() {
        // A stop where the user template has none: MII skips to slot 2 and becomes MI;;I,
        // MMI closes the bundle.
        check(".mii add ;; add ;;", "03 0 - 1");
        check(".mmi ld8 add ;; ld8 ;;", "09 0 1 - | 01 2 - -");
        check(".mii add ;; alloc ;;", "01 0 - - | 01 1 - -");
        // The directive starts a bundle but does not cut the look-ahead.
        check("ld8 .mfi add ;;", "00 0 - - | 0d 1 - -");
        check("ld8 .mfi alloc ;;", "09 0 - - | 0d 1 - -");
        check("ld8 ;; .mmi add ;;", "01 0 - - | 09 1 - -");
        check("add .mfi add add ;;", "00 0 - - | 0d 1 - 2");
    }

    #[test]
    fn user_template_errors() {
        let (bundles, _, mut b) = run(".bbb add ;;");
        assert_eq!(render(&bundles), "16 - - -");
        assert_eq!(
            b.take_diagnostics(),
            vec![Diagnostic { index: 0, kind: DiagnosticKind::DoesNotFitTemplate { template: Template::BBB } }]
        );
        assert_eq!(b.location(0), None);
    }
}
