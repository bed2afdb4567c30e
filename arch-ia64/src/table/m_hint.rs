//! The memory hints `.d4`-`.d7` (issue 12). GNU as 2.40 takes `.d1`-`.d7` on the loads,
//! stores and lfetch forms that leave a register field unused: hints 4-7 are the 2-bit hint
//! field (bits 29:28) plus a third bit, the top bit of that unused field. Measured with gas
//! 2.40 and objdump 2.40 (`tests/corpus/ia64/src/mem_hints.S`):
//! - integer and FP loads without base update (M1, M6, ld16): bit 19, the top of r2;
//! - integer and FP stores without base update (M4, M9, st16): bit 12, the top of r1;
//! - lfetch in all three forms (M13, M14, M15) and lfetch.count: bit 12, the top of r1.
//!
//! The base-update loads and stores, ldfp, the semaphores and cmp8xchg16 have no free field
//! and gas rejects `.d4`-`.d7` on them. objdump ignores the other bits of the unused field,
//! as these rows do, and prints the hint as `.d4`-`.d7` whatever the form.

use super::field::{f, Field};
use super::{Comp, Form, Sem};
use crate::exec::op::Update;

/// The hints 4-7: the 2-bit field's value under the added third bit.
const HIGH_HINT: Comp = Comp { field: f::HINT, opts: &[(".d4", 0), (".d5", 1), (".d6", 2), (".d7", 3)], implied: None };

/// The third hint bit of a row, if its form has one.
fn high_bit(form: &Form) -> Option<Field> {
    if form.comps.last().map(|c| c.field) != Some(f::HINT) {
        return None;
    }
    match form.sem? {
        Sem::Load { update: Update::None, .. }
        | Sem::LoadAlat { update: Update::None, .. }
        | Sem::LoadFp { update: Update::None, .. }
        | Sem::LoadFpAlat { update: Update::None, .. }
        | Sem::Load16 => Some(Field::new(19, 1)),
        Sem::Store { update: Update::None, .. } | Sem::StoreFp { update: Update::None, .. } | Sem::Store16 => {
            Some(Field::new(12, 1))
        }
        Sem::Lfetch { .. } => Some(Field::new(12, 1)),
        // lfetch.count (later forms, issue 12): bit 12 too, above its count.
        s if s == super::m_later::LFETCH_COUNT => Some(Field::new(12, 1)),
        _ => None,
    }
}

/// Pins the third hint bit to 0 in every row that has one and adds, after each, its
/// `.d4`-`.d7` twin with the bit set (same semantics, timing and implicit registers).
pub(super) fn add(forms: &mut Vec<Form>) {
    let mut out = Vec::with_capacity(forms.len() + 64);
    for mut form in forms.drain(..) {
        let Some(bit) = high_bit(&form) else {
            out.push(form);
            continue;
        };
        form.mask |= bit.mask();
        let mut high = form.clone();
        high.bits |= bit.mask();
        // The table is built once (a OnceLock), so these few completer lists are made
        // 'static by leaking them rather than by spelling out every twin by hand.
        let mut comps = form.comps.to_vec();
        if let Some(last) = comps.last_mut() {
            *last = HIGH_HINT;
        }
        high.comps = comps.leak();
        out.push(form);
        out.push(high);
    }
    *forms = out;
}

#[cfg(test)]
mod tests {
    use super::HIGH_HINT;
    use crate::table::table;

    #[test]
    fn every_free_field_form_has_its_twin() {
        // ld, ld8.fill, ldf, ldf.fill, st, st8.spill, stf, stf.spill (no update), ld16, st16 and
        // the three lfetch forms and lfetch.count.
        let twins: Vec<&str> = table()
            .forms
            .iter()
            .filter(|r| r.comps.last().is_some_and(|c| c.opts[0] == HIGH_HINT.opts[0]))
            .map(|r| r.name)
            .collect();
        assert_eq!(twins.len(), 14, "{twins:?}");
    }

    #[test]
    fn high_hints_assemble_to_gas_bits() {
        // Slot bits from GNU as 2.40 -x (qp 0).
        for (text, want) in [
            ("ld8.d5", 0x080d0080000u64),
            ("st8.d7", 0x08cf0001000),
            ("lfetch.d4", 0x0cb00001000),
            ("ldf8.d4", 0x0c040080000),
            ("stf8.d4", 0x0cc40001000),
        ] {
            // The first row taking the spelling is the form without base update.
            let (row, bits) = table()
                .forms
                .iter()
                .find_map(|r| r.match_mnemonic(text).map(|b| (r, b)))
                .unwrap_or_else(|| panic!("{text}: no row"));
            assert_eq!(row.bits | bits, want, "{text}");
        }
    }
}
