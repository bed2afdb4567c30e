//! The file itself: section order, header indices, file offsets, the ELF header and the
//! section header table, as BFD lays out a relocatable object (contents in header order,
//! then `.symtab` and `.strtab`, then the `.rela.*` sections, then `.shstrtab`, then the
//! section headers; each piece at its alignment).

use super::group;
use super::strtab::StrTab;
use super::symtab::{SecRef, SymTable};
use super::unwind::{info_block, section_names};
use super::{Created, ObjectError, ObjectParts};
use crate::asm::reloc::RelocType;
use std::collections::HashMap;

const SHT_PROGBITS: u32 = 1;
const SHT_SYMTAB: u32 = 2;
const SHT_STRTAB: u32 = 3;
const SHT_RELA: u32 = 4;
const SHT_NOBITS: u32 = 8;
const SHT_IA_64_UNWIND: u32 = 0x7000_0001;
const SHF_ALLOC: u64 = 2;
/// R_IA64_LTOFF_FPTR64LSB: an unwind info block's personality pointer.
const LTOFF_FPTR64LSB: u32 = 0x57;
const SHF_INFO_LINK: u64 = 0x40;
const SHF_LINK_ORDER: u64 = 0x80;

/// One section header and its contents.
struct Out {
    name: String,
    sh_type: u32,
    flags: u64,
    link: u32,
    info: u32,
    align: u64,
    entsize: u64,
    data: Vec<u8>,
    /// NOBITS size.
    size: u64,
    offset: u64,
}

/// A relocation before symbol indices are known.
struct PendingRela {
    offset: u64,
    rtype: u32,
    target: Target,
    addend: i64,
}

enum Target {
    Name(String),
    Section(SecRef),
}

