//! The IA-64 instruction table: one row per instruction form, read by the assembler,
//! encoder, decoder, formatter and (later) the timing model.
//!
//! Rows are split by unit like the manual's chapter 4 (`a.rs`, `i.rs`, `m.rs`, `b.rs`,
//! `f.rs`, `x.rs`). Row order matters: the decoder takes the first row that matches a slot,
//! so display aliases (`mov r1=r3` for `adds r1=0,r3`) come before the forms they alias,
//! as in binutils' tables.

mod a;
mod b;
mod comp;
mod f;
pub mod field;
mod i;
mod m;
// multimedia (issue 12)
mod mm;
// memory forms (issue 12)
mod m_mem;
// memory hints .d4-.d7 (issue 12)
mod m_hint;
// later (Itanium 9500) forms (issue 12)
mod m_later;
pub mod operand;
mod x;

pub use comp::Comp;
// semantics and implicit registers in the row (issue 12)
pub use crate::exec::op::Op as Sem;
pub use crate::regs::Resource;
use field::{f as fld, Field};
pub use operand::{OpClass, OpKind, OperandError, Raw};
use std::sync::OnceLock;

/// The unit type an instruction executes on (SDM vol. 3, Table 3-1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Unit {
    /// Integer ALU: runs in an M or an I slot.
    A,
    /// Integer (I slot).
    I,
    /// Memory (M slot).
    M,
    /// Floating point (F slot).
    F,
    /// Branch (B slot).
    B,
    /// Long immediate (L+X slots of MLX).
    X,
}

/// The instruction format of a row, named as in the manual (A1 ... X5); documentation only.
pub type Format = &'static str;

/// Placement and legality flags of a row.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Flags(u16);

impl Flags {
    /// No flags.
    pub const NONE: Flags = Flags(0);
    /// Must not be predicated (gas: "cannot be predicated").
    pub const NO_QP: Flags = Flags(1);
    /// Must be first in an instruction group (alloc, flushrs, loadrs).
    pub const FIRST: Flags = Flags(2);
    /// Must be last in an instruction group (cover, clrrrb, rfi, bsw).
    pub const LAST: Flags = Flags(4);
    /// Must be in slot 2 (br.cloop, br.ctop, br.cexit, br.wtop, br.wexit).
    pub const SLOT2: Flags = Flags(8);
    /// Privileged: faults at cpl != 0.
    pub const PRIV: Flags = Flags(16);
    /// An alias the assembler accepts but the decoder never produces.
    pub const ASM_ONLY: Flags = Flags(32);
    /// An alias used both ways (e.g. `mov r1=r3`); never seen by execution or timing.
    pub const PSEUDO: Flags = Flags(64);
    /// A display alias the decoder uses only for unpredicated slots: objdump shows
    /// `br.few` for `br.cond.sptk.few` but keeps the full name under a predicate.
    pub const QP0_ALIAS: Flags = Flags(128);

    /// Whether every flag of `other` is set.
    pub const fn has(self, other: Flags) -> bool {
        self.0 & other.0 == other.0
    }
}

impl std::ops::BitOr for Flags {
    type Output = Flags;
    fn bitor(self, rhs: Flags) -> Flags {
        Flags(self.0 | rhs.0)
    }
}

/// A relation between operands that a pseudo form imposes beyond fixed bits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Constraint {
    /// None.
    None,
    /// `shl`/`shr`/`shr.u` by an immediate: the len field is 64 - pos.
    LenIs64MinusPos,
    /// `mov f1=f3`: f2 equals f3.
    F2EqualsF3,
}

