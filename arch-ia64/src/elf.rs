//! IA-64 ELF objects (as made by GNU as and ld) to an [`Image`].
//!
//! Only what disassembly and execution need is kept: the allocated sections with their
//! bytes, and the named symbols. Relocations are not applied (objdump -d does not apply
//! them either), so a branch to an undefined symbol keeps whatever its bits say. That is
//! right for disassembly and wrong for execution: [`load_for_run`] refuses an object whose
//! relocations would change the code or data that runs, naming the first one.
//!
//! Layout: an executable or shared object keeps every section at its `sh_addr`. In a
//! relocatable object every allocated section has `sh_addr` 0, so they would overlap;
//! then `.text` stays at 0 (so addresses match `objdump -d`) and the other allocated
//! sections follow it one after another, each at its own alignment, in section-header
//! order. Symbol values of a relocatable object are section offsets and get their
//! section's address added.

use emu_core::image::{Binding, Image, Section, SectionKind, Symbol, SymbolKind};
use emu_core::memory::Endian;
use goblin::elf::header::{EI_CLASS, EI_DATA, ELFCLASS64, ELFDATA2LSB, ELFMAG, ET_REL, SELFMAG};
use goblin::elf::section_header::{SHF_ALLOC, SHF_EXECINSTR, SHN_ABS, SHN_UNDEF, SHT_NOBITS};
use goblin::elf::sym::{STB_LOCAL, STT_FILE, STT_FUNC, STT_OBJECT, STT_SECTION};
use goblin::elf::Elf;

/// `e_machine` of IA-64.
pub const EM_IA_64: u16 = 50;

/// Why bytes could not be loaded as an IA-64 object.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ElfError {
    /// The bytes do not start with the ELF magic.
    #[error("not an ELF file (no \\x7fELF magic)")]
    NotElf,
    /// Too short to hold an ELF header.
    #[error("truncated ELF header: {0} bytes")]
    TruncatedHeader(usize),
    /// `EI_CLASS` is not ELFCLASS64 (the byte found); IA-64 objects are 64-bit.
    #[error("{}", emu_core::elf::class_problem(*.0, "IA-64 objects are 64-bit"))]
    Not64Bit(u8),
    /// An IA-64 object whose `EI_DATA` is not ELFDATA2LSB (the byte found): big-endian
    /// (HP-UX) or invalid; Linux IA-64 objects are little-endian.
    #[error(
        "{}: {}, but only little-endian IA-64 objects (EI_DATA 1, ELFDATA2LSB, as Linux makes them) are supported",
        if *.0 == 2 { "big-endian ELF" } else { "invalid ELF data encoding" },
        emu_core::elf::data_byte(*.0)
    )]
    BigEndian(u8),
    /// `e_machine` is not `EM_IA_64`.
    #[error(
        "not an IA-64 object: e_machine is {} ({}), expected 50 (EM_IA_64); `acctemu run` takes {}, `acctemu disasm` IA-64 only",
        .0,
        emu_core::elf::machine_name(*.0),
        emu_core::elf::SUPPORTED_MACHINES
    )]
    WrongMachine(u16),
    /// goblin rejected the headers or tables.
    #[error("malformed ELF: {0}")]
    Malformed(String),
    /// A section's bytes extend past the end of the file.
    #[error("section `{name}` is truncated: bytes {offset:#x}..{end:#x} past the end of the file ({len:#x} bytes)")]
    TruncatedSection {
        /// Section name.
        name: String,
        /// File offset of the section.
        offset: u64,
        /// End of the section in the file.
        end: u64,
        /// File length.
        len: usize,
    },
    /// A section is too large to hold in memory, or its placement overflows the address space.
    #[error("section `{0}` is too large or placed past the end of the address space")]
    SectionTooLarge(String),
    /// A well-formed relocation against loaded code or data, which the loader does not apply.
    #[error("{0}")]
    UnappliedRelocation(Box<UnappliedRelocation>),
    /// A relocation that cannot be right: unknown type, symbol index past the symbol table,
    /// field past its section, or a target section that does not exist.
    #[error("corrupt relocation #{index} in `{rel_section}`: {problem}")]
    CorruptRelocation {
        /// Position of the entry in its relocation section, from 0.
        index: usize,
        /// The relocation section (`.rela.text`).
        rel_section: String,
        /// What is wrong with it.
        problem: String,
    },
}

