//! The IA-64 assembler: GNU as syntax (as the kernel writes it) to bundles identical to
//! `ia64-linux-gnu-as -x` (GNU as 2.40, explicit-stop mode).
//!
//! Pipeline: `emu_core::preprocess` -> [`parse`] -> [`matcher`] (table lookup) ->
//! [`bundler`] (gas's template choice) -> layout of sections and labels -> [`crate::encode`].
//! Dependency violations are reported as warnings by [`dv`], never changing the code.

mod alias_dup;
mod assembler;
mod auto;
pub use assembler::DvMode;
pub mod bundler;
mod directive;
pub mod dv;
mod dv_feed;
pub mod expr;
mod incbin;
mod late_alias;
mod layout;
mod macros;
mod manual_checks;
// remaining directives (issue 13): data_real, rest, rest_group, rest_reloc, rest_unwind
mod data_real;
pub mod matcher;
pub mod object;
pub mod parse;
pub mod reloc;
mod repeat;
mod rest;
mod rest_group;
mod rest_reloc;
mod rest_unwind;
pub mod syntax;

use crate::bundle::Template;
use emu_core::error::{Diagnostic, Diagnostics, SourceLoc};
use emu_core::image::Image;
use emu_core::preprocess::{preprocess, verbatim, PreprocessOptions, SourceLoader};

/// The result of assembling one file.
#[derive(Debug, Clone)]
pub struct Assembly {
    /// Sections (laid out one after another from 0), symbols and the address -> source map.
    pub image: Image,
    /// The sections as GNU as writes them into a relocatable object: each at address 0, and
    /// fields that need a relocation (a section address used as a value, an external symbol)
    /// left zero. This is what is compared byte for byte with `ia64-linux-gnu-as -x`.
    pub object: Vec<emu_core::image::Section>,
    /// Warnings (dependency violations), in source order.
    pub warnings: Vec<Diagnostic>,
    /// One entry per instruction slot of every code section, in address order.
    pub listing: Vec<ListingEntry>,
    /// The relocations of [`Assembly::object`], in section order and then in the order gas
    /// makes them (instructions by address, then the data fields of the section).
    pub relocs: Vec<reloc::Reloc>,
    /// What the ELF object writer needs ([`Assembly::object_file`]).
    pub elf: object::ObjectParts,
    /// Why no object can be written although the code assembled (forms the writer does not
    /// model, such as some unwind directives); empty when it can.
    pub elf_errors: Vec<Diagnostic>,
}

impl Assembly {
    /// The ELF64 relocatable object GNU as would write for this source.
    ///
    /// # Errors
    /// The source uses something the object writer does not model, or a relocation names
    /// a symbol or section that does not exist.
    pub fn object_file(&self) -> Result<Vec<u8>, ObjectFileError> {
        if !self.elf_errors.is_empty() {
            return Err(ObjectFileError::Unmodelled(Diagnostics(self.elf_errors.clone())));
        }
        object::write_object(&self.elf).map_err(ObjectFileError::Write)
    }
}

/// Why [`Assembly::object_file`] failed.
#[derive(Debug, Clone, thiserror::Error)]
pub enum ObjectFileError {
    /// Source forms the object writer does not model, each located.
    #[error("{0}")]
    Unmodelled(Diagnostics),
    /// The parts do not make a consistent object.
    #[error("cannot write the object: {0}")]
    Write(object::ObjectError),
}

/// One slot of the listing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListingEntry {
    /// Address of the bundle.
    pub addr: u64,
    /// Slot number 0-2.
    pub slot: u8,
    /// The bundle's 16 bytes.
    pub bytes: [u8; 16],
    /// The bundle's template.
    pub template: Template,
    /// The slot as the disassembler shows it (empty for the L slot of MLX).
    pub text: String,
    /// Where the instruction came from (`None` for filler nops).
    pub loc: Option<SourceLoc>,
    /// The source line's text.
    pub source: Option<String>,
}