/// What the timing model needs to know about a form (latency and port classes, issue 3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[allow(missing_docs)] // the names are the classes of reference/itanium2-timing.md
pub enum TimingClass {
    Alu,
    Compare,
    Shift,
    Tbit,
    Extend,
    MovToBr,
    MovFromBr,
    MovToPr,
    MovFromPr,
    MovFromIp,
    MovToArM,
    MovFromArM,
    MovToArI,
    MovFromArI,
    MovToCr,
    MovFromCr,
    MovToPsr,
    MovFromPsr,
    PsrMask,
    Load,
    Store,
    FpLoad,
    FpStore,
    /// `lfetch`: a prefetch hint on M0/M1 whose only register result is the base update.
    Lfetch,
    Atomic,
    GetF,
    SetF,
    Movl,
    Nop,
    Break,
    Chk,
    Branch,
    BranchIndirect,
    Call,
    Return,
    Rfi,
    Epc,
    Cover,
    Bsw,
    Clrrrb,
    Alloc,
    Rse,
    Serialize,
    Fence,
    Invala,
    Probe,
    Tlb,
    Fc,
    FpMerge,
    Fma,
    // multimedia (issue 12): the [GCC] classes mmalua, mmshf, mmshfi and mmmul.
    /// Parallel add/subtract/average/compare (A9, A10) and min/max/sad: MM ALU, I0/I1 or M.
    MmAlu,
    /// mix, mux, pack, unpack and shifts by a register: MM shift, I0/I1.
    MmShift,
    /// Parallel shifts by an immediate.
    MmShiftImm,
    /// pmpy, pmpyshr, popcnt, clz, mpy4: MM multiply, I0 only.
    MmMul,
    // F unit (issue 12)
    /// fcmp/fclass: a predicate result ([GCC] fcmp 2, fcmp->br bypass 1).
    FpCompare,
    /// fsetc/fclrf/fchkf: FPSR status-field operations.
    FpStatus,
}

// semantics and implicit registers in the row (issue 12)
/// The registers a row reads and writes without naming them as operands, as gas 2.40's
/// dependency tables (`ia64-ic.tbl`, `ia64-raw.tbl`) list them for the instruction's class.
/// Uses that depend on an operand's value (`mov ar.bspstore=` also writes `AR[BSP]`) and the
/// field-wise FPSR uses of the F unit are not here: the dependency checker adds those.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Implicit {
    /// Registers read.
    pub reads: &'static [Resource],
    /// Registers written.
    pub writes: &'static [Resource],
}

/// One row of the table: one instruction form.
#[derive(Debug, Clone)]
pub struct Form {
    /// Mnemonic template: `{}` marks where each completer of `comps` goes, in order
    /// (`ld{}{}{}` with size, type and hint).
    pub name: &'static str,
    /// The completers filling the name's `{}` places.
    pub comps: &'static [Comp],
    /// Unit type.
    pub unit: Unit,
    /// Manual format id (A1 ... X5).
    pub format: Format,
    /// Fixed bits (including the major opcode).
    pub bits: u64,
    /// Which bits are fixed.
    pub mask: u64,
    /// Operands left of `=`.
    pub outs: &'static [OpKind],
    /// Operands right of `=`, or all of them when `outs` is empty.
    pub ins: &'static [OpKind],
    /// Placement and legality flags.
    pub flags: Flags,
    /// Operand relation of pseudo forms.
    pub constraint: Constraint,
    /// Timing class.
    pub timing: TimingClass,
    /// The operation the executor performs (issue 12). Payload fields that depend on
    /// completer bits of the slot (load size, getf kind, status field, ...) hold the row's
    /// default here; predecode reads them from the slot through a match on this id.
    pub sem: Option<Sem>,
    /// Registers read and written without being operands (issue 12).
    pub implicit: Implicit,
}

impl Form {
    fn new(name: &'static str, comps: &'static [Comp], unit: Unit, format: Format, fixed: &[(Field, u64)]) -> Form {
        let (bits, mask) = fixed.iter().fold((0, 0), |(b, m), (fd, v)| (b | fd.put(*v), m | fd.mask()));
        Form {
            name,
            comps,
            unit,
            format,
            bits,
            mask,
            outs: &[],
            ins: &[],
            flags: Flags::NONE,
            constraint: Constraint::None,
            timing: TimingClass::Alu,
            sem: None,
            implicit: Implicit { reads: &[], writes: &[] },
        }
    }

    // semantics and implicit registers in the row (issue 12)
    fn sem(mut self, sem: Sem) -> Form {
        self.sem = Some(sem);
        self
    }

    fn implicit(mut self, reads: &'static [Resource], writes: &'static [Resource]) -> Form {
        self.implicit = Implicit { reads, writes };
        self
    }

    fn ops(mut self, outs: &'static [OpKind], ins: &'static [OpKind]) -> Form {
        self.outs = outs;
        self.ins = ins;
        self
    }

    fn flags(mut self, flags: Flags) -> Form {
        self.flags = self.flags | flags;
        self
    }

    fn timing(mut self, t: TimingClass) -> Form {
        self.timing = t;
        self
    }

    fn with_name(mut self, name: &'static str) -> Form {
        self.name = name;
        self
    }

    fn constraint(mut self, c: Constraint) -> Form {
        self.constraint = c;
        self
    }

