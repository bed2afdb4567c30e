//! Generic ELF64 loading: relocatable and executable objects to an [`Image`], with the
//! relocations applied by rules each architecture provides through [`Relocations`].
//!
//! Layout: an executable keeps every allocated section at its `sh_addr` and its
//! relocations are not applied (the linker already did). A relocatable object has all
//! `sh_addr` 0, so its allocated sections are laid out from [`REL_BASE`] one after another
//! in section-header order, each at its own alignment; a synthetic `.got` (one 8-byte slot
//! per symbol a GOT-relative relocation names) follows them. [`REL_BASE`] is below 2 GiB so
//! absolute 32-bit sign-extended relocations (non-PIC jump tables) fit.
//!
//! Undefined symbols are resolved through the caller's `externals` (the harness's data such
//! as `jiffies`) and otherwise reported by name with the place that needs them.

use std::collections::BTreeMap;

use goblin::elf::header::{EI_CLASS, EI_DATA, ELFCLASS64, ELFDATA2LSB, ELFDATA2MSB, ELFMAG, ET_REL, SELFMAG};
use goblin::elf::section_header::{SHF_ALLOC, SHF_EXECINSTR, SHN_ABS, SHN_COMMON, SHN_UNDEF, SHT_NOBITS, SHT_RELA};
use goblin::elf::sym::{STB_LOCAL, STT_FILE, STT_FUNC, STT_OBJECT, STT_SECTION};
use goblin::elf::Elf;
use thiserror::Error;

use crate::image::{Binding, Image, Section, SectionKind, Symbol, SymbolKind};
use crate::memory::Endian;

/// Where the first section of a relocatable object is placed.
pub const REL_BASE: u64 = 0x0040_0000;

/// Name of the synthetic GOT section.
pub const GOT_SECTION: &str = ".got";

/// One relocation, resolved to addresses: the values the ELF psABIs call S, A, P and G.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Reloc {
    /// Architecture-specific relocation type.
    pub r_type: u32,
    /// Offset of the patched field inside its section.
    pub offset: u64,
    /// Address of the patched field (P).
    pub place: u64,
    /// Value of the symbol (S).
    pub symbol: u64,
    /// Addend (A).
    pub addend: i64,
    /// Address of the symbol's GOT slot (G + GOT), when the rules asked for one.
    pub got: Option<u64>,
}

/// Names for error messages: which section and symbol a relocation belongs to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RelocCtx {
    /// Section the relocation patches.
    pub section: String,
    /// Name of the symbol it refers to (the section's name for section symbols).
    pub symbol: String,
    /// Name of the relocation type, from [`Relocations::name`], or its number.
    pub type_name: String,
}

impl Reloc {
    /// The object relocation `r` in a section placed at `sec_addr`, against a symbol of value
    /// `symbol`; no GOT slot yet.
    pub(crate) fn of(r: &goblin::elf::Reloc, sec_addr: u64, symbol: u64) -> Self {
        Reloc {
            r_type: r.r_type,
            offset: r.r_offset,
            place: sec_addr.wrapping_add(r.r_offset),
            symbol,
            addend: r.r_addend.unwrap_or(0),
            got: None,
        }
    }
}

impl RelocCtx {
    /// The names of a relocation of type `r_type` in `section` against `symbol`; the type is
    /// named by `rules`, or by its number when they do not know it.
    pub(crate) fn of(rules: &dyn Relocations, r_type: u32, section: &str, symbol: String) -> Self {
        let type_name = rules.name(r_type).map_or_else(|| format!("type {r_type}"), str::to_string);
        RelocCtx { section: section.to_string(), symbol, type_name }
    }
}