/// A relocation [`load_for_run`] refuses because the loader would not apply it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "relocation {type_name} against `{symbol}`{addend} in `{section}` at offset {offset:#x} is not applied \
     (acctemu does not relocate IA-64 objects yet, and the code would run with the field's unrelocated bits); \
     link the object first (e.g. `ld -e ENTRY -Ttext=ADDR x.o`), or run its .S source"
)]
pub struct UnappliedRelocation {
    /// psABI name of the type (`R_IA64_IMM64`).
    pub type_name: String,
    /// The symbol (the section's name for a section symbol).
    pub symbol: String,
    /// ` + 0x10`, ` - 0x8`, or empty for no addend.
    pub addend: String,
    /// The section the relocation patches.
    pub section: String,
    /// Offset in that section.
    pub offset: u64,
}

/// Whether `bytes` start with the ELF magic (the CLI's file-type test).
pub fn is_elf(bytes: &[u8]) -> bool {
    bytes.get(..SELFMAG) == Some(&ELFMAG[..])
}

/// Checks the identification and machine before goblin sees the bytes, so the error says
/// what is wrong rather than what goblin tripped over.
fn check_header(bytes: &[u8]) -> Result<(), ElfError> {
    if !is_elf(bytes) {
        return Err(ElfError::NotElf);
    }
    if bytes.len() < 64 {
        return Err(ElfError::TruncatedHeader(bytes.len()));
    }
    let class = bytes.get(EI_CLASS).copied().unwrap_or(0);
    if class != ELFCLASS64 {
        return Err(ElfError::Not64Bit(class));
    }
    // The machine before the byte order, so that another architecture's object is named as
    // such (an x86 object with a flipped EI_DATA byte is not "a big-endian IA-64 object").
    let machine = emu_core::elf::machine(bytes).ok_or(ElfError::TruncatedHeader(bytes.len()))?;
    if machine != EM_IA_64 {
        return Err(ElfError::WrongMachine(machine));
    }
    let data = bytes.get(EI_DATA).copied().unwrap_or(0);
    if data != ELFDATA2LSB {
        return Err(ElfError::BigEndian(data));
    }
    Ok(())
}

/// Loads an IA-64 relocatable or executable object into an [`Image`] (see the module
/// documentation for the layout).
///
/// # Errors
/// An [`ElfError`] naming what is wrong; never panics, whatever the bytes.
pub fn load(bytes: &[u8]) -> Result<Image, ElfError> {
    check_header(bytes)?;
    let elf = Elf::parse(bytes).map_err(|e| ElfError::Malformed(e.to_string()))?;
    load_parsed(&elf, bytes, true).map(|(image, _)| image)
}

/// Like [`load`], but every section stays at its own `sh_addr` (in a relocatable object all
/// at 0, overlapping, as `objdump -d` shows them), symbol values stay as the file gives
/// them; with the map from ELF section index to index in [`Image::sections`] and the parsed
/// file, for a caller that also reads the relocations (the disassembler's `-r`).
///
/// # Errors
/// What [`load`] reports.
pub(crate) fn load_unplaced(bytes: &[u8]) -> Result<(Image, Vec<Option<usize>>, Elf<'_>), ElfError> {
    check_header(bytes)?;
    let elf = Elf::parse(bytes).map_err(|e| ElfError::Malformed(e.to_string()))?;
    let (image, index_of) = load_parsed(&elf, bytes, false)?;
    Ok((image, index_of, elf))
}

/// Like [`load`], for running: refuses an object with a relocation against a loaded section
/// (other than the unwind table, which only an unwinder reads), since the loader does not
/// apply relocations and the code would silently compute with the unrelocated bits.
///
/// # Errors
/// What [`load`] reports, [`ElfError::CorruptRelocation`] for a relocation that cannot be
/// right, [`ElfError::UnappliedRelocation`] for the first well-formed one.
pub fn load_for_run(bytes: &[u8]) -> Result<Image, ElfError> {
    check_header(bytes)?;
    let elf = Elf::parse(bytes).map_err(|e| ElfError::Malformed(e.to_string()))?;
    check_relocations(&elf, true)?;
    load_parsed(&elf, bytes, true).map(|(image, _)| image)
}

/// Checks that an object's relocations can be right (known types, symbol indices inside
/// the symbol table, fields inside their sections, existing target sections) before a link
/// applies them, so a corrupt one is named as such.
///
/// # Errors
/// What [`load`] reports for the header, [`ElfError::CorruptRelocation`] for the first
/// relocation that cannot be right.
pub fn check_relocations_sane(bytes: &[u8]) -> Result<(), ElfError> {
    check_header(bytes)?;
    let elf = Elf::parse(bytes).map_err(|e| ElfError::Malformed(e.to_string()))?;
    check_relocations(&elf, false)
}

