//! From what the assembler recorded to [`super::ObjectParts`]: unwind positions turned into
//! slot counts, section attributes, symbol values, types and sizes.

use super::capture::{ProcCapture, Rec, SaveKind};
use super::unwind::{Region, UnwindDesc, UnwindProc};
use super::unwind_dirs::p78;
use super::{ObjSection, ObjSymbol, ObjectParts, EF_IA_64_ABI64};
use crate::asm::assembler::{Assembler, SectionState, SymDef};
use crate::asm::reloc::Reloc;
use emu_core::error::Diagnostic;
use emu_core::image::Section;
use emu_core::image::SectionKind;
use std::collections::HashMap;

/// The descriptors for registers saved to memory by `.save.g/.f/.b/.gf`, which gas puts
/// first in the region: P5 (or P6) with the gr/fr masks, P1 with the br mask, and P4 with
/// the class of each saving slot.
fn save_masks(list: &[(u64, u8, u8, SaveKind)], rlen: u64) -> Vec<UnwindDesc> {
    // (gr, fr) of `.save.gf`; gr, fr, br of `.save.g/.f/.b` to memory.
    let (mut gf_gr, mut gf_fr) = (0u8, 0u32);
    let (mut gr, mut fr, mut br) = (0u8, 0u8, 0u8);
    let mut imask = vec![0u8; rlen.div_ceil(4) as usize];
    for &(t, class, reg, kind) in list {
        // Only fr classes reach `fbit`: f2-f5 and f16-f31.
        let fbit = || 1u32 << if reg < 16 { reg.saturating_sub(2) } else { reg.saturating_sub(12) };
        match (class, kind) {
            (_, SaveKind::Gr) => {}
            (1, SaveKind::MemGf) => gf_fr |= fbit(),
            (2, SaveKind::MemGf) => gf_gr |= 1 << (reg - 4),
            (1, _) => fr |= fbit() as u8,
            (2, _) => gr |= 1 << (reg - 4),
            _ => br |= 1 << (reg - 1),
        }
        if let Some(b) = imask.get_mut((t / 4) as usize) {
            *b |= class << (6 - 2 * (t % 4));
        }
    }
    let mut out = Vec::new();
    // A `.save.gf` in the region puts every memory gr/fr save in its P5 (gas merges them).
    if gf_gr != 0 || gf_fr != 0 {
        out.push(UnwindDesc::P5 { gr: gf_gr | gr, fr: gf_fr | u32::from(fr) });
        (gr, fr) = (0, 0);
    }
    if fr != 0 {
        out.push(UnwindDesc::P6 { fr: true, mask: fr });
    }
    if gr != 0 {
        out.push(UnwindDesc::P6 { fr: false, mask: gr });
    }
    if br != 0 {
        out.push(UnwindDesc::P1 { mask: br });
    }
    out.push(UnwindDesc::P4(imask));
    out
}

/// The slot number (3 per bundle from the section start) of instruction `index`, or the
/// section's `end` when there is no such instruction.
fn slot_of(sec: &SectionState, index: usize, end: u64) -> u64 {
    sec.bundler
        .location(index)
        .and_then(|l| sec.bundle_offsets.get(l.bundle).map(|off| off / 16 * 3 + l.slot as u64))
        .unwrap_or(end / 16 * 3)
}