/// An architecture's relocation rules.
pub trait Relocations {
    /// The `e_machine` these rules are for (EM_X86_64 = 62, EM_S390 = 22).
    fn machine(&self) -> u16;
    /// Byte order of the objects.
    fn endian(&self) -> Endian;
    /// The psABI name of relocation type `r_type`, if known.
    fn name(&self, r_type: u32) -> Option<&'static str>;
    /// Whether `r_type` needs a GOT slot for its symbol.
    fn needs_got(&self, r_type: u32) -> bool;
    /// Patches `image_bytes` (the bytes of the relocation's section) at `r.offset`.
    ///
    /// # Errors
    /// Unknown type, overflow, or a field past the end of the section.
    fn apply(&self, r: &Reloc, image_bytes: &mut [u8], ctx: &RelocCtx) -> Result<(), ElfError>;

    // Linking several objects ([`crate::link`]): what IA-64 needs besides S, A, P and G.
    // Every method has a default that fits an architecture without gp or descriptors.

    /// Whether the GOT slot of `r_type` holds the address of the symbol's function
    /// descriptor rather than the symbol (IA-64 LTOFF_FPTR*).
    fn got_holds_descriptor(&self, _r_type: u32) -> bool {
        false
    }
    /// What the GOT slot of `r_type` holds (IA-64 LTOFF_TPREL22 and friends: TLS values).
    fn got_content(&self, r_type: u32) -> crate::linkage::GotContent {
        if self.got_holds_descriptor(r_type) {
            crate::linkage::GotContent::Descriptor
        } else {
            crate::linkage::GotContent::Address
        }
    }
    /// The value of a GOT slot holding a TLS `content` of `value` (S + A), given the TLS
    /// segment in `link`.
    ///
    /// # Errors
    /// No TLS segment, or a content the architecture does not define.
    fn tls_got_value(
        &self,
        _content: crate::linkage::GotContent,
        _value: u64,
        _link: &crate::linkage::LinkValues,
    ) -> Result<u64, String> {
        Err("thread-local linkage-table slots are not defined for this architecture".into())
    }
    /// Whether `r_type` needs a function descriptor for its symbol (IA-64 FPTR*, LTOFF_FPTR*).
    fn needs_descriptor(&self, r_type: u32) -> bool {
        self.got_holds_descriptor(r_type)
    }
    /// Whether a GOT slot holds S + A (one slot per symbol and addend, IA-64) rather than S.
    fn got_slot_includes_addend(&self) -> bool {
        false
    }
    /// Bytes of a function descriptor for code at `entry` with global pointer `gp`, or
    /// `None` when the architecture has none.
    fn descriptor(&self, _entry: u64, _gp: u64) -> Option<Vec<u8>> {
        None
    }
    /// Bytes of one synthesised stub entry (the core intercepts its address).
    fn stub_size(&self) -> u64 {
        16
    }
    /// The global pointer of a linked image, or `None` when the architecture has none.
    ///
    /// # Errors
    /// The short data cannot be covered (a message naming why).
    fn choose_gp(&self, _layout: &crate::linkage::GpLayout) -> Result<Option<u64>, String> {
        Ok(None)
    }
    /// COMMON symbols of at most this many bytes go to the short `.sbss` (ld's `-G`; 0: none).
    fn small_common_limit(&self) -> u64 {
        0
    }
    /// The bytes that fill alignment gaps between the input sections of code output section
    /// `name` (repeated), or `None` for zeros.
    fn code_fill(&self, _name: &str) -> Option<Vec<u8>> {
        None
    }
    /// Finishes an output section once its inputs are merged and relocated (IA-64: ld sorts
    /// the unwind table by start address); the default leaves it as it is.
    fn finish_section(&self, _name: &str, _data: &mut Vec<u8>) {}
    /// How a link may relax `r_type` (see [`crate::linkage::Relaxation`]).
    fn relaxation(&self, _r_type: u32) -> crate::linkage::Relaxation {
        crate::linkage::Relaxation::None
    }
    /// Rewrites the load a relaxed [`crate::linkage::Relaxation::Load`] relocation marks at
    /// `offset` of `image_bytes`.
    ///
    /// # Errors
    /// The field lies outside the section, or is not such a load.
    fn relax_load(&self, _image_bytes: &mut [u8], _offset: u64, _ctx: &RelocCtx) -> Result<(), ElfError> {
        Ok(())
    }
    /// Like [`Relocations::apply`] with the values only a link knows (gp, descriptor,
    /// segment and section bases, TLS base); the default ignores them.
    ///
    /// # Errors
    /// As [`Relocations::apply`].
    fn apply_linked(
        &self,
        r: &Reloc,
        _link: &crate::linkage::LinkValues,
        image_bytes: &mut [u8],
        ctx: &RelocCtx,
    ) -> Result<(), ElfError> {
        self.apply(r, image_bytes, ctx)
    }
}