    /// Also fix `field` to `value` (pseudo forms that pin an operand, e.g. an immediate 0).
    fn pin(mut self, field: Field, value: u64) -> Form {
        self.bits |= field.put(value);
        self.mask |= field.mask();
        self
    }

    /// All operands in display order.
    pub fn operands(&self) -> impl Iterator<Item = OpKind> + '_ {
        self.outs.iter().chain(self.ins.iter()).copied()
    }

    /// Whether this row describes a real instruction (not an alias).
    pub fn is_real(&self) -> bool {
        !self.flags.has(Flags::PSEUDO) && !self.flags.has(Flags::ASM_ONLY)
    }

    /// The mnemonic of `raw` under this row, completers filled from the slot, or `None`
    /// if a completer field holds a value no completer names.
    pub fn mnemonic(&self, slot: u64) -> Option<String> {
        let mut out = String::with_capacity(self.name.len() + 12);
        let mut parts = self.name.split("{}");
        out.push_str(parts.next().unwrap_or(""));
        for (comp, rest) in self.comps.iter().zip(parts) {
            out.push_str(comp.text_of(comp.field.get(slot))?);
            out.push_str(rest);
        }
        Some(out)
    }

    /// The slot bits of this row's completers named by `mnemonic`, or `None` if the mnemonic
    /// is not one of this row's spellings. Omitted completers with an implied value take it.
    pub fn match_mnemonic(&self, mnemonic: &str) -> Option<u64> {
        // The assembler tries every row per instruction: reject on the fixed head of the
        // name before splitting it (that split and its allocation were most of the time).
        let head = self.name.find('{').map_or(self.name, |i| self.name.get(..i).unwrap_or_default());
        if !mnemonic.starts_with(head) {
            return None;
        }
        let pieces: Vec<&str> = self.name.split("{}").collect();
        comp::match_pieces(&pieces, self.comps, mnemonic, 0)
    }
}

/// The whole table with per-unit decode indexes.
#[derive(Debug)]
pub struct Table {
    /// Every row, in preference order.
    pub forms: Vec<Form>,
    /// Row indexes to try for (slot unit letter index, major opcode): decode order.
    by_unit_op: [[Vec<u16>; 16]; 5],
}

/// The units the decoder distinguishes (A rows are found through M and I).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DecodeUnit {
    /// M slot.
    M = 0,
    /// I slot.
    I = 1,
    /// F slot.
    F = 2,
    /// B slot.
    B = 3,
    /// X slot (of MLX).
    X = 4,
}

impl Table {
    fn build() -> Table {
        let mut forms = Vec::new();
        a::list(&mut forms);
        i::list(&mut forms);
        m_later::list(&mut forms); // later forms (issue 12): before m's plain lfetch row
        m::list(&mut forms);
        m_mem::list(&mut forms); // memory forms (issue 12)
        m_hint::add(&mut forms); // memory hints .d4-.d7 (issue 12)
        b::list(&mut forms);
        f::list(&mut forms);
        x::list(&mut forms);
        mm::list(&mut forms);
        let mut by_unit_op: [[Vec<u16>; 16]; 5] = Default::default();
        for (idx, form) in forms.iter().enumerate() {
            if form.flags.has(Flags::ASM_ONLY) {
                continue;
            }
            let units: &[DecodeUnit] = match form.unit {
                Unit::A => &[DecodeUnit::M, DecodeUnit::I],
                Unit::M => &[DecodeUnit::M],
                Unit::I => &[DecodeUnit::I],
                Unit::F => &[DecodeUnit::F],
                Unit::B => &[DecodeUnit::B],
                Unit::X => &[DecodeUnit::X],
            };
            let op = fld::OP.get(form.bits) as usize;
            for u in units {
                by_unit_op[*u as usize][op].push(idx as u16);
            }
        }
        Table { forms, by_unit_op }
    }

    /// The rows to try, in order, for a slot of `unit` with major opcode `op`.
    pub fn candidates(&self, unit: DecodeUnit, op: u8) -> &[u16] {
        &self.by_unit_op[unit as usize][usize::from(op & 15)]
    }

    /// Row `idx`.
    pub fn form(&self, idx: u16) -> &Form {
        &self.forms[usize::from(idx)]
    }
}

/// The instruction table (built once).
pub fn table() -> &'static Table {
    static TABLE: OnceLock<Table> = OnceLock::new();
    TABLE.get_or_init(Table::build)
}

#[cfg(test)]
mod tests;
// semantics and implicit registers in the row (issue 12)
#[cfg(test)]
mod implicit_tests;