/// The unwind procedures with positions turned into slot counts.
pub(in crate::asm) fn resolve_unwind(
    procs: &[ProcCapture],
    sections: &[SectionState],
    manual_ends: &std::collections::HashSet<(usize, usize)>,
) -> Result<Vec<UnwindProc>, String> {
    let mut out = Vec::new();
    for p in procs {
        let sec = &sections[p.section];
        let end_slot = p.end / 16 * 3;
        let start_slot =
            if p.first_insn < sec.insns.len() { slot_of(sec, p.first_insn, p.end) / 3 * 3 } else { end_slot };
        // A region starts where gas was about to place the next instruction: right after
        // the previous one of the procedure, else at the next one's bundle.
        let region_start = |at: usize| -> u64 {
            if at > p.first_insn && at - 1 < sec.insns.len() && manual_ends.contains(&(p.section, at - 1)) {
                (slot_of(sec, at - 1, p.end) / 3 + 1) * 3
            } else if at > p.first_insn && at - 1 < sec.insns.len() {
                // An L+X instruction takes two slots (gas's `nop.x` before `.body`; issue 13).
                let long = sec.insns[at - 1].matched.class == crate::asm::bundler::InsnClass::X;
                slot_of(sec, at - 1, p.end) + if long { 2 } else { 1 }
            } else if at < sec.insns.len() {
                slot_of(sec, at, p.end) / 3 * 3
            } else {
                end_slot
            }
        };
        let starts: Vec<u64> =
            p.recs.iter().filter(|(_, r)| matches!(r, Rec::Region { .. })).map(|(at, _)| region_start(*at)).collect();
        let mut regions: Vec<Region> = Vec::new();
        let mut saved: HashMap<usize, Vec<(u64, u8, u8, SaveKind)>> = HashMap::new();
        let mut k = 0usize;
        for (at, r) in &p.recs {
            if let Rec::Region { body, gr } = r {
                let s = starts[k];
                let e = starts.get(k + 1).copied().unwrap_or(end_slot);
                regions.push(Region { body: *body, gr: *gr, rlen: e.saturating_sub(s), descs: Vec::new() });
                k += 1;
                continue;
            }
            let Some(region) = regions.last_mut() else {
                return Err("an unwind directive before `.prologue`/`.body` is not modelled".into());
            };
            let rs = starts[k - 1];
            let re = rs + region.rlen;
            // In an empty region (`.prologue` right before `.body`) every record is at 0, as in
            // gas, although the next instruction is the next region's.
            let t = if region.rlen == 0 { 0 } else { slot_of(sec, *at, p.end).saturating_sub(rs) };
            if let Rec::Saved { class, reg, kind } = *r {
                saved.entry(k - 1).or_default().push((t, class, reg, kind));
                continue;
            }
            let d = match r.clone() {
                Rec::Desc(d) => d,
                Rec::When { p8, r } => p78((p8, r), t),
                Rec::MemStackF { size } => UnwindDesc::MemStackF { t, size },
                Rec::Spill { sprel, qp, ab, reg, off } => UnwindDesc::Spill { sprel, qp, ab, reg, t, off },
                Rec::SpillReg { qp, ab, reg, tclass, treg } => UnwindDesc::SpillReg { qp, ab, reg, tclass, treg, t },
                Rec::Epilogue { ecount } => {
                    UnwindDesc::Epilogue { t: re.saturating_sub(1).saturating_sub(slot_of(sec, *at, p.end)), ecount }
                }
                Rec::Region { .. } | Rec::Saved { .. } => continue,
            };
            region.descs.push(d);
        }
        for (i, list) in saved {
            if let Some(region) = regions.get_mut(i) {
                let masks = save_masks(&list, region.rlen);
                region.descs.splice(0..0, masks);
            }
        }
        out.push(UnwindProc {
            section: p.section,
            start: start_slot / 3 * 16,
            end: p.end,
            regions,
            personality: p.personality.clone(),
            handler: p.handler.map(|(h, _)| h),
        });
    }
    Ok(out)
}

