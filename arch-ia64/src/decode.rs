//! Bytes to instructions, through the instruction table: the template gives each slot's
//! unit, then the first table row whose fixed bits, completers and constraints match names
//! the instruction (SDM vol. 3 ch. 4).

use crate::bundle::{Bundle, SlotUnit, Template};
use crate::table::field::f;
use crate::table::{table, Constraint, DecodeUnit, Flags, Form, OpKind, Raw, Unit};

/// One decoded instruction: its table row, qualifying predicate and raw bits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Insn {
    /// Index of the table row.
    pub form: u16,
    /// Qualifying predicate (0 = always).
    pub qp: u8,
    /// The slot (and L slot for MLX forms).
    pub raw: Raw,
}

impl Insn {
    /// The table row.
    pub fn form(&self) -> &'static Form {
        table().form(self.form)
    }

    /// The value of operand `kind` of this instruction in the bundle at `ip`.
    pub fn operand(&self, kind: OpKind, ip: u64) -> i64 {
        kind.extract(self.raw, ip)
    }
}

/// What one slot of a decoded bundle holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Slot {
    /// An instruction.
    Insn(Insn),
    /// The L half of an MLX bundle (its instruction is in slot 2).
    Long,
    /// Bits that no row describes (a reserved or unsupported encoding) and the slot's unit.
    Unknown {
        /// The raw 41 bits.
        bits: u64,
        /// The unit the template gave the slot.
        unit: SlotUnit,
    },
}

/// A decoded bundle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct DecodedBundle {
    /// Template: units and stops.
    pub template: Template,
    /// The three slots.
    pub slots: [Slot; 3],
}

/// Why a bundle could not be decoded at all.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum DecodeError {
    /// The template field holds a reserved value.
    #[error("reserved template 0x{0:02x}")]
    ReservedTemplate(u8),
    /// Fewer than 16 bytes remain.
    #[error("truncated bundle: {0} bytes")]
    Truncated(usize),
}

/// Finds the table row for `raw` in a slot of `unit`.
pub fn decode_slot(unit: DecodeUnit, raw: Raw) -> Option<Insn> {
    let t = table();
    let op = f::OP.get(raw.slot) as u8;
    t.candidates(unit, op).iter().copied().find(|&idx| matches(t.form(idx), raw)).map(|form| Insn {
        form,
        qp: qp_of(t.form(form), raw.slot),
        raw,
    })
}

/// The qualifying predicate of `slot`: bits 5:0, except in the unpredicated rows whose
/// completers live there (brp's whether hint, bits 4:3), which have none (branch hints,
/// issue 12).
fn qp_of(form: &crate::table::Form, slot: u64) -> u8 {
    let hint_bits =
        form.flags.has(crate::table::Flags::NO_QP) && form.comps.iter().any(|c| c.field.mask() & f::QP.mask() != 0);
    if hint_bits {
        0
    } else {
        f::QP.get(slot) as u8
    }
}

/// The real row (not a display alias) that also describes `insn`'s bits: `mov b6=r2`
/// hides the tag that `mov b6=r2,tag` keeps, so re-encoding and execution use this one.
pub fn real_form(insn: &Insn) -> Option<Insn> {
    let t = table();
    let form = insn.form();
    if form.is_real() {
        return Some(*insn);
    }
    let unit = match form.unit {
        Unit::A | Unit::M => DecodeUnit::M,
        Unit::I => DecodeUnit::I,
        Unit::F => DecodeUnit::F,
        Unit::B => DecodeUnit::B,
        Unit::X => DecodeUnit::X,
    };
    let op = f::OP.get(insn.raw.slot) as u8;
    t.candidates(unit, op)
        .iter()
        .copied()
        .find(|&idx| t.form(idx).is_real() && matches(t.form(idx), insn.raw))
        .map(|form| Insn { form, ..*insn })
}

fn matches(form: &Form, raw: Raw) -> bool {
    raw.slot & form.mask == form.bits
        && !(form.flags.has(Flags::QP0_ALIAS) && f::QP.get(raw.slot) != 0)
        && form.comps.iter().all(|c| c.text_of(c.field.get(raw.slot)).is_some())
        && constraint_holds(form, raw)
}

fn constraint_holds(form: &Form, raw: Raw) -> bool {
    match form.constraint {
        Constraint::None => true,
        Constraint::LenIs64MinusPos => {
            let pos = form
                .operands()
                .find(|k| matches!(k, OpKind::Pos6 | OpKind::CPos6c))
                .map(|k| k.extract(raw, 0))
                .unwrap_or(-1);
            let len = OpKind::Len6.extract(raw, 0);
            pos + len == 64
        }
        Constraint::F2EqualsF3 => f::R2.get(raw.slot) == f::R3.get(raw.slot),
    }
}

/// Decodes one bundle.
pub fn decode_bundle(bytes: [u8; 16]) -> Result<DecodedBundle, DecodeError> {
    let code = bytes[0] & 31;
    let bundle = Bundle::from_bytes(bytes).ok_or(DecodeError::ReservedTemplate(code))?;
    let units = bundle.template.units();
    let mut slots = [Slot::Long; 3];
    for (i, unit) in units.iter().enumerate() {
        let bits = bundle.slots[i];
        slots[i] = match unit {
            SlotUnit::L => Slot::Long,
            SlotUnit::X => {
                let raw = Raw { slot: bits, long: bundle.slots[1] };
                decode_slot(DecodeUnit::X, raw).map_or(Slot::Unknown { bits, unit: *unit }, Slot::Insn)
            }
            u => {
                let du = match u {
                    SlotUnit::M => DecodeUnit::M,
                    SlotUnit::I => DecodeUnit::I,
                    SlotUnit::F => DecodeUnit::F,
                    _ => DecodeUnit::B,
                };
                decode_slot(du, Raw { slot: bits, long: 0 }).map_or(Slot::Unknown { bits, unit: *u }, Slot::Insn)
            }
        };
    }
    Ok(DecodedBundle { template: bundle.template, slots })
}

/// Decodes a run of bundles; the error names the byte offset of the first bad bundle.
pub fn decode_all(bytes: &[u8]) -> Result<Vec<DecodedBundle>, (usize, DecodeError)> {
    let chunks = bytes.chunks(16);
    let mut out = Vec::with_capacity(bytes.len() / 16);
    for (i, chunk) in chunks.enumerate() {
        let arr: [u8; 16] = chunk.try_into().map_err(|_| (i * 16, DecodeError::Truncated(chunk.len())))?;
        out.push(decode_bundle(arr).map_err(|e| (i * 16, e))?);
    }
    Ok(out)
}
