//! IA-64 ELF objects (as made by GNU as and ld) to an [`Image`].
//!
//! Only what disassembly and execution need is kept: the allocated sections with their
//! bytes, and the named symbols. Relocations are not applied (objdump -d does not apply
//! them either), so a branch to an undefined symbol keeps whatever its bits say.
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
    /// A 32-bit ELF; IA-64 objects are ELFCLASS64.
    #[error("32-bit ELF (ELFCLASS32); IA-64 objects are 64-bit")]
    Not64Bit,
    /// A big-endian ELF; Linux IA-64 objects are little-endian.
    #[error("big-endian ELF; only little-endian IA-64 objects are supported")]
    BigEndian,
    /// `e_machine` is not `EM_IA_64`.
    #[error("not an IA-64 object: e_machine is {0}, expected 50 (EM_IA_64)")]
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
    if bytes.get(EI_CLASS) != Some(&ELFCLASS64) {
        return Err(ElfError::Not64Bit);
    }
    if bytes.get(EI_DATA) != Some(&ELFDATA2LSB) {
        return Err(ElfError::BigEndian);
    }
    let machine = match bytes.get(18..20) {
        Some(&[lo, hi]) => u16::from_le_bytes([lo, hi]),
        _ => return Err(ElfError::TruncatedHeader(bytes.len())),
    };
    if machine != EM_IA_64 {
        return Err(ElfError::WrongMachine(machine));
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
    if relocatable && alloc.iter().all(|a| *a == 0) {
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
    Ok(image)
}

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
        assert_eq!(load(&h), Err(ElfError::Not64Bit));
        h[EI_CLASS] = ELFCLASS64;
        h[EI_DATA] = 2;
        assert_eq!(load(&h), Err(ElfError::BigEndian));
        h[EI_DATA] = ELFDATA2LSB;
        h[18] = 62;
        assert_eq!(load(&h), Err(ElfError::WrongMachine(62)));
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