/// sh_flags of a section: from its flags string when `.section` gave one, else from its
/// name (BFD's special sections) or kind.
pub(in crate::asm) fn section_flags(name: &str, kind: SectionKind, flags: Option<&str>) -> u64 {
    const W: u64 = 1;
    const A: u64 = 2;
    const X: u64 = 4;
    const SHORT: u64 = 0x1000_0000;
    let short = if name.starts_with(".sdata") || name.starts_with(".sbss") { SHORT } else { 0 };
    let by_name = |p: &str| name == p || name.starts_with(&format!("{p}."));
    // The attributes gas's special-section table gives a name (`.data` and `.data.*` ...).
    let special = if by_name(".text") {
        Some(A | X)
    } else if by_name(".data") || by_name(".bss") || by_name(".sdata") || by_name(".sbss") {
        Some(A | W)
    } else if by_name(".rodata") {
        Some(A)
    } else {
        None
    };
    if let Some(f) = flags {
        let mut v = short;
        for c in f.chars() {
            v |= match c {
                'a' => A,
                'w' => W,
                'x' => X,
                's' => SHORT,
                'M' => 0x10,
                'S' => 0x20,
                'T' => 0x400,
                'o' => 0x80,
                _ => 0,
            };
        }
        // gas adds a special section's attributes when the ones written are a subset of them
        // (`.section ".data..patch.x", "a"` is WA).
        if let Some(sp) = special {
            if v & (A | W | X) & !sp == 0 {
                v |= sp;
            }
        }
        return v;
    }
    if by_name(".text") {
        A | X
    } else if by_name(".data") || by_name(".bss") || by_name(".sdata") || by_name(".sbss") {
        A | W | short
    } else if by_name(".rodata") {
        A
    } else {
        match kind {
            SectionKind::Code => A | X,
            SectionKind::Bss => A | W,
            SectionKind::Data => 0,
        }
    }
}

