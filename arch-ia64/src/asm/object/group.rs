//! Section groups (issue 13): the SHT_GROUP sections gas writes for
//! `.section NAME, "axG", @progbits, GROUP, comdat`. BFD puts every group section first in
//! the header table; its contents are the GRP_COMDAT flag word and the header indices of the
//! members (the sections of the group, the unwind sections of its code sections and the
//! relocation sections of all of these, in header order); each member carries SHF_GROUP.

use super::symtab::SecRef;
use super::ObjectParts;
use std::collections::HashMap;

/// SHT_GROUP.
pub(super) const SHT_GROUP: u32 = 17;
/// SHF_GROUP.
pub(super) const SHF_GROUP: u64 = 0x200;
const GRP_COMDAT: u32 = 1;

/// The group each member section belongs to: its sections and their unwind sections.
pub(super) fn members(parts: &ObjectParts) -> HashMap<SecRef, usize> {
    let mut of = HashMap::new();
    for (g, group) in parts.groups.iter().enumerate() {
        for &i in &group.members {
            of.insert(SecRef::User(i), g);
            of.insert(SecRef::Unwind { code: i, info: true }, g);
            of.insert(SecRef::Unwind { code: i, info: false }, g);
        }
    }
    of
}

/// The contents of group `g`: its flag word, then each member's header index followed by
/// that of its relocation section, in header order.
pub(super) fn contents(
    parts: &ObjectParts,
    g: usize,
    member_of: &HashMap<SecRef, usize>,
    index: &HashMap<SecRef, u16>,
    rela_index: &HashMap<SecRef, u16>,
) -> Vec<u8> {
    let comdat = parts.groups.get(g).is_some_and(|x| x.comdat);
    let mut words = vec![if comdat { GRP_COMDAT } else { 0 }];
    let mut listed: Vec<(u16, Option<u16>)> = member_of
        .iter()
        .filter(|(_, &of)| of == g)
        .filter_map(|(r, _)| index.get(r).map(|&i| (i, rela_index.get(r).copied())))
        .collect();
    listed.sort_unstable();
    for (i, rela) in listed {
        words.push(u32::from(i));
        words.extend(rela.map(u32::from));
    }
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}