/// The image of a parsed object (see [`load`]; `place`: lay out a relocatable object's
/// sections one after another), and the map from ELF section index to image section.
fn load_parsed(elf: &Elf<'_>, bytes: &[u8], place: bool) -> Result<(Image, Vec<Option<usize>>), ElfError> {
    let relocatable = elf.header.e_type == ET_REL;
    let mut image = Image::new(Endian::Little);
    // ELF section index -> index in `image.sections`.
    let mut index_of = vec![None; elf.section_headers.len()];
    let mut alloc = Vec::new();
    for (i, sh) in elf.section_headers.iter().enumerate() {
        if sh.sh_flags & u64::from(SHF_ALLOC) == 0 {
            continue;
        }
        let name = elf.shdr_strtab.get_at(sh.sh_name).unwrap_or("").to_string();
        let size = usize::try_from(sh.sh_size).map_err(|_| ElfError::SectionTooLarge(name.clone()))?;
        let (kind, data) = if sh.sh_type == SHT_NOBITS {
            (SectionKind::Bss, zeros(size, &name)?)
        } else {
            let end = sh.sh_offset.checked_add(sh.sh_size);
            let slice = end
                .and_then(|end| bytes.get(usize::try_from(sh.sh_offset).ok()?..usize::try_from(end).ok()?))
                .ok_or_else(|| ElfError::TruncatedSection {
                    name: name.clone(),
                    offset: sh.sh_offset,
                    end: end.unwrap_or(u64::MAX),
                    len: bytes.len(),
                })?;
            let kind = if sh.sh_flags & u64::from(SHF_EXECINSTR) != 0 { SectionKind::Code } else { SectionKind::Data };
            (kind, slice.to_vec())
        };
        if let Some(slot) = index_of.get_mut(i) {
            *slot = Some(image.sections.len());
        }
        // A section whose end wraps past 2^64 cannot be mapped, disassembled or run; its
        // addresses would overflow everywhere downstream (fuzz target `elf_ia64`).
        if sh.sh_addr.checked_add(sh.sh_size).is_none() {
            // A section without a readable name is named by its index.
            return Err(ElfError::SectionTooLarge(if name.is_empty() { format!("#{i}") } else { name }));
        }
        alloc.push(sh.sh_addr);
        image.sections.push(Section { name, addr: sh.sh_addr, data, kind, align: sh.sh_addralign.max(1) });
    }
    if place && relocatable && alloc.iter().all(|a| *a == 0) {
        lay_out(&mut image.sections)?;
    }
    for sym in elf.syms.iter() {
        let kind = sym.st_type();
        if kind == STT_SECTION || kind == STT_FILE || sym.st_shndx == SHN_UNDEF as usize {
            continue;
        }
        let name = match elf.strtab.get_at(sym.st_name) {
            Some(n) if !n.is_empty() => n.to_string(),
            _ => continue,
        };
        let binding = if sym.st_bind() == STB_LOCAL { Binding::Local } else { Binding::Global };
        let (section, value, kind) = if sym.st_shndx == SHN_ABS as usize {
            (None, sym.st_value, SymbolKind::Absolute)
        } else {
            // Symbols of sections that are not loaded (debug info, COMMON) are dropped.
            let Some(idx) = index_of.get(sym.st_shndx).copied().flatten() else {
                continue;
            };
            let base = if relocatable { image.sections.get(idx).map_or(0, |s| s.addr) } else { 0 };
            let kind = match kind {
                STT_FUNC => SymbolKind::Function,
                STT_OBJECT => SymbolKind::Object,
                _ => SymbolKind::Label,
            };
            (Some(idx), sym.st_value.wrapping_add(base), kind)
        };
        image.symbols.push(Symbol { name, value, section, binding, kind, size: sym.st_size });
    }
    Ok((image, index_of))
}

/// `sh_type` of the IA-64 unwind table (`.IA_64.unwind`).
const SHT_IA_64_UNWIND: u32 = 0x7000_0001;