/// Builds the writer's input once layout and rendering are done.
pub(in crate::asm) fn parts(
    asm: &mut Assembler,
    sections: &[SectionState],
    object: &[Section],
    bases: &[u64],
    values: &HashMap<String, u64>,
    unwind: Result<Vec<UnwindProc>, String>,
    relocs: &[Reloc],
) -> (ObjectParts, Vec<Diagnostic>) {
    let mut out = ObjectParts { e_flags: EF_IA_64_ABI64, ..Default::default() };
    for (i, (st, obj)) in sections.iter().zip(object).enumerate() {
        let asked = asm.obj.aligns.get(&i).copied().unwrap_or(1);
        out.sections.push(ObjSection {
            name: st.name.clone(),
            data: obj.data.clone(),
            nobits: st.kind == SectionKind::Bss || asm.obj.nobits.contains(&st.name),
            flags: section_flags(&st.name, st.kind, asm.obj.flags.get(&i).map(String::as_str)),
            // gas gives `.text` 16 from the start; other sections only what was asked.
            align: if st.name == ".text" && !asm.rest.grouped(i) { asked.max(16) } else { asked },
            code: st.kind == SectionKind::Code,
            entsize: asm.obj.entsize.get(&st.name).copied().unwrap_or(0),
            unwind_table: asm.obj.unwind_tables.contains(&st.name),
        });
    }
    for (name, nobits) in [(".data", false), (".bss", true)] {
        if !out.sections.iter().enumerate().any(|(i, s)| s.name == name && !asm.rest.grouped(i)) {
            out.sections.push(ObjSection {
                name: name.into(),
                data: Vec::new(),
                nobits,
                flags: 3,
                align: 1,
                code: false,
                entsize: 0,
                unwind_table: false,
            });
        }
    }
    for (name, (def, _)) in &asm.symbols {
        let global = asm.globals.contains(name);
        let (section, value) = match *def {
            SymDef::Abs(v) => (None, v),
            SymDef::At(s, _) | SymDef::Insn { section: s, .. } => match values.get(name) {
                Some(v) => (Some(s), v.wrapping_sub(bases[s])),
                None => continue,
            },
        };
        let size = match (asm.obj.ends.get(name), section) {
            (Some(&(s, end)), Some(sec)) if s == sec => end.saturating_sub(value),
            _ => 0,
        };
        out.symbols.push(symbol(asm, name, section, value, true, global, size, bases, values));
    }
    // Undefined symbols: those declared global and those only referenced by a relocation
    // (gas makes both global undefined entries).
    // Relocations name symbols by their `.alias`; the tables here are by source name.
    let unalias: HashMap<&String, &String> = asm.sym_aliases.iter().map(|(k, v)| (v, k)).collect();
    let source_names: Vec<&String> =
        relocs.iter().map(|r| unalias.get(&r.symbol).copied().unwrap_or(&r.symbol)).collect();
    let mut externals: Vec<&String> = asm.globals.iter().filter(|g| !asm.symbols.contains_key(*g)).collect();
    for &n in &source_names {
        if !asm.symbols.contains_key(n) && !asm.globals.contains(n) {
            externals.push(n);
        }
    }
    externals.sort();
    externals.dedup();
    for g in externals {
        out.symbols.push(symbol(asm, g, None, 0, false, true, 0, bases, values));
    }
    out.symbols.sort_by(|a, b| a.name.cmp(&b.name));
    out.created = asm.obj.created.clone();
    for &n in &source_names {
        if !asm.symbols.contains_key(n) && !asm.obj.seen.contains(n) {
            asm.obj.seen.insert(n.clone());
            out.created.push(super::Created::Symbol(n.clone()));
        }
    }
    // A symbol a TLS relocation refers to is a TLS symbol (STT_TLS), as gas marks it.
    for (r, &n) in relocs.iter().zip(&source_names) {
        if r.r_type.name.contains("TPREL") || r.r_type.name.contains("DTPMOD") {
            if let Some(sym) = out.symbols.iter_mut().find(|s| &s.name == n && s.stt == 0) {
                sym.stt = 6;
            }
        }
    }
    // A symbol defined in a TLS section (flag T) is a TLS symbol whatever its `.type`
    // (issue 13; BFD writes BSF_THREAD_LOCAL as STT_TLS).
    for sym in &mut out.symbols {
        if sym.defined && sym.section.is_some_and(|i| out.sections.get(i).is_some_and(|s| s.flags & 0x400 != 0)) {
            sym.stt = 6;
        }
    }
    // `.alias`/`.secalias` give the names written to the file (the relocations already
    // carry the symbol aliases).
    for sym in &mut out.symbols {
        if let Some(a) = asm.sym_aliases.get(&sym.name) {
            sym.name = a.clone();
        }
    }
    for c in &mut out.created {
        if let super::Created::Symbol(n) = c {
            if let Some(a) = asm.sym_aliases.get(n) {
                *n = a.clone();
            }
        }
    }
    for sec in &mut out.sections {
        if let Some(a) = asm.sec_aliases.get(&sec.name) {
            sec.name = a.clone();
        }
    }
    out.file = asm.obj.file.clone();
    out.groups = crate::asm::rest_group::object_groups(asm, sections);
    // The relocations the assembler recorded (crate::asm::reloc), the one place types are chosen.
    out.relocs = relocs.to_vec();
    let mut errors = std::mem::take(&mut asm.obj.errors);
    match unwind {
        Ok(u) => out.unwind = u,
        Err(e) => {
            let loc = errors.first().map(|d| d.loc.clone());
            if let Some(loc) = loc {
                errors.push(Diagnostic::error(loc, e));
            } else if let Some(l) = sections.iter().flat_map(|s| s.insns.first()).next() {
                errors.push(Diagnostic::error(l.loc.clone(), e));
            }
        }
    }
    (out, errors)
}

/// One symbol's table entry data: the `.proc`/`.type` type, `.weak`, visibility and the
/// `.size` expression (evaluated now that every symbol has its value).
#[allow(clippy::too_many_arguments)]
fn symbol(
    asm: &Assembler,
    name: &str,
    section: Option<usize>,
    value: u64,
    defined: bool,
    global: bool,
    size: u64,
    bases: &[u64],
    values: &HashMap<String, u64>,
) -> ObjSymbol {
    let stt = asm.obj.types.get(name).copied().unwrap_or(if asm.obj.funcs.contains(name) { 2 } else { 0 });
    let size = match asm.obj.sizes.get(name) {
        Some((e, sec, dot)) => {
            let env = crate::asm::assembler::FinalEnv { values, dot: bases.get(*sec).copied().unwrap_or(0) + dot };
            e.eval(&env).map(|v| v as u64).unwrap_or(size)
        }
        None => size,
    };
    ObjSymbol {
        name: name.to_string(),
        section,
        value,
        defined,
        global,
        weak: asm.obj.weak.contains(name),
        stt,
        visibility: asm.obj.visibility.get(name).copied().unwrap_or(0),
        size,
    }
}