/// Writes the object file for `parts`.
///
/// # Errors
/// A fixup against a symbol or section that does not exist, or an unwind descriptor whose
/// value does not fit.
pub fn write_object(parts: &ObjectParts) -> Result<Vec<u8>, ObjectError> {
    // Section order: .text, .data, .bss, then creation order.
    let grouped = |i: usize| parts.groups.iter().any(|g| g.members.contains(&i));
    let find = |n: &str| parts.sections.iter().enumerate().position(|(i, s)| s.name == n && !grouped(i));
    let first: Vec<usize> = [".text", ".data", ".bss"].iter().filter_map(|n| find(n)).collect();
    let mut order: Vec<SecRef> = first.iter().map(|&i| SecRef::User(i)).collect();
    for c in &parts.created {
        match c {
            Created::Section(i) if !first.contains(i) => order.push(SecRef::User(*i)),
            Created::Unwind(code) => {
                order.push(SecRef::Unwind { code: *code, info: true });
                order.push(SecRef::Unwind { code: *code, info: false });
            }
            _ => {}
        }
    }
    let placed: std::collections::HashSet<SecRef> = order.iter().copied().collect();
    for i in 0..parts.sections.len() {
        if !placed.contains(&SecRef::User(i)) {
            order.push(SecRef::User(i));
        }
    }
    // Section groups (issue 13): BFD numbers group sections first.
    order.splice(0..0, (0..parts.groups.len()).map(SecRef::Group));
    let member_of = group::members(parts);

    // `.handlerdata` sections (issue 13) are written inside the unwind info, not alone.
    let handler_secs: std::collections::HashSet<usize> = parts.unwind.iter().filter_map(|p| p.handler).collect();
    order.retain(|r| !matches!(r, SecRef::User(i) if handler_secs.contains(i)));
    // Where each handler section's bytes went, and the personality pointers to relocate.
    let mut handler_base: HashMap<usize, (SecRef, u64)> = HashMap::new();
    let mut personalities: Vec<(SecRef, u64, &str)> = Vec::new();

    // Unwind contents and their relocations, per code section.
    let mut unwind_data: HashMap<SecRef, Vec<u8>> = HashMap::new();
    let mut relocs: HashMap<SecRef, Vec<PendingRela>> = HashMap::new();
    for p in &parts.unwind {
        if p.section >= parts.sections.len() {
            return Err(ObjectError::NoSection(p.section));
        }
        let info_ref = SecRef::Unwind { code: p.section, info: true };
        let table_ref = SecRef::Unwind { code: p.section, info: false };
        let info = unwind_data.entry(info_ref).or_default();
        let info_off = info.len() as u64;
        let handler = p.handler.and_then(|h| parts.sections.get(h)).map(|s| s.data.as_slice()).unwrap_or_default();
        let block = info_block(p, handler)?;
        // The header's low word counts the descriptor words; the pointer follows them.
        let words = block.get(..4).map_or(0, |b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]));
        let mut tail = info_off + 8 + 8 * u64::from(words);
        if let Some(name) = &p.personality {
            personalities.push((info_ref, tail, name));
            tail += 8;
        }
        if let Some(h) = p.handler {
            handler_base.insert(h, (info_ref, tail));
        }
        info.extend(block);
        let table = unwind_data.entry(table_ref).or_default();
        let at = table.len() as u64;
        table.extend([0u8; 24]);
        let code = Target::Section(SecRef::User(p.section));
        let rel = relocs.entry(table_ref).or_default();
        rel.push(PendingRela {
            offset: at,
            rtype: RelocType::SEGREL64LSB.number,
            target: code,
            addend: p.start as i64,
        });
        let code = Target::Section(SecRef::User(p.section));
        rel.push(PendingRela {
            offset: at + 8,
            rtype: RelocType::SEGREL64LSB.number,
            target: code,
            addend: p.end as i64,
        });
        rel.push(PendingRela {
            offset: at + 16,
            rtype: RelocType::SEGREL64LSB.number,
            target: Target::Section(info_ref),
            addend: info_off as i64,
        });
    }
    let by_name: HashMap<&str, &super::ObjSymbol> = parts.symbols.iter().map(|s| (s.name.as_str(), s)).collect();
    // The assembler's relocations (crate::asm::reloc): a local symbol defined in a section
    // becomes that section's symbol plus its offset, as gas writes it.
    for f in &parts.relocs {
        if f.section >= parts.sections.len() {
            return Err(ObjectError::NoSection(f.section));
        }
        let sym = by_name.get(f.symbol.as_str()).ok_or_else(|| ObjectError::UnknownSymbol(f.symbol.clone()))?;
        let (target, addend) = match sym.section {
            // gas never reduces a reference to a TLS symbol (STT_TLS 6) to its section (issue 13).
            Some(i) if sym.defined && !sym.global && !f.r_type.keeps_symbol() && sym.stt != 6 => {
                (Target::Section(SecRef::User(i)), f.addend.wrapping_add(sym.value as i64))
            }
            _ => (Target::Name(f.symbol.clone()), f.addend),
        };
        let (dest, offset) = match handler_base.get(&f.section) {
            Some(&(info, base)) => (info, base + f.offset),
            None => (SecRef::User(f.section), f.offset),
        };
        relocs.entry(dest).or_default().push(PendingRela { offset, rtype: f.r_type.number, target, addend });
    }
    // The personality pointers: @ltoff(@fptr(NAME)), against the section of a local routine.
    for (info, offset, name) in personalities {
        let sym = by_name.get(name).ok_or_else(|| ObjectError::UnknownSymbol(name.to_string()))?;
        let (target, addend) = match sym.section {
            Some(i) if sym.defined && !sym.global => (Target::Section(SecRef::User(i)), sym.value as i64),
            _ => (Target::Name(name.to_string()), 0),
        };
        relocs.entry(info).or_default().push(PendingRela { offset, rtype: LTOFF_FPTR64LSB, target, addend });
    }
    for list in relocs.values_mut() {
        list.sort_by_key(|r| r.offset);
    }

    // Header indices: each section, its .rela right after it; then .symtab .strtab .shstrtab.
    let mut index: HashMap<SecRef, u16> = HashMap::new();
    let mut rela_index: HashMap<SecRef, u16> = HashMap::new();
    let mut next = 1u16;
    for r in &order {
        index.insert(*r, next);
        next += 1;
        if relocs.get(r).is_some_and(|l| !l.is_empty()) {
            rela_index.insert(*r, next);
            next += 1;
        }
    }
    let symtab_index = next;
    let shndx = |r: SecRef| index.get(&r).copied().unwrap_or(0);
    let table = SymTable::build(parts, &first, &shndx);

    let mut outs: Vec<Out> = vec![Out {
        name: String::new(),
        sh_type: 0,
        flags: 0,
        link: 0,
        info: 0,
        align: 0,
        entsize: 0,
        data: Vec::new(),
        size: 0,
        offset: 0,
    }];
    for r in &order {
        let mut out = match *r {
            SecRef::User(i) => {
                let s = &parts.sections[i];
                // A `.section .IA_64.unwindX, "ao", @unwind` names its code section X (.text
                // for none), as BFD links it (issue 13).
                let linked = s.unwind_table.then(|| {
                    let rest = s.name.strip_prefix(".IA_64.unwind").unwrap_or_default();
                    let code = if rest.is_empty() { ".text" } else { rest };
                    find(code).map_or(0, |c| u32::from(shndx(SecRef::User(c))))
                });
                Out {
                    name: s.name.clone(),
                    sh_type: if s.unwind_table {
                        SHT_IA_64_UNWIND
                    } else if s.nobits {
                        SHT_NOBITS
                    } else {
                        SHT_PROGBITS
                    },
                    flags: s.flags,
                    link: linked.unwrap_or(0),
                    info: linked.unwrap_or(0),
                    align: s.align.max(1),
                    entsize: s.entsize,
                    size: s.data.len() as u64,
                    data: if s.nobits { Vec::new() } else { s.data.clone() },
                    offset: 0,
                }
            }
            SecRef::Group(g) => {
                let sig = parts.groups.get(g).map(|x| x.signature.as_str()).unwrap_or_default();
                let data = group::contents(parts, g, &member_of, &index, &rela_index);
                Out {
                    name: ".group".into(),
                    sh_type: group::SHT_GROUP,
                    flags: 0,
                    link: u32::from(symtab_index),
                    info: table.symbol(sig).unwrap_or(0),
                    align: 4,
                    entsize: 4,
                    size: data.len() as u64,
                    data,
                    offset: 0,
                }
            }
            SecRef::Unwind { code, info } => {
                let (info_name, table_name) = section_names(&parts.sections[code].name);
                let data = unwind_data.remove(r).unwrap_or_default();
                let text = u32::from(shndx(SecRef::User(code)));
                Out {
                    name: if info { info_name } else { table_name },
                    sh_type: if info { SHT_PROGBITS } else { SHT_IA_64_UNWIND },
                    flags: if info { SHF_ALLOC } else { SHF_ALLOC | SHF_LINK_ORDER },
                    link: if info { 0 } else { text },
                    info: if info { 0 } else { text },
                    align: 8,
                    entsize: 0,
                    size: data.len() as u64,
                    data,
                    offset: 0,
                }
            }
        };
        if out.sh_type == SHT_NOBITS {
            out.data.clear();
        }
        let group_flag = if member_of.contains_key(r) { group::SHF_GROUP } else { 0 };
        out.flags |= group_flag;
        let name = out.name.clone();
        outs.push(out);
        if let Some(list) = relocs.get(r).filter(|l| !l.is_empty()) {
            let mut data = Vec::with_capacity(list.len() * 24);
            for rel in list {
                let sym = match &rel.target {
                    Target::Name(n) => table.symbol(n).ok_or_else(|| ObjectError::UnknownSymbol(n.clone()))?,
                    Target::Section(s) => table.section(*s).ok_or(ObjectError::NoSection(match s {
                        SecRef::User(i) | SecRef::Unwind { code: i, .. } | SecRef::Group(i) => *i,
                    }))?,
                };
                data.extend_from_slice(&rela_bytes(rel.offset, sym, rel.rtype, rel.addend));
            }
            outs.push(Out {
                name: format!(".rela{name}"),
                sh_type: SHT_RELA,
                flags: SHF_INFO_LINK | group_flag,
                link: u32::from(symtab_index),
                info: u32::from(shndx(*r)),
                align: 8,
                entsize: 24,
                size: data.len() as u64,
                data,
                offset: 0,
            });
        }
    }
    let mut strtab = StrTab::default();
    table.add_names(&mut strtab);
    let strtab = strtab.finish();
    let symtab_bytes = table.bytes(&strtab);
    let common = |name: &str, sh_type, link, info, align, entsize, data: Vec<u8>| Out {
        name: name.to_string(),
        sh_type,
        flags: 0,
        link,
        info,
        align,
        entsize,
        size: data.len() as u64,
        data,
        offset: 0,
    };
    outs.push(common(".symtab", SHT_SYMTAB, u32::from(symtab_index) + 1, table.first_global, 8, 24, symtab_bytes));
    outs.push(common(".strtab", SHT_STRTAB, 0, 0, 1, 0, strtab.bytes.clone()));
    let mut shstr = StrTab::default();
    for n in [".symtab", ".strtab", ".shstrtab"] {
        shstr.add(n);
    }
    // Group sections are BFD's last: their name comes last (issue 13).
    for o in outs.iter().filter(|o| o.sh_type != group::SHT_GROUP) {
        shstr.add(&o.name);
    }
    for o in outs.iter().filter(|o| o.sh_type == group::SHT_GROUP) {
        shstr.add(&o.name);
    }
    let shstr = shstr.finish();
    outs.push(common(".shstrtab", SHT_STRTAB, 0, 0, 1, 0, shstr.bytes.clone()));

    // File offsets.
    let mut at = 64u64;
    let place = |o: &mut Out, at: &mut u64| {
        let a = o.align.max(1);
        *at = at.div_ceil(a) * a;
        o.offset = *at;
        if o.sh_type != SHT_NOBITS {
            *at += o.data.len() as u64;
        }
    };
    let n = outs.len();
    for o in outs.iter_mut().skip(1).filter(|o| !matches!(o.sh_type, SHT_RELA | SHT_SYMTAB | SHT_STRTAB)) {
        place(o, &mut at);
    }
    for o in outs.iter_mut().filter(|o| o.sh_type == SHT_SYMTAB) {
        place(o, &mut at);
    }
    if let Some(o) = outs.iter_mut().find(|o| o.name == ".strtab" && o.sh_type == SHT_STRTAB) {
        place(o, &mut at);
    }
    for o in outs.iter_mut().filter(|o| o.sh_type == SHT_RELA) {
        place(o, &mut at);
    }
    if let Some(o) = outs.last_mut() {
        place(o, &mut at);
    }
    let shoff = at.div_ceil(8) * 8;

    let mut file = vec![0u8; shoff as usize + 64 * n];
    file[0..16].copy_from_slice(&[0x7f, b'E', b'L', b'F', 2, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    let mut h = Vec::with_capacity(48);
    h.extend_from_slice(&1u16.to_le_bytes()); // ET_REL
    h.extend_from_slice(&50u16.to_le_bytes()); // EM_IA_64
    h.extend_from_slice(&1u32.to_le_bytes()); // EV_CURRENT
    h.extend_from_slice(&0u64.to_le_bytes()); // e_entry
    h.extend_from_slice(&0u64.to_le_bytes()); // e_phoff
    h.extend_from_slice(&shoff.to_le_bytes());
    h.extend_from_slice(&parts.e_flags.to_le_bytes());
    h.extend_from_slice(&64u16.to_le_bytes()); // e_ehsize
    h.extend_from_slice(&0u16.to_le_bytes()); // e_phentsize
    h.extend_from_slice(&0u16.to_le_bytes()); // e_phnum
    h.extend_from_slice(&64u16.to_le_bytes()); // e_shentsize
    h.extend_from_slice(&(n as u16).to_le_bytes());
    h.extend_from_slice(&((n - 1) as u16).to_le_bytes()); // e_shstrndx
    file[16..64].copy_from_slice(&h);
    for (i, o) in outs.iter().enumerate() {
        let start = o.offset as usize;
        if !o.data.is_empty() {
            file[start..start + o.data.len()].copy_from_slice(&o.data);
        }
        let mut s = Vec::with_capacity(64);
        s.extend_from_slice(&shstr.offset(&o.name).to_le_bytes());
        s.extend_from_slice(&o.sh_type.to_le_bytes());
        s.extend_from_slice(&o.flags.to_le_bytes());
        s.extend_from_slice(&0u64.to_le_bytes()); // sh_addr
        s.extend_from_slice(&o.offset.to_le_bytes());
        s.extend_from_slice(&o.size.to_le_bytes());
        s.extend_from_slice(&o.link.to_le_bytes());
        s.extend_from_slice(&o.info.to_le_bytes());
        s.extend_from_slice(&o.align.to_le_bytes());
        s.extend_from_slice(&o.entsize.to_le_bytes());
        let h = shoff as usize + 64 * i;
        file[h..h + 64].copy_from_slice(&s);
    }
    Ok(file)
}

/// One Elf64_Rela, little-endian.
fn rela_bytes(offset: u64, sym: u32, rtype: u32, addend: i64) -> [u8; 24] {
    let mut b = [0u8; 24];
    b[0..8].copy_from_slice(&offset.to_le_bytes());
    b[8..16].copy_from_slice(&((u64::from(sym) << 32) | u64::from(rtype)).to_le_bytes());
    b[16..24].copy_from_slice(&addend.to_le_bytes());
    b
}