/// Why bytes could not be loaded.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ElfError {
    /// The bytes do not start with the ELF magic.
    #[error("not an ELF file (no \\x7fELF magic)")]
    NotElf,
    /// Too short to hold an ELF header.
    #[error("truncated ELF header: {0} bytes")]
    TruncatedHeader(usize),
    /// `EI_CLASS` is not ELFCLASS64 (the byte found).
    #[error("{}", class_problem(*.0, "only 64-bit objects are supported"))]
    Not64Bit(u8),
    /// `EI_DATA` differs from the byte order of the rules' architecture.
    #[error(
        "ELF byte order does not match the architecture: {}, but {} objects are {}",
        data_byte(*found),
        machine_name(*machine),
        if *want == Endian::Little { "little-endian (EI_DATA 1, ELFDATA2LSB)" } else { "big-endian (EI_DATA 2, ELFDATA2MSB)" }
    )]
    WrongEndian {
        /// The `EI_DATA` byte found.
        found: u8,
        /// The architecture's `e_machine`.
        machine: u16,
        /// Its byte order.
        want: Endian,
    },
    /// `e_machine` differs from the rules'.
    #[error("wrong machine: e_machine is {found} ({}), expected {expected} ({})", machine_name(*found), machine_name(*expected))]
    WrongMachine {
        /// What the header says.
        found: u16,
        /// What the rules handle.
        expected: u16,
    },
    /// goblin rejected the headers or tables.
    #[error("malformed ELF: {0}")]
    Malformed(String),
    /// A section's bytes extend past the end of the file.
    #[error("section `{0}` extends past the end of the file")]
    TruncatedSection(String),
    /// A section is too large, or its placement overflows the address space.
    #[error("section `{0}` is too large or placed past the end of the address space")]
    SectionTooLarge(String),
    /// A relocation names a symbol that neither the object nor the harness defines.
    #[error("undefined symbol `{symbol}` (needed by a relocation in `{section}` at offset {offset:#x})")]
    UndefinedSymbol {
        /// The symbol.
        symbol: String,
        /// Section being relocated.
        section: String,
        /// Offset in it.
        offset: u64,
    },
    /// A relocation names a symbol index past the symbol table, or a COMMON symbol.
    #[error("relocation in `{section}` at offset {offset:#x}: bad symbol {symbol}")]
    BadSymbol {
        /// The index or name.
        symbol: String,
        /// Section being relocated.
        section: String,
        /// Offset in it.
        offset: u64,
    },
    /// The rules do not know the relocation type.
    #[error("unsupported relocation {type_name} against `{symbol}` in `{section}` at offset {offset:#x}")]
    UnsupportedRelocation {
        /// Name or number of the type.
        type_name: String,
        /// The symbol.
        symbol: String,
        /// Section being relocated.
        section: String,
        /// Offset in it.
        offset: u64,
    },
    /// The computed value does not fit the field.
    #[error(
        "relocation {type_name} against `{symbol}` in `{section}` at offset {offset:#x}: value {value:#x} overflows"
    )]
    Overflow {
        /// Name of the type.
        type_name: String,
        /// The symbol.
        symbol: String,
        /// Section being relocated.
        section: String,
        /// Offset in it.
        offset: u64,
        /// The value that does not fit.
        value: i128,
    },
    /// A linked program that needs the dynamic loader: its dynamic relocations (GOT, PLT,
    /// relative addresses) are not applied, so its code would run on zeros.
    #[error(
        "a linked {kind} that needs a dynamic loader ({}{relocs} dynamic relocations): acctemu does not apply dynamic \
         relocations or load shared libraries, so its code would run with unrelocated addresses; run a \
         relocatable object (.o) or a statically linked program",
        interp.as_ref().map_or(String::new(), |i| format!("interpreter {i}, "))
    )]
    DynamicallyLinked {
        /// `executable` or `shared object`.
        kind: &'static str,
        /// The PT_INTERP path, if any.
        interp: Option<String>,
        /// Entries in the dynamic and PLT relocation tables.
        relocs: usize,
    },
    /// A relocation section that cannot be right: its target section does not exist, or it
    /// is of a kind the architecture does not use.
    #[error("corrupt relocation section `{rel_section}`: {problem}")]
    CorruptRelocations {
        /// The relocation section.
        rel_section: String,
        /// What is wrong with it.
        problem: String,
    },
    /// The patched field lies outside its section.
    #[error("relocation {type_name} in `{section}` at offset {offset:#x} lies outside the section")]
    OutOfSection {
        /// Name of the type.
        type_name: String,
        /// Section being relocated.
        section: String,
        /// Offset in it.
        offset: u64,
    },
}

