//! Cross-row checks of the table (STYLE.md section 2).

use super::*;

#[test]
fn operand_fields_do_not_overlap_fixed_bits() {
    for form in &table().forms {
        for kind in form.operands() {
            let overlap = kind.slot_mask() & form.mask;
            // Pseudo forms pin operand bits on purpose (e.g. `mov r1=r3` pins imm14 = 0).
            if form.is_real() {
                assert_eq!(overlap, 0, "{} ({}) operand {:?} overlaps fixed bits", form.name, form.format, kind);
            }
        }
        for c in form.comps {
            assert_eq!(c.field.mask() & form.mask & !pinned_ok(form), 0, "{} completer overlaps fixed bits", form.name);
        }
    }
}

fn pinned_ok(form: &Form) -> u64 {
    if form.is_real() {
        0
    } else {
        u64::MAX
    }
}

#[test]
fn every_real_row_has_a_distinct_mnemonic_and_operands_per_unit() {
    let t = table();
    let mut seen = std::collections::HashSet::new();
    for form in t.forms.iter().filter(|f| f.is_real()) {
        let key = (form.name, form.format, format!("{:?}", form.operands().collect::<Vec<_>>()), form.bits, form.mask);
        assert!(seen.insert(key), "duplicate row {}", form.name);
    }
}

#[test]
fn real_rows_of_one_unit_do_not_overlap() {
    let t = table();
    let real: Vec<&Form> = t.forms.iter().filter(|f| f.is_real()).collect();
    for (i, a) in real.iter().enumerate() {
        for b in &real[i + 1..] {
            let same_unit = a.unit == b.unit
                || a.unit == Unit::A && matches!(b.unit, Unit::M | Unit::I)
                || b.unit == Unit::A && matches!(a.unit, Unit::M | Unit::I);
            if !same_unit {
                continue;
            }
            let common = a.mask & b.mask;
            if a.bits & common != b.bits & common {
                continue;
            }
            // A row pinning more bits than a later one is a specialisation the decoder tries
            // first (lfetch.count's bit 19 within plain lfetch's ignored r2 field; later forms,
            // issue 12).
            if a.mask & b.mask == b.mask && a.mask != b.mask {
                continue;
            }
            // Rows sharing fixed bits must differ in their completer values.
            let disjoint_comps = a.comps.iter().any(|ca| {
                b.comps.iter().any(|cb| {
                    ca.field == cb.field && ca.opts.iter().all(|(_, va)| cb.opts.iter().all(|(_, vb)| va != vb))
                })
            }) || b
                .comps
                .iter()
                .any(|cb| cb.opts.iter().all(|(_, vb)| cb.field.put(*vb) & a.mask != a.bits & cb.field.mask()))
                || a.comps
                    .iter()
                    .any(|ca| ca.opts.iter().all(|(_, va)| ca.field.put(*va) & b.mask != b.bits & ca.field.mask()));
            assert!(disjoint_comps, "rows {} ({}) and {} ({}) overlap", a.name, a.format, b.name, b.format);
        }
    }
}
