//! A kernel tree's entry files, preprocessed and assembled by acctemu as the kernel's build
//! would (`emu_core::kernel::KernelTree` derives the flags from the Makefiles; the generated
//! headers come from the config, the syscall table and the asm-offsets generator or the
//! user's own `asm-offsets.h`).
//!
//! A tree is a full source tree, optionally with an overlay: a directory holding only some
//! files at their tree-relative paths (`arch/ia64/kernel/entry.S`, `arch/ia64/include/asm/
//! thread_info.h`, ...) that replace the tree's. A patched variant (seed 004's V.1, made by
//! reversing the patch) is such an overlay.

use std::path::{Path, PathBuf};

use crate::asm::{assemble, Assembly};
use emu_core::error::{Diagnostic, Diagnostics, SourceLoc};
use emu_core::kernel::{KernelConfig, KernelTree};
use emu_core::preprocess::{FsLoader, MemLoader, OverlayLoader, PreprocessOptions, SourceLoader};

pub use super::sources_error::SourcesError;

/// The files the system-call, fsys and interrupt paths run from, tree-relative, with the
/// object name each becomes.
pub const PATH_FILES: &[(&str, &str)] = &[
    ("arch/ia64/kernel/ivt.S", "ivt.o"),
    ("arch/ia64/kernel/entry.S", "entry.o"),
    ("arch/ia64/kernel/fsys.S", "fsys.o"),
    ("arch/ia64/kernel/gate.S", "gate.o"),
];

/// Where a kernel's sources are and how it is configured.
#[derive(Debug, Clone)]
pub struct KernelSources {
    /// The source tree (headers, `syscall.tbl`, the `.S` files).
    pub tree: PathBuf,
    /// Files replacing the tree's at the same relative paths.
    pub overlay: Option<PathBuf>,
    /// The configuration (`.config`).
    pub config: KernelConfig,
    /// A real build's `include/generated/asm-offsets.h`; else acctemu generates it.
    pub asm_offsets: Option<String>,
    /// `-D` definitions added after the build's own (a user's `-D` wins).
    pub defines: Vec<(String, String)>,
    /// Texts replacing files at tree-relative paths, after the overlay (a patch applied in
    /// memory).
    pub replaced: Vec<(String, String)>,
}

/// The assembled objects and what the harness needs to know of the build.
#[derive(Debug, Clone)]
pub struct KernelObjects {
    /// `(object name, ELF relocatable object)` in [`PATH_FILES`] order.
    pub objects: Vec<(String, Vec<u8>)>,
    /// The assemblies themselves (listings, warnings).
    pub assemblies: Vec<(String, Assembly)>,
    /// The text of `asm-offsets.h` the files were assembled with.
    pub asm_offsets: String,
    /// Constants of the tree's headers the harness lays memory out by.
    pub constants: super::offsets::TreeConstants,
}

/// Reads every file under `dir` into a loader at `tree`-relative paths.
fn overlay_files(dir: &Path, tree: &Path) -> Result<MemLoader, SourcesError> {
    let mut mem = MemLoader::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let entries =
            std::fs::read_dir(&d).map_err(|e| SourcesError::Tree(format!("{}: cannot read: {e}", d.display())))?;
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if let Ok(rel) = p.strip_prefix(dir) {
                let text = std::fs::read_to_string(&p)
                    .map_err(|e| SourcesError::Tree(format!("{}: cannot read: {e}", p.display())))?;
                mem.insert(tree.join(rel), text);
            }
        }
    }
    Ok(mem)
}

/// A loader over the tree with the overlay in front.
struct TreeLoader {
    overlay: MemLoader,
}

impl SourceLoader for TreeLoader {
    fn load(&self, path: &Path) -> std::io::Result<String> {
        OverlayLoader::new(self.overlay.clone(), &FsLoader).load(path)
    }
}

impl KernelSources {
    /// A tree with `config`, no overlay, generated offsets.
    pub fn new(tree: impl Into<PathBuf>, config: KernelConfig) -> KernelSources {
        KernelSources {
            tree: tree.into(),
            overlay: None,
            config,
            asm_offsets: None,
            defines: Vec::new(),
            replaced: Vec::new(),
        }
    }

    /// The tree's files as this build reads them: the overlay and the replaced texts in
    /// front of the file system (what the C layouts of the accounting check are read from).
    ///
    /// # Errors
    /// The overlay directory cannot be read.
    pub fn loader(&self) -> Result<impl SourceLoader, SourcesError> {
        let mut overlay = match &self.overlay {
            Some(dir) => overlay_files(dir, &self.tree)?,
            None => MemLoader::new(),
        };
        for (rel, text) in &self.replaced {
            overlay.insert(self.tree.join(rel), text.clone());
        }
        Ok(TreeLoader { overlay })
    }

    /// Preprocesses and assembles the [`PATH_FILES`].
    ///
    /// # Errors
    /// An unreadable tree or overlay file; any preprocessing or assembly error (located).
    pub fn build(&self) -> Result<KernelObjects, SourcesError> {
        let tree_err = |e: emu_core::kernel::KernelError| SourcesError::Tree(format!("kernel tree: {e}"));
        let base = self.loader()?;
        let offsets = match &self.asm_offsets {
            Some(t) => t.clone(),
            None => crate::asm_offsets::generate(&self.tree, &self.config, &base).map_err(tree_err)?,
        };
        let kt = KernelTree::new(&self.tree);
        let mut opts = PreprocessOptions::new();
        opts.defines = self.defines.clone();
        let build = kt.build(&opts, &self.config, Some(&offsets), &base).map_err(tree_err)?;
        let mut generated = build.generated;
        // The offsets given win even over a file the tree holds.
        generated.insert(self.tree.join("include/generated/asm-offsets.h"), offsets.clone());
        let loader = OverlayLoader::new(generated, &base);
        let mut objects = Vec::new();
        let mut assemblies = Vec::new();
        for (rel, obj) in PATH_FILES {
            let path = self.tree.join(rel);
            let name = path.display().to_string();
            let text = loader.load(&path).map_err(|e| SourcesError::Tree(format!("{name}: cannot read: {e}")))?;
            let mut asm = assemble(&name, &text, &build.options, &loader)
                .map_err(|diagnostics| SourcesError::Assemble { file: rel.to_string(), diagnostics })?;
            // The kernel's AFLAGS give -mconstant-gp (arch/ia64/Makefile).
            asm.elf.e_flags |= crate::asm::object::EF_IA_64_CONS_GP;
            let bytes = asm.object_file().map_err(|e| SourcesError::Assemble {
                file: rel.to_string(),
                diagnostics: Diagnostics(vec![Diagnostic::error(SourceLoc::unknown(), e.to_string())]),
            })?;
            objects.push((obj.to_string(), bytes));
            assemblies.push((obj.to_string(), asm));
        }
        let constants = super::offsets::TreeConstants::probe(&self.tree, &build.options, &loader)?;
        Ok(KernelObjects { objects, assemblies, asm_offsets: offsets, constants })
    }
}