/// The architectures acctemu runs, with their `e_machine`, for messages.
pub const SUPPORTED_MACHINES: &str = "IA-64 (e_machine 50), x86-64 (62) and s390x (22)";

/// A readable name of an `e_machine` value: the three acctemu runs by their usual names,
/// others as goblin names them, `unknown` past its table.
pub fn machine_name(machine: u16) -> &'static str {
    match machine {
        50 => "IA-64",
        62 => "x86-64",
        22 => "s390x",
        m => match goblin::elf::header::machine_to_str(m) {
            "" | "EM_UNKNOWN" => "unknown",
            name => name,
        },
    }
}

/// What an `EI_CLASS` byte other than ELFCLASS64 is, and `supported` after it.
pub fn class_problem(class: u8, supported: &str) -> String {
    if class == 1 {
        format!("32-bit ELF (ELFCLASS32): EI_CLASS (byte 4) is 1, expected 2 (ELFCLASS64); {supported}")
    } else {
        format!("invalid ELF class: EI_CLASS (byte 4) is {class}, neither 1 (ELFCLASS32) nor 2 (ELFCLASS64, expected); {supported}")
    }
}

/// An `EI_DATA` byte described: `EI_DATA (byte 5) is 1 (ELFDATA2LSB, little-endian)`.
pub fn data_byte(data: u8) -> String {
    let what = match data {
        ELFDATA2LSB => "ELFDATA2LSB, little-endian",
        ELFDATA2MSB => "ELFDATA2MSB, big-endian",
        _ => "invalid: neither 1, ELFDATA2LSB, nor 2, ELFDATA2MSB",
    };
    format!("EI_DATA (byte 5) is {data} ({what})")
}

/// Whether `bytes` start with the ELF magic.
pub fn is_elf(bytes: &[u8]) -> bool {
    bytes.get(..SELFMAG) == Some(&ELFMAG[..])
}

/// The `e_machine` of an ELF64 header, without parsing the rest (the CLI's dispatch), in
/// the byte order `EI_DATA` gives; when that reads as none of the machines acctemu runs but
/// the other order does, the other: a flipped or invalid `EI_DATA` byte then reaches the
/// loader of the object's architecture, which names the byte, instead of another one.
pub fn machine(bytes: &[u8]) -> Option<u16> {
    if !is_elf(bytes) {
        return None;
    }
    let data = *bytes.get(EI_DATA)?;
    let raw = [*bytes.get(18)?, *bytes.get(19)?];
    let (declared, other) = if data == ELFDATA2MSB {
        (u16::from_be_bytes(raw), u16::from_le_bytes(raw))
    } else {
        (u16::from_le_bytes(raw), u16::from_be_bytes(raw))
    };
    let runs = |m: u16| matches!(m, 50 | 62 | 22);
    Some(if !runs(declared) && runs(other) { other } else { declared })
}

