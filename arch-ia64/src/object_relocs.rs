//! The relocations of an IA-64 object as `objdump -dr` names them, per loaded section.
//!
//! objdump prints a relocation with bfd's howto name (the psABI name without `R_IA64_`),
//! the symbol's name (a section symbol by its section's name, symbol 0 as `*ABS*`) and a
//! non-zero addend as `+0x..` or `-0x..`. The offset is the field's section offset; an
//! instruction field is addressed as bundle address + slot number (psABI), so every
//! relocation of a bundle falls before the end of the bundle's first slot line.

use crate::elf::{reloc_name, ElfError};
use goblin::elf::header::ET_REL;
use goblin::elf::sym::STT_SECTION;
use goblin::elf::Elf;

/// One relocation, ready to print.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShownReloc {
    /// Offset in the patched section (`r_offset`).
    pub offset: u64,
    /// bfd's howto name (`PCREL21B`).
    pub howto: &'static str,
    /// The symbol as objdump names it.
    pub symbol: String,
    /// `r_addend`.
    pub addend: i64,
}

/// The relocations of every loaded section, indexed like [`emu_core::image::Image::sections`]
/// through `index_of` (ELF section index -> image section), each list sorted by offset
/// (ties keep file order, as objdump's sort does for gas's objects).
///
/// # Errors
/// [`ElfError::CorruptRelocation`] for an unknown type or a symbol index past the table.
pub(crate) fn read(
    elf: &Elf<'_>,
    index_of: &[Option<usize>],
    sections: usize,
) -> Result<Vec<Vec<ShownReloc>>, ElfError> {
    let mut out = vec![Vec::new(); sections];
    for (rel_idx, relocs) in &elf.shdr_relocs {
        let Some(rel_sh) = elf.section_headers.get(*rel_idx) else { continue };
        let target = usize::try_from(rel_sh.sh_info).ok().and_then(|t| index_of.get(t).copied().flatten());
        // Relocations of sections that are not loaded (debug info) are never shown by -d.
        let Some(list) = target.and_then(|t| out.get_mut(t)) else { continue };
        // A linked object's relocation offsets are addresses; bfd keeps them per section.
        let base = if elf.header.e_type == ET_REL {
            0
        } else {
            elf.section_headers.get(usize::try_from(rel_sh.sh_info).unwrap_or(usize::MAX)).map_or(0, |sh| sh.sh_addr)
        };
        let rel_section = || elf.shdr_strtab.get_at(rel_sh.sh_name).unwrap_or("").to_string();
        for (index, r) in relocs.iter().enumerate() {
            let corrupt = |problem: String| ElfError::CorruptRelocation { index, rel_section: rel_section(), problem };
            let name = reloc_name(r.r_type)
                .ok_or_else(|| corrupt(format!("unknown IA-64 relocation type {:#x}", r.r_type)))?;
            let symbol = if r.r_sym == 0 {
                "*ABS*".to_string()
            } else {
                let sym = elf.syms.get(r.r_sym).ok_or_else(|| {
                    corrupt(format!("symbol index {} is past the symbol table ({} entries)", r.r_sym, elf.syms.len()))
                })?;
                if sym.st_type() == STT_SECTION {
                    elf.section_headers
                        .get(sym.st_shndx)
                        .and_then(|sh| elf.shdr_strtab.get_at(sh.sh_name))
                        .unwrap_or("")
                        .to_string()
                } else {
                    elf.strtab.get_at(sym.st_name).unwrap_or("").to_string()
                }
            };
            list.push(ShownReloc {
                offset: r.r_offset.wrapping_sub(base),
                howto: name.strip_prefix("R_IA64_").unwrap_or(name),
                symbol,
                addend: r.r_addend.unwrap_or(0),
            });
        }
    }
    for list in &mut out {
        list.sort_by_key(|r| r.offset);
    }
    Ok(out)
}