/// The first relocation that would change a loaded section, as an error (when `refuse`;
/// else only the corrupt ones).
fn check_relocations(elf: &Elf<'_>, refuse: bool) -> Result<(), ElfError> {
    for (rel_idx, relocs) in &elf.shdr_relocs {
        let Some(rel_sh) = elf.section_headers.get(*rel_idx) else { continue };
        let rel_section = section_name(elf, *rel_idx);
        let corrupt = |index: usize, problem: String| ElfError::CorruptRelocation {
            index,
            rel_section: rel_section.clone(),
            problem,
        };
        if relocs.is_empty() {
            continue;
        }
        let target_idx = usize::try_from(rel_sh.sh_info).unwrap_or(usize::MAX);
        // A dynamic relocation section (sh_info 0) of a linked object patches addresses,
        // not one section; the dynamic loader would apply it, and there is none here.
        let target = if target_idx == 0 && elf.header.e_type != ET_REL {
            None
        } else {
            let sh = elf.section_headers.get(target_idx).ok_or_else(|| {
                corrupt(
                    0,
                    format!(
                        "it applies to section index {target_idx}, past the {} section headers",
                        elf.section_headers.len()
                    ),
                )
            })?;
            // Relocations of debug info and of the unwind table do not change what runs.
            if sh.sh_flags & u64::from(SHF_ALLOC) == 0 || sh.sh_type == SHT_IA_64_UNWIND {
                continue;
            }
            Some((section_name(elf, target_idx), sh.sh_size, sh.sh_type == SHT_NOBITS))
        };
        for (index, r) in relocs.iter().enumerate() {
            let type_name = reloc_name(r.r_type)
                .ok_or_else(|| corrupt(index, format!("unknown IA-64 relocation type {:#x}", r.r_type)))?;
            // R_IA64_NONE patches nothing.
            if r.r_type == 0 {
                continue;
            }
            let sym = elf.syms.get(r.r_sym).ok_or_else(|| {
                corrupt(
                    index,
                    format!(
                        "{type_name}: symbol index {} is past the symbol table ({} entries)",
                        r.r_sym,
                        elf.syms.len()
                    ),
                )
            })?;
            let section = match &target {
                Some((name, size, nobits)) => {
                    if *nobits || r.r_offset >= *size {
                        return Err(corrupt(
                            index,
                            format!(
                                "{type_name} at offset {:#x} is past the end of `{name}` ({size:#x} bytes)",
                                r.r_offset
                            ),
                        ));
                    }
                    name.clone()
                }
                None => "(dynamic)".to_string(),
            };
            let symbol = if sym.st_type() == STT_SECTION {
                section_name(elf, sym.st_shndx)
            } else {
                elf.strtab.get_at(sym.st_name).unwrap_or("").to_string()
            };
            if !refuse {
                continue;
            }
            let addend = match r.r_addend.unwrap_or(0) {
                0 => String::new(),
                a if a < 0 => format!(" - {:#x}", a.unsigned_abs()),
                a => format!(" + {a:#x}"),
            };
            return Err(ElfError::UnappliedRelocation(Box::new(UnappliedRelocation {
                type_name: type_name.to_string(),
                symbol,
                addend,
                section,
                offset: r.r_offset,
            })));
        }
    }
    Ok(())
}

/// A section's name, or `#N` when it has none (or the index is out of range).
fn section_name(elf: &Elf<'_>, idx: usize) -> String {
    match elf.section_headers.get(idx).and_then(|sh| elf.shdr_strtab.get_at(sh.sh_name)) {
        Some(n) if !n.is_empty() => n.to_string(),
        _ => format!("#{idx}"),
    }
}

/// The psABI name of IA-64 relocation type `r_type` (binutils `include/elf/ia64.h`).
pub fn reloc_name(r_type: u32) -> Option<&'static str> {
    RELOC_NAMES.iter().find(|(t, _)| *t == r_type).map(|(_, n)| *n)
}