/// Checks an ELF64 header against `rules` (magic, class, machine, byte order) before goblin
/// parses it, so the error names what is wrong.
///
/// # Errors
/// The first problem found.
pub fn check_header_for(bytes: &[u8], rules: &dyn Relocations) -> Result<(), ElfError> {
    check_header(bytes, rules)
}

fn check_header(bytes: &[u8], rules: &dyn Relocations) -> Result<(), ElfError> {
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
    // The machine first: an object of another architecture is named as such, whatever its
    // byte order; then the byte order of this one.
    let found = machine(bytes).ok_or(ElfError::TruncatedHeader(bytes.len()))?;
    if found != rules.machine() {
        return Err(ElfError::WrongMachine { found, expected: rules.machine() });
    }
    let want = if rules.endian() == Endian::Little { ELFDATA2LSB } else { ELFDATA2MSB };
    let data = bytes.get(EI_DATA).copied().unwrap_or(0);
    if data != want {
        return Err(ElfError::WrongEndian { found: data, machine: found, want: rules.endian() });
    }
    Ok(())
}

/// Like [`load`] for a program that is not linked: each undefined symbol `known` does not
/// resolve gets a zeroed `slot`-byte slot in an `.externals` section at `base`, in order of
/// first use, listed in the image's symbols (a harness can name and fill them).
///
/// # Errors
/// Whatever [`load`] reports.
pub fn load_with_extern_slots(
    bytes: &[u8],
    rules: &dyn Relocations,
    known: &dyn Fn(&str) -> Option<u64>,
    base: u64,
    slot: u64,
) -> Result<Image, ElfError> {
    let slots: std::cell::RefCell<Vec<String>> = std::cell::RefCell::new(Vec::new());
    let externals = |name: &str| -> Option<u64> {
        if let Some(v) = known(name) {
            return Some(v);
        }
        let mut s = slots.borrow_mut();
        let idx = match s.iter().position(|n| n == name) {
            Some(i) => i,
            None => {
                s.push(name.to_string());
                s.len() - 1
            }
        };
        Some(base + idx as u64 * slot)
    };
    let mut image = load(bytes, rules, &externals)?;
    let names = slots.into_inner();
    if !names.is_empty() {
        let section = image.sections.len();
        image.sections.push(Section {
            name: ".externals".into(),
            addr: base,
            data: vec![0; names.len() * slot as usize],
            kind: SectionKind::Bss,
            align: slot,
        });
        for (i, name) in names.into_iter().enumerate() {
            image.symbols.push(Symbol {
                name,
                value: base + i as u64 * slot,
                section: Some(section),
                binding: Binding::Global,
                kind: SymbolKind::Object,
                size: slot,
            });
        }
    }
    Ok(image)
}

/// Loads an ELF64 object, relocating a relocatable one (see the module documentation).
///
/// # Errors
/// An [`ElfError`] naming what is wrong; never panics, whatever the bytes.
pub fn load(bytes: &[u8], rules: &dyn Relocations, externals: &dyn Fn(&str) -> Option<u64>) -> Result<Image, ElfError> {
    check_header(bytes, rules)?;
    let elf = Elf::parse(bytes).map_err(|e| ElfError::Malformed(e.to_string()))?;
    let relocatable = elf.header.e_type == ET_REL;
    if !relocatable {
        refuse_dynamic(&elf)?;
    }
    let mut image = Image::new(rules.endian());
    let index_of = read_sections(&elf, bytes, &mut image)?;
    if relocatable {
        lay_out(&mut image.sections, REL_BASE)?;
    }
    read_symbols(&elf, &index_of, relocatable, &mut image);
    if relocatable {
        relocate(&elf, &index_of, rules, externals, &mut image)?;
    }
    Ok(image)
}

