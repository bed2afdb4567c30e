use super::*;
use crate::image::{Binding, Section, SectionKind, Symbol, SymbolKind};
use crate::timing::{GroupRecord, Reg, SlotRef};

fn slot(addr: u64, text: &str) -> SlotRef {
    SlotRef { text: text.to_string(), ..SlotRef::new(addr, 0, false) }
}

fn rax(cycles: u64) -> (StallCause, u64) {
    (StallCause::Register(Reg::Named("rax")), cycles)
}

/// Two runs of a two-group loop body, the second group waiting each time.
fn looped() -> Timeline {
    let g = |first_cycle, addr, waited| GroupRecord { first_cycle, slots: vec![slot(addr, "i")], waited };
    Timeline {
        groups: vec![g(0, 0x100, vec![]), g(3, 0x104, vec![rax(2)]), g(4, 0x100, vec![]), g(8, 0x104, vec![rax(3)])],
    }
}

#[test]
fn a_group_is_charged_from_the_issue_before_it_and_the_last_takes_the_tail() {
    let p = Profile::from_timeline(&looped(), 10);
    assert_eq!(p.groups[&0x100].cycles, 1);
    assert_eq!(p.groups[&0x104].cycles, 3 + 4 + 2);
    assert_eq!(p.groups[&0x100].runs, 2);
    assert_eq!(p.cycles(), 10);
}

#[test]
fn waits_go_to_the_group_whose_range_holds_the_issue_group() {
    let p = Profile::from_timeline(&looped(), 10);
    assert_eq!(p.groups[&0x104].waits, vec![rax(2), rax(3)]);
    assert_eq!(p.groups[&0x104].waited(), 5);
    assert_eq!(p.groups[&0x104].why(), "dependency on rax (2), dependency on rax (3)");
    assert!(p.groups[&0x100].waits.is_empty());
}

#[test]
fn symbols_sum_their_groups_and_name_unknown_code_by_address() {
    let mut image = Image::new(crate::memory::Endian::Little);
    image.sections.push(Section {
        name: ".text".into(),
        addr: 0x100,
        data: vec![0; 8],
        kind: SectionKind::Code,
        align: 4,
    });
    for (name, value) in [("f", 0x100), ("g", 0x104)] {
        let (binding, kind) = (Binding::Global, SymbolKind::Function);
        image.symbols.push(Symbol { name: name.into(), value, section: Some(0), binding, kind, size: 4 });
    }
    let mut p = Profile::from_timeline(&looped(), 10);
    p.charge(0x900, 2, 1, 1);
    let by = p.by_symbol(&image, &|a| a);
    let names: Vec<(&str, u64)> = by.iter().map(|s| (s.name.as_str(), s.cycles)).collect();
    assert_eq!(names, vec![("g", 9), ("0x900", 2), ("f", 1)]);
    assert_eq!(by[0].waits.get(&StallCause::Register(Reg::Named("rax"))), Some(&5));
    let named = p.named_groups(&image, &|a| a, &|_| None);
    assert_eq!((named[0].label.as_str(), named[0].index, named[0].text.as_str()), ("f", 0, "i"));
}