/// IA-64 relocation types and their names (Intel IA-64 psABI, binutils `elf/ia64.h`).
const RELOC_NAMES: &[(u32, &str)] = &[
    (0x00, "R_IA64_NONE"),
    (0x21, "R_IA64_IMM14"),
    (0x22, "R_IA64_IMM22"),
    (0x23, "R_IA64_IMM64"),
    (0x24, "R_IA64_DIR32MSB"),
    (0x25, "R_IA64_DIR32LSB"),
    (0x26, "R_IA64_DIR64MSB"),
    (0x27, "R_IA64_DIR64LSB"),
    (0x2a, "R_IA64_GPREL22"),
    (0x2b, "R_IA64_GPREL64I"),
    (0x2c, "R_IA64_GPREL32MSB"),
    (0x2d, "R_IA64_GPREL32LSB"),
    (0x2e, "R_IA64_GPREL64MSB"),
    (0x2f, "R_IA64_GPREL64LSB"),
    (0x32, "R_IA64_LTOFF22"),
    (0x33, "R_IA64_LTOFF64I"),
    (0x3a, "R_IA64_PLTOFF22"),
    (0x3b, "R_IA64_PLTOFF64I"),
    (0x3e, "R_IA64_PLTOFF64MSB"),
    (0x3f, "R_IA64_PLTOFF64LSB"),
    (0x43, "R_IA64_FPTR64I"),
    (0x44, "R_IA64_FPTR32MSB"),
    (0x45, "R_IA64_FPTR32LSB"),
    (0x46, "R_IA64_FPTR64MSB"),
    (0x47, "R_IA64_FPTR64LSB"),
    (0x48, "R_IA64_PCREL60B"),
    (0x49, "R_IA64_PCREL21B"),
    (0x4a, "R_IA64_PCREL21M"),
    (0x4b, "R_IA64_PCREL21F"),
    (0x4c, "R_IA64_PCREL32MSB"),
    (0x4d, "R_IA64_PCREL32LSB"),
    (0x4e, "R_IA64_PCREL64MSB"),
    (0x4f, "R_IA64_PCREL64LSB"),
    (0x52, "R_IA64_LTOFF_FPTR22"),
    (0x53, "R_IA64_LTOFF_FPTR64I"),
    (0x54, "R_IA64_LTOFF_FPTR32MSB"),
    (0x55, "R_IA64_LTOFF_FPTR32LSB"),
    (0x56, "R_IA64_LTOFF_FPTR64MSB"),
    (0x57, "R_IA64_LTOFF_FPTR64LSB"),
    (0x5c, "R_IA64_SEGREL32MSB"),
    (0x5d, "R_IA64_SEGREL32LSB"),
    (0x5e, "R_IA64_SEGREL64MSB"),
    (0x5f, "R_IA64_SEGREL64LSB"),
    (0x64, "R_IA64_SECREL32MSB"),
    (0x65, "R_IA64_SECREL32LSB"),
    (0x66, "R_IA64_SECREL64MSB"),
    (0x67, "R_IA64_SECREL64LSB"),
    (0x6c, "R_IA64_REL32MSB"),
    (0x6d, "R_IA64_REL32LSB"),
    (0x6e, "R_IA64_REL64MSB"),
    (0x6f, "R_IA64_REL64LSB"),
    (0x74, "R_IA64_LTV32MSB"),
    (0x75, "R_IA64_LTV32LSB"),
    (0x76, "R_IA64_LTV64MSB"),
    (0x77, "R_IA64_LTV64LSB"),
    (0x79, "R_IA64_PCREL21BI"),
    (0x7a, "R_IA64_PCREL22"),
    (0x7b, "R_IA64_PCREL64I"),
    (0x80, "R_IA64_IPLTMSB"),
    (0x81, "R_IA64_IPLTLSB"),
    (0x84, "R_IA64_COPY"),
    (0x85, "R_IA64_SUB"),
    (0x86, "R_IA64_LTOFF22X"),
    (0x87, "R_IA64_LDXMOV"),
    (0x91, "R_IA64_TPREL14"),
    (0x92, "R_IA64_TPREL22"),
    (0x93, "R_IA64_TPREL64I"),
    (0x96, "R_IA64_TPREL64MSB"),
    (0x97, "R_IA64_TPREL64LSB"),
    (0x9a, "R_IA64_LTOFF_TPREL22"),
    (0xa6, "R_IA64_DTPMOD64MSB"),
    (0xa7, "R_IA64_DTPMOD64LSB"),
    (0xaa, "R_IA64_LTOFF_DTPMOD22"),
    (0xb1, "R_IA64_DTPREL14"),
    (0xb2, "R_IA64_DTPREL22"),
    (0xb3, "R_IA64_DTPREL64I"),
    (0xb4, "R_IA64_DTPREL32MSB"),
    (0xb5, "R_IA64_DTPREL32LSB"),
    (0xb6, "R_IA64_DTPREL64MSB"),
    (0xb7, "R_IA64_DTPREL64LSB"),
    (0xba, "R_IA64_LTOFF_DTPREL22"),
];