/// Refuses a linked program with an interpreter or dynamic relocations (see
/// [`ElfError::DynamicallyLinked`]).
fn refuse_dynamic(elf: &Elf<'_>) -> Result<(), ElfError> {
    let relocs = elf.dynrelas.len() + elf.dynrels.len() + elf.pltrelocs.len();
    if relocs == 0 && elf.interpreter.is_none() {
        return Ok(());
    }
    let kind = if elf.header.e_type == goblin::elf::header::ET_DYN && elf.interpreter.is_none() {
        "shared object"
    } else {
        "executable"
    };
    // Even a static glibc program has IRELATIVE relocations its start-up code applies.
    Err(ElfError::DynamicallyLinked { kind, interp: elf.interpreter.map(str::to_string), relocs })
}

/// The allocated sections of a parsed ELF object, each at its `sh_addr` and unrelocated (as
/// `objdump` shows an object), with the map from ELF section index to image section; an
/// architecture's disassembler builds on it (the one reader of every architecture).
///
/// # Errors
/// [`ElfError::TruncatedSection`] or [`ElfError::SectionTooLarge`].
pub fn read_sections_of(elf: &Elf<'_>, bytes: &[u8], endian: Endian) -> Result<(Image, Vec<Option<usize>>), ElfError> {
    let mut image = Image::new(endian);
    let index_of = read_sections(elf, bytes, &mut image)?;
    Ok((image, index_of))
}

/// Adds the named symbols of loaded sections and the absolute ones to `image` (after
/// [`read_sections_of`] and any placement): a relocatable object's values get their
/// section's address added.
pub fn add_symbols(elf: &Elf<'_>, index_of: &[Option<usize>], relocatable: bool, image: &mut Image) {
    read_symbols(elf, index_of, relocatable, image);
}

/// The kind and bytes of the allocated section `sh` named `name` (zeros for NOBITS, at most
/// 4 GiB); a size that does not fit or a section past the end of `bytes` is an error.
pub(crate) fn section_contents(
    sh: &goblin::elf::SectionHeader,
    bytes: &[u8],
    name: &str,
) -> Result<(SectionKind, Vec<u8>), ElfError> {
    let size = usize::try_from(sh.sh_size).map_err(|_| ElfError::SectionTooLarge(name.to_string()))?;
    if sh.sh_type == SHT_NOBITS {
        if size > 1 << 32 {
            return Err(ElfError::SectionTooLarge(name.to_string()));
        }
        return Ok((SectionKind::Bss, vec![0; size]));
    }
    let slice = sh
        .sh_offset
        .checked_add(sh.sh_size)
        .and_then(|end| bytes.get(usize::try_from(sh.sh_offset).ok()?..usize::try_from(end).ok()?))
        .ok_or_else(|| ElfError::TruncatedSection(name.to_string()))?;
    let kind = if sh.sh_flags & u64::from(SHF_EXECINSTR) != 0 { SectionKind::Code } else { SectionKind::Data };
    Ok((kind, slice.to_vec()))
}

/// Copies the allocated sections; returns ELF section index -> image section index.
fn read_sections(elf: &Elf<'_>, bytes: &[u8], image: &mut Image) -> Result<Vec<Option<usize>>, ElfError> {
    let mut index_of = vec![None; elf.section_headers.len()];
    for (i, sh) in elf.section_headers.iter().enumerate() {
        if sh.sh_flags & u64::from(SHF_ALLOC) == 0 {
            continue;
        }
        let name = elf.shdr_strtab.get_at(sh.sh_name).unwrap_or("").to_string();
        let (kind, data) = section_contents(sh, bytes, &name)?;
        // A section whose end wraps past 2^64 cannot be mapped or run (executables keep
        // their addresses; the IA-64 fuzz target found the case first).
        if sh.sh_addr.checked_add(sh.sh_size).is_none() {
            return Err(ElfError::SectionTooLarge(if name.is_empty() { format!("#{i}") } else { name }));
        }
        if let Some(slot) = index_of.get_mut(i) {
            *slot = Some(image.sections.len());
        }
        image.sections.push(Section { name, addr: sh.sh_addr, data, kind, align: sh.sh_addralign.max(1) });
    }
    Ok(index_of)
}

