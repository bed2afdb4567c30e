//! ELF64 relocatable objects as GNU as 2.40 writes them for IA-64 (`ia64-linux-gnu-as -x`).
//!
//! The assembler's layout hands over [`ObjectParts`]: the sections (each at offset 0, fields
//! that need the linker left zero), the symbols in the order gas creates them, the relocations
//! (section, offset, `R_IA64_*` type, symbol, addend) and the unwind procedures. This module
//! turns them into the file: section headers in gas's order (`.text`, `.data`, `.bss`, then
//! the others in first-use order, each `.rela.X` right after X, the unwind sections where the
//! first unwind entry was finished, `.symtab`, `.strtab`, `.shstrtab` last), the symbol table
//! (null, sections and locals in creation order, globals), RELA relocations and the
//! `.IA_64.unwind_info`/`.IA_64.unwind` pair. Facts: `/work/shared/reference/ia64-elf.md`.

pub(in crate::asm) mod capture;
mod file;
mod group;
pub(in crate::asm) mod obj_state;
pub(in crate::asm) mod resolve;
mod strtab;
mod symtab;
pub mod unwind;
mod unwind_dirs;

pub use file::write_object;
pub use unwind::{UnwindDesc, UnwindProc};

use thiserror::Error;

/// e_flags GNU as sets by default: EF_IA_64_ABI64.
pub const EF_IA_64_ABI64: u32 = 0x10;
/// Added by `-mconstant-gp` (the kernel's flag).
pub const EF_IA_64_CONS_GP: u32 = 0x40;
/// Added by `-mauto-pic` (no function descriptors, constant gp).
pub const EF_IA_64_NOFUNCDESC_CONS_GP: u32 = 0x80;

/// Something gas created, in creation order; the writer derives both the order of the
/// sections and the order of the local and global symbols from this one list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Created {
    /// A section other than `.text`, `.data` and `.bss` (which gas creates first), by index in
    /// [`ObjectParts::sections`].
    Section(usize),
    /// The `.IA_64.unwind_info`/`.IA_64.unwind` pair of a code section (index), created when
    /// its first unwind entry was finished.
    Unwind(usize),
    /// A symbol, by name: defined, declared global or first referenced here.
    Symbol(String),
}

/// One symbol as the object's symbol table needs it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ObjSymbol {
    /// The name as written.
    pub name: String,
    /// Where it is defined: `Some(section index)`, `None` for an absolute value; undefined
    /// symbols have `defined == false`.
    pub section: Option<usize>,
    /// Offset in its section, or the absolute value.
    pub value: u64,
    /// Whether it has a definition in this file.
    pub defined: bool,
    /// `.global`/`.globl` (or `.weak`, written as global).
    pub global: bool,
    /// `.weak` (STB_WEAK; `global` is then true too).
    pub weak: bool,
    /// st_info type: STT_NOTYPE 0, STT_OBJECT 1, STT_FUNC 2 (`.proc`, `.type @function`),
    /// STT_TLS 6.
    pub stt: u8,
    /// st_other visibility (`.internal` 1, `.hidden` 2, `.protected` 3).
    pub visibility: u8,
    /// st_size (set by `.endp` or `.size`).
    pub size: u64,
}

/// One section's contents and attributes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ObjSection {
    /// ELF name.
    pub name: String,
    /// Contents (for NOBITS only the length counts).
    pub data: Vec<u8>,
    /// SHT_NOBITS (`.bss`-like).
    pub nobits: bool,
    /// sh_flags.
    pub flags: u64,
    /// sh_addralign.
    pub align: u64,
    /// Holds code: unwind sections may hang off it.
    pub code: bool,
    /// sh_entsize (`.section NAME, "aM", @progbits, SIZE`).
    pub entsize: u64,
    /// Declared `@unwind` (issue 13): SHT_IA_64_UNWIND, linked to its code section.
    pub unwind_table: bool,
}

/// Everything the writer needs from the assembler.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ObjectParts {
    /// The sections in the assembler's order (index = what [`Created`], symbols and relocations use).
    pub sections: Vec<ObjSection>,
    /// Creation order of sections and symbols.
    pub created: Vec<Created>,
    /// Every symbol that may appear in the table, by name.
    pub symbols: Vec<ObjSymbol>,
    /// Relocations the linker must apply: the assembler's own list ([`crate::asm::Assembly::relocs`]),
    /// the one place relocation types are chosen. The unwind tables' are added by the writer.
    pub relocs: Vec<crate::asm::reloc::Reloc>,
    /// Procedures with unwind information, in `.endp` order.
    pub unwind: Vec<UnwindProc>,
    /// The ELF header's e_flags.
    pub e_flags: u32,
    /// `.file "NAME"`: an STT_FILE symbol right after the null symbol.
    pub file: Option<String>,
    /// Section groups (`.section NAME, "axG", @progbits, GROUP, comdat`; issue 13).
    pub groups: Vec<ObjGroup>,
}

/// One section group (SHT_GROUP): its signature symbol and member sections.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ObjGroup {
    /// The signature symbol's name (a local NOTYPE symbol in the group section when the
    /// file does not define it otherwise).
    pub signature: String,
    /// GRP_COMDAT.
    pub comdat: bool,
    /// Member sections by index in [`ObjectParts::sections`]; their unwind sections and
    /// relocation sections join too.
    pub members: Vec<usize>,
    /// Members whose name another section already has (`.text` in a group): gas creates
    /// their section symbols last, after the signature's.
    pub late_symbols: Vec<usize>,
    /// Such members that a fixup refers to (a branch to one of their labels): gas creates
    /// their section symbols while adjusting fixups, before the signatures.
    pub early_symbols: Vec<usize>,
}

/// Why no object could be written.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ObjectError {
    /// A fixup names a symbol the file neither defines nor declares.
    #[error("relocation against unknown symbol `{0}`")]
    UnknownSymbol(String),
    /// A fixup or unwind entry names a section that does not exist.
    #[error("relocation in or against a section that does not exist (index {0})")]
    NoSection(usize),
    /// An unwind descriptor field does not fit its encoding.
    #[error("unwind descriptor out of range: {0}")]
    Unwind(String),
}