/// A zero-filled buffer for a NOBITS section, refusing absurd sizes instead of aborting.
fn zeros(size: usize, name: &str) -> Result<Vec<u8>, ElfError> {
    const LIMIT: usize = 1 << 32;
    if size > LIMIT {
        return Err(ElfError::SectionTooLarge(name.to_string()));
    }
    Ok(vec![0; size])
}

/// Places the sections of a relocatable object: `.text` at 0, the rest after it.
fn lay_out(sections: &mut [Section]) -> Result<(), ElfError> {
    let text = sections.iter().position(|s| s.name == ".text");
    let mut next = text.and_then(|i| sections.get(i)).map_or(0, Section::size);
    for (i, s) in sections.iter_mut().enumerate() {
        if Some(i) == text {
            s.addr = 0;
            continue;
        }
        let align = s.align.max(1);
        let addr = next
            .checked_add(align - 1)
            .map(|v| v / align * align)
            .ok_or_else(|| ElfError::SectionTooLarge(s.name.clone()))?;
        s.addr = addr;
        next = addr.checked_add(s.size()).ok_or_else(|| ElfError::SectionTooLarge(s.name.clone()))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rejects_what_is_not_an_ia64_object() {
        assert_eq!(load(b"hello"), Err(ElfError::NotElf));
        assert_eq!(load(b"\x7fELF\x02\x01"), Err(ElfError::TruncatedHeader(6)));
        let mut h = vec![0u8; 64];
        h[..4].copy_from_slice(b"\x7fELF");
        h[EI_CLASS] = 1;
        assert_eq!(load(&h), Err(ElfError::Not64Bit(1)));
        h[EI_CLASS] = 7;
        assert_eq!(load(&h), Err(ElfError::Not64Bit(7)));
        h[EI_CLASS] = ELFCLASS64;
        h[18] = 50;
        h[EI_DATA] = 2;
        assert_eq!(load(&h), Err(ElfError::BigEndian(2)));
        h[EI_DATA] = ELFDATA2LSB;
        h[18] = 62;
        assert_eq!(load(&h), Err(ElfError::WrongMachine(62)));
        // An x86 header with a flipped EI_DATA byte is still an x86 header.
        h[EI_DATA] = 2;
        assert_eq!(load(&h), Err(ElfError::WrongMachine(62)));
    }

    #[test]
    fn relocation_names_are_sorted_unique_and_cover_what_gnu_as_emits() {
        assert!(RELOC_NAMES.windows(2).all(|w| w[0].0 < w[1].0), "sorted by type, no duplicates");
        // Types seen in the golden objects, named as readelf names them.
        for (t, n) in [(0x23, "R_IA64_IMM64"), (0x25, "R_IA64_DIR32LSB"), (0x27, "R_IA64_DIR64LSB")] {
            assert_eq!(reloc_name(t), Some(n));
        }
        for (t, n) in [(0x48, "R_IA64_PCREL60B"), (0x49, "R_IA64_PCREL21B"), (0x4b, "R_IA64_PCREL21F")] {
            assert_eq!(reloc_name(t), Some(n));
        }
        assert_eq!(reloc_name(0x5f), Some("R_IA64_SEGREL64LSB"));
        assert_eq!(reloc_name(0xff), None);
    }

    #[test]
    fn only_relocations_of_code_or_data_are_refused() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests");
        let read = |p: &str| std::fs::read(dir.join(p)).unwrap_or_default();
        assert!(load_for_run(&read("corpus/ia64/golden/alu.o")).is_ok());
        // The unwind table's SEGREL64LSB relocations change nothing that runs.
        assert!(load_for_run(&read("data/objects/unwind_only.o")).is_ok());
        match load_for_run(&read("corpus/ia64/golden/directives.o")) {
            Err(ElfError::UnappliedRelocation(r)) => {
                assert_eq!((r.section.as_str(), r.type_name.as_str()), (".data", "R_IA64_DIR64LSB"));
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn lays_out_relocatable_sections_after_text() {
        let sec = |name: &str, len: usize, align: u64| Section {
            name: name.to_string(),
            addr: 0,
            data: vec![0; len],
            kind: SectionKind::Data,
            align,
        };
        let mut s = vec![sec(".data", 3, 8), sec(".text", 0x20, 16), sec(".bss", 1, 16)];
        assert_eq!(lay_out(&mut s), Ok(()));
        let addrs: Vec<u64> = s.iter().map(|s| s.addr).collect();
        assert_eq!(addrs, vec![0x20, 0, 0x30]);
    }
}