/// Named symbols of loaded sections and absolute ones, at their final addresses.
fn read_symbols(elf: &Elf<'_>, index_of: &[Option<usize>], relocatable: bool, image: &mut Image) {
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
            let Some(idx) = index_of.get(sym.st_shndx).copied().flatten() else { continue };
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
}

/// Places sections one after another from `base`, each at its alignment.
fn lay_out(sections: &mut [Section], base: u64) -> Result<(), ElfError> {
    let mut next = base;
    for s in sections.iter_mut() {
        s.addr = align_up(next, s.align).ok_or_else(|| ElfError::SectionTooLarge(s.name.clone()))?;
        next = s.addr.checked_add(s.size()).ok_or_else(|| ElfError::SectionTooLarge(s.name.clone()))?;
    }
    Ok(())
}

fn align_up(v: u64, align: u64) -> Option<u64> {
    let align = align.max(1);
    v.checked_add(align - 1).map(|x| x / align * align)
}

/// A relocation's symbol: name and value, or why it has none.
fn resolve_symbol(
    elf: &Elf<'_>,
    index_of: &[Option<usize>],
    image: &Image,
    externals: &dyn Fn(&str) -> Option<u64>,
    r_sym: usize,
    section: &str,
    offset: u64,
) -> Result<(String, u64), ElfError> {
    let bad = |symbol: String| ElfError::BadSymbol { symbol, section: section.to_string(), offset };
    let sym = elf
        .syms
        .get(r_sym)
        .ok_or_else(|| bad(format!("index {r_sym} (the symbol table has {} entries)", elf.syms.len())))?;
    let mut name = elf.strtab.get_at(sym.st_name).unwrap_or("").to_string();
    if sym.st_shndx == SHN_UNDEF as usize {
        if r_sym == 0 {
            return Ok((String::new(), 0));
        }
        let value = externals(&name).ok_or_else(|| ElfError::UndefinedSymbol {
            symbol: name.clone(),
            section: section.to_string(),
            offset,
        })?;
        return Ok((name, value));
    }
    if sym.st_shndx == SHN_ABS as usize {
        return Ok((name, sym.st_value));
    }
    if sym.st_shndx == SHN_COMMON as usize {
        return Err(bad(format!("`{name}` (COMMON; compile with -fno-common)")));
    }
    let target = index_of
        .get(sym.st_shndx)
        .copied()
        .flatten()
        .and_then(|i| image.sections.get(i))
        .ok_or_else(|| bad(format!("`{name}` of an unloaded section")))?;
    if name.is_empty() {
        name.clone_from(&target.name);
    }
    Ok((name, target.addr.wrapping_add(sym.st_value)))
}

/// One relocation before its GOT slot is known.
struct Pending {
    target: usize,
    reloc: Reloc,
    ctx: RelocCtx,
}

