//! Instructions to bits, through the instruction table (the inverse of `decode`).

use crate::table::field::f;
use crate::table::{table, Constraint, OpKind, OperandError, Raw};

/// Why an instruction could not be encoded.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EncodeError {
    /// Operand `index` (0-based, display order) does not fit.
    #[error("operand {} out of range: expected {}", .index + 1, match .error { OperandError::OutOfRange(r) | OperandError::Misaligned(r) => r })]
    Operand {
        /// Which operand.
        index: usize,
        /// Why.
        error: OperandError,
    },
    /// An operand takes a value the form pins (e.g. a parallel compare's r0).
    #[error("operand value not allowed by this form")]
    Pinned,
    /// The number of operand values does not match the form.
    #[error("expected {expected} operands, got {got}")]
    Count {
        /// Operands the form has.
        expected: usize,
        /// Operands given.
        got: usize,
    },
}

/// Encodes row `form` with completer bits `comp_bits` (from [`crate::table::Form::match_mnemonic`]),
/// qualifying predicate `qp` and operand values in display order, for the bundle at `ip`.
pub fn encode(form: u16, comp_bits: u64, qp: u8, values: &[i64], ip: u64) -> Result<Raw, EncodeError> {
    let row = table().form(form);
    let kinds: Vec<OpKind> = row.operands().collect();
    if kinds.len() != values.len() {
        return Err(EncodeError::Count { expected: kinds.len(), got: values.len() });
    }
    let mut raw = Raw { slot: row.bits | comp_bits | f::QP.put(u64::from(qp)), long: 0 };
    for (index, (kind, value)) in kinds.iter().zip(values).enumerate() {
        if kind.is_literal() {
            continue;
        }
        kind.insert(&mut raw, *value, ip).map_err(|error| EncodeError::Operand { index, error })?;
    }
    match row.constraint {
        Constraint::None => {}
        Constraint::LenIs64MinusPos => {
            let pos = kinds
                .iter()
                .zip(values)
                .find(|(k, _)| matches!(k, OpKind::Pos6 | OpKind::CPos6c))
                .map_or(0, |(_, v)| *v);
            let index = kinds.len() - 1;
            OpKind::Len6.insert(&mut raw, 64 - pos, ip).map_err(|error| EncodeError::Operand { index, error })?;
        }
        Constraint::F2EqualsF3 => raw.slot |= f::R2.put(f::R3.get(raw.slot)),
    }
    if raw.slot & row.mask != row.bits {
        return Err(EncodeError::Pinned);
    }
    Ok(raw)
}

/// Encodes a decoded instruction again from its row, completer values, predicate and
/// operand values (through the real row when `insn` was decoded as a display alias): the
/// round trip that proves decoder and encoder describe the same bits.
/// `ip` is the address of the bundle holding it.
///
/// # Errors
/// As [`encode`]; a decoded instruction only fails if the table disagrees with itself.
pub fn reencode(insn: &crate::decode::Insn, ip: u64) -> Result<Raw, EncodeError> {
    // A display alias may hide bits (mov-to-br's tag); its real row keeps them all.
    let insn = &crate::decode::real_form(insn).unwrap_or(*insn);
    let form = insn.form();
    let comp_bits = form.comps.iter().fold(0, |bits, c| bits | c.field.put(c.field.get(insn.raw.slot)));
    let values: Vec<i64> = form.operands().map(|k| insn.operand(k, ip)).collect();
    encode(insn.form, comp_bits, insn.qp, &values, ip)
}