/// Whether `file` names plain assembly that is not preprocessed: a `.s` file, as for gcc
/// and GNU as (only `.S` goes through the C preprocessor; in a `.s` file `#` at the start of
/// a line is a comment, `#define` included, and `-D`/`-I` do nothing).
pub fn is_plain_assembly(file: &str) -> bool {
    std::path::Path::new(file).extension().is_some_and(|e| e == "s")
}

/// Assembles `text` (named `file` in messages) after preprocessing it with `opts`, unless
/// `file` is a `.s` file ([`is_plain_assembly`]), which is assembled as written.
///
/// # Errors
/// Every error found (preprocessing, syntax, unknown instructions, operand ranges,
/// undefined symbols, bad directives), each with file:line:col and the source line.
pub fn assemble(
    file: &str,
    text: &str,
    opts: &PreprocessOptions,
    loader: &dyn SourceLoader,
) -> Result<Assembly, Diagnostics> {
    assemble_in_mode(file, text, opts, loader, DvMode::Explicit)
}

/// [`assemble`] in the dependency-violation `mode` of gas's `-x` options (issue 13): `Auto`
/// is what `ia64-linux-gnu-as` does with no `-x`.
///
/// # Errors
/// As [`assemble`].
pub fn assemble_in_mode(
    file: &str,
    text: &str,
    opts: &PreprocessOptions,
    loader: &dyn SourceLoader,
    mode: DvMode,
) -> Result<Assembly, Diagnostics> {
    let pp = if is_plain_assembly(file) {
        verbatim(file, text)
    } else {
        preprocess(file, text, opts, loader).map_err(Diagnostics::from)?
    };
    let pp_locate = |line: u32, col: u32| pp.lines.origin_col(line, col);
    let expanded = macros::expand(&pp.text, &pp_locate).map_err(Diagnostics)?;
    // Lines made by a macro point at the invocation's line.
    let locate = |line: u32, col: u32| {
        let at = line.checked_sub(1).and_then(|i| expanded.origin.get(i as usize)).copied();
        match at {
            Some((orig, true)) => pp.lines.origin_col(orig, col),
            Some((orig, false)) => pp.lines.origin_col(orig, 0),
            None => pp.lines.origin_col(line, col),
        }
    };
    let (statements, mut errors) = parse::parse(&expanded.text, &locate);
    let source_line = |loc: &SourceLoc| -> Option<String> { pp.lines.source_line_at(loc).map(str::to_string) };
    let mut asm = assembler::Assembler::new();
    asm.mode = assembler::ModeState::new(mode);
    asm.max_output = opts.limits.max_output_size;
    asm.incbin_files = incbin::read_files(&statements, opts, loader);
    for stmt in statements {
        asm.statement(stmt);
    }
    let (result, more) = asm.finish();
    errors.extend(more);
    let with_lines = |d: Diagnostic| match (&d.source_line, source_line(&d.loc)) {
        (None, Some(line)) => d.with_source_line(line),
        _ => d,
    };
    if !errors.is_empty() {
        // gas prints its warnings beside its errors, in source order (issue 13).
        errors.extend(result.warnings);
        in_source_order(&mut errors);
        return Err(Diagnostics(errors.into_iter().map(with_lines).collect()));
    }
    let mut assembly = result;
    in_source_order(&mut assembly.warnings);
    assembly.warnings = assembly.warnings.into_iter().map(with_lines).collect();
    for entry in &mut assembly.listing {
        entry.source = entry.loc.as_ref().and_then(source_line);
    }
    Ok(assembly)
}

/// Puts one file's messages in gas's order: by line, and on one line the instruction's own
/// messages (e.g. "Cannot express ... relocation", found late here) before its dependency
/// warnings, the ones with notes. Messages from several files keep the order found.
fn in_source_order(ds: &mut [Diagnostic]) {
    if ds.windows(2).all(|w| w[0].loc.file == w[1].loc.file) {
        ds.sort_by_key(|d| (d.loc.line, !d.notes.is_empty()));
    }
}