/// Applies every RELA section that targets a loaded section.
fn relocate(
    elf: &Elf<'_>,
    index_of: &[Option<usize>],
    rules: &dyn Relocations,
    externals: &dyn Fn(&str) -> Option<u64>,
    image: &mut Image,
) -> Result<(), ElfError> {
    let mut pending = Vec::new();
    let mut got_slots: BTreeMap<(String, u64), u64> = BTreeMap::new();
    for (rel_idx, relocs) in &elf.shdr_relocs {
        let Some(sh) = elf.section_headers.get(*rel_idx) else { continue };
        let corrupt = |problem: String| ElfError::CorruptRelocations {
            rel_section: elf.shdr_strtab.get_at(sh.sh_name).unwrap_or("").to_string(),
            problem,
        };
        let target_elf = usize::try_from(sh.sh_info).unwrap_or(usize::MAX);
        if target_elf >= elf.section_headers.len() && !relocs.is_empty() {
            return Err(corrupt(format!(
                "it applies to section index {target_elf}, past the {} section headers",
                elf.section_headers.len()
            )));
        }
        // Relocations of sections that are not loaded (debug info) change nothing that runs.
        let Some(target) = index_of.get(target_elf).copied().flatten() else { continue };
        // Skipping a REL section would run its target unrelocated; these psABIs use RELA only.
        if sh.sh_type != SHT_RELA {
            return Err(corrupt(format!(
                "a REL section (sh_type {}, no addends); {} objects use RELA relocations only",
                sh.sh_type,
                machine_name(rules.machine())
            )));
        }
        let (sec_name, sec_addr) = match image.sections.get(target) {
            Some(s) => (s.name.clone(), s.addr),
            None => continue,
        };
        for r in relocs.iter() {
            let (symbol_name, symbol) =
                resolve_symbol(elf, index_of, image, externals, r.r_sym, &sec_name, r.r_offset)?;
            if rules.needs_got(r.r_type) {
                let next = got_slots.len() as u64 * 8;
                got_slots.entry((symbol_name.clone(), symbol)).or_insert(next);
            }
            pending.push(Pending {
                target,
                reloc: Reloc::of(&r, sec_addr, symbol),
                ctx: RelocCtx::of(rules, r.r_type, &sec_name, symbol_name),
            });
        }
    }
    let got_base = add_got(image, &got_slots, rules.endian())?;
    for mut p in pending {
        if rules.needs_got(p.reloc.r_type) {
            p.reloc.got = got_slots.get(&(p.ctx.symbol.clone(), p.reloc.symbol)).map(|off| got_base + off);
        }
        let Some(section) = image.sections.get_mut(p.target) else { continue };
        rules.apply(&p.reloc, &mut section.data, &p.ctx)?;
    }
    Ok(())
}

/// Appends the synthetic GOT after the last section; returns its address.
fn add_got(image: &mut Image, slots: &BTreeMap<(String, u64), u64>, endian: Endian) -> Result<u64, ElfError> {
    let end = image.sections.iter().map(|s| s.addr.saturating_add(s.size())).max().unwrap_or(REL_BASE);
    let base = align_up(end, 8).ok_or_else(|| ElfError::SectionTooLarge(GOT_SECTION.into()))?;
    if slots.is_empty() {
        return Ok(base);
    }
    let mut data = vec![0u8; slots.len() * 8];
    for ((_, value), off) in slots {
        let bytes = if endian == Endian::Little { value.to_le_bytes() } else { value.to_be_bytes() };
        let start = usize::try_from(*off).unwrap_or(usize::MAX);
        if let Some(dst) = data.get_mut(start..start.saturating_add(8)) {
            dst.copy_from_slice(&bytes);
        }
    }
    image.sections.push(Section { name: GOT_SECTION.into(), addr: base, data, kind: SectionKind::Data, align: 8 });
    Ok(base)
}

/// Writes `value` as `len` bytes at `offset` of `bytes` in `endian` order; the error case
/// is a field outside the section.
///
/// # Errors
/// [`ElfError::OutOfSection`] when the field does not fit in `bytes`.
pub fn patch(
    bytes: &mut [u8],
    offset: u64,
    len: usize,
    value: u64,
    endian: Endian,
    ctx: &RelocCtx,
) -> Result<(), ElfError> {
    let out = || ElfError::OutOfSection { type_name: ctx.type_name.clone(), section: ctx.section.clone(), offset };
    let start = usize::try_from(offset).map_err(|_| out())?;
    let field = bytes.get_mut(start..start.checked_add(len).ok_or_else(out)?).ok_or_else(out)?;
    let all = if endian == Endian::Little { value.to_le_bytes() } else { value.to_be_bytes() };
    let src = if endian == Endian::Little { all.get(..len) } else { all.get(8 - len.min(8)..) };
    field.copy_from_slice(src.ok_or_else(out)?);
    Ok(())
}

#[cfg(test)]
mod tests;
