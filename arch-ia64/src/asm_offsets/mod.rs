//! `include/generated/asm-offsets.h` for an ia64 kernel tree, without an ia64 compiler.
//!
//! The kernel makes this header by compiling `arch/ia64/kernel/asm-offsets.c` for the target.
//! Here every macro the arch/ia64 assembly uses comes from one table, [`table::ENTRIES`],
//! which names its source:
//! - computed from the tree's own headers, laid out by the LP64 rules of [`cstruct`]:
//!   `struct pt_regs`, `struct switch_stack` (`arch/ia64/include/uapi/asm/ptrace.h`, every
//!   member, as the `PT(x)`/`SW(x)` macros paste the names), `struct thread_info`
//!   (`arch/ia64/include/asm/thread_info.h`, with the config's `#ifdef`s),
//!   `struct sigcontext` (`arch/ia64/include/uapi/asm/sigcontext.h`), and
//!   `struct cpuinfo_ia64` (its definition alone, from `arch/ia64/include/asm/processor.h`);
//! - laid out from acctemu's stand-in description `standin.h` (task_struct and what hangs
//!   off it: their real layout needs the whole configuration);
//! - or a documented value (structures of the MCA, PAL, fsyscall and time code).
//!
//! A user with a real ia64 build passes their own `asm-offsets.h` instead.

pub mod cstruct;
pub mod table;

use std::path::Path;

use cstruct::Types;
use emu_core::kernel::{KernelConfig, KernelError};
use emu_core::preprocess::{preprocess, MemLoader, PreprocessOptions, SourceLoader};

/// Types the tree's `sigcontext.h` needs from headers not parsed here
/// (`arch/ia64/include/uapi/asm/signal.h`: `stack_t`; `arch/ia64/include/asm/signal.h`:
/// `sigset_t` of `_NSIG_WORDS` = 1 word).
const PRELUDE: &str = "typedef struct sigaltstack { void *ss_sp; int ss_flags; size_t ss_size; } stack_t;\n\
                       typedef struct { unsigned long sig[1]; } sigset_t;\n";

/// The stand-in structures (see the file's comment).
pub const STANDIN: &str = include_str!("standin.h");

/// Headers of the tree whose structures are laid out, in dependency order.
pub const TREE_HEADERS: &[&str] = &[
    "arch/ia64/include/uapi/asm/fpu.h",
    "arch/ia64/include/uapi/asm/ptrace.h",
    "arch/ia64/include/asm/thread_info.h",
    "arch/ia64/include/uapi/asm/sigcontext.h",
];

/// Structures laid out from a header that is not parsed whole (it holds inline functions
/// and per-CPU declarations [`cstruct`] does not read): the definition alone is taken from
/// the tree, from `struct NAME {` to its closing `};`.
pub const TREE_STRUCTS: &[(&str, &str)] = &[("arch/ia64/include/asm/processor.h", "cpuinfo_ia64")];

/// The definition of `struct name` in `text`, through its closing `};`.
fn struct_definition(text: &str, name: &str) -> Option<String> {
    let start = text.find(&format!("\nstruct {name} {{"))? + 1;
    let end = text[start..].find("\n};")? + start + 3;
    Some(text[start..end].to_string())
}

/// One macro of the generated header.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Offset {
    /// Macro name (`IA64_PT_REGS_R8_OFFSET`).
    pub name: String,
    /// Its value.
    pub value: u64,
    /// Where the value comes from (`offsetof(struct pt_regs, r8)`, `stand-in: ...`).
    pub source: String,
}

/// The C text of a header with the config's conditionals applied (no `#include`s followed,
/// `__ASSEMBLY__` not defined, so the C parts remain).
fn header_c(path: &str, text: &str, config: &KernelConfig) -> Result<String, KernelError> {
    let kept: String = text
        .lines()
        .map(|l| if l.trim_start().starts_with("#include") || l.trim_start().starts_with("# include") { "" } else { l })
        .collect::<Vec<_>>()
        .join("\n");
    let mut opts = PreprocessOptions::new().defined("__KERNEL__", "1");
    opts.defines.extend(config.defines());
    let out = preprocess(path, &kept, &opts, &MemLoader::new()).map_err(|d| KernelError::Layout(d.to_string()))?;
    Ok(out.text)
}

/// Lay out the structures of `srctree` (read through `loader`) for `config`.
///
/// # Errors
/// A header is missing or has a structure [`cstruct`] cannot lay out.
pub fn layouts(srctree: &Path, config: &KernelConfig, loader: &dyn SourceLoader) -> Result<Types, KernelError> {
    let mut types = Types::new();
    for (name, c) in c_sources(srctree, config, loader)? {
        types.add_definitions(&name, &c).map_err(KernelError::Layout)?;
    }
    Ok(types)
}

/// The C texts [`layouts`] parses, in order, with their names: the prelude, each tree
/// header after the config's conditionals, and the stand-ins (a test compiles the same text
/// with a host C compiler to check the layout).
///
/// # Errors
/// A tree header is missing or cannot be preprocessed.
pub fn c_sources(
    srctree: &Path,
    config: &KernelConfig,
    loader: &dyn SourceLoader,
) -> Result<Vec<(String, String)>, KernelError> {
    let mut out = vec![("prelude".to_string(), PRELUDE.to_string())];
    for rel in TREE_HEADERS {
        let path = srctree.join(rel);
        let name = path.display().to_string();
        let text = loader.load(&path).map_err(|e| KernelError::Read { path: name.clone(), message: e.to_string() })?;
        let c = header_c(&name, &text, config)?;
        out.push((name, c));
    }
    for (rel, structure) in TREE_STRUCTS {
        let path = srctree.join(rel);
        let name = path.display().to_string();
        let text = loader.load(&path).map_err(|e| KernelError::Read { path: name.clone(), message: e.to_string() })?;
        let def = struct_definition(&text, structure)
            .ok_or_else(|| KernelError::Layout(format!("{name}: no definition of struct {structure}")))?;
        out.push((format!("{name} (struct {structure})"), header_c(&name, &def, config)?));
    }
    out.push(("standin.h".to_string(), STANDIN.to_string()));
    Ok(out)
}

/// Every macro, in table order (pt_regs and switch_stack members in declaration order).
///
/// # Errors
/// As [`layouts`], or a table entry naming a member the structure does not have.
pub fn compute(srctree: &Path, config: &KernelConfig, loader: &dyn SourceLoader) -> Result<Vec<Offset>, KernelError> {
    let types = layouts(srctree, config, loader)?;
    table::evaluate(&types, config)
}

/// The text of `include/generated/asm-offsets.h` for `srctree` and `config`.
///
/// # Errors
/// As [`compute`].
pub fn generate(srctree: &Path, config: &KernelConfig, loader: &dyn SourceLoader) -> Result<String, KernelError> {
    Ok(render(&compute(srctree, config, loader)?))
}

/// The header text of `offsets`, one `#define NAME VALUE /* source */` each.
pub fn render(offsets: &[Offset]) -> String {
    let mut out = String::from(
        "#ifndef __ASM_OFFSETS_H__\n#define __ASM_OFFSETS_H__\n/*\n * Generated by acctemu asm-offsets (not by \
         compiling asm-offsets.c): see arch-ia64/src/asm_offsets/.\n * A real ia64 build's \
         include/generated/asm-offsets.h replaces this file.\n */\n\n",
    );
    for o in offsets {
        out.push_str(&format!("#define {} {} /* {} */\n", o.name, o.value, o.source));
    }
    out.push_str("\n#endif\n");
    out
}
