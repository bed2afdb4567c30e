//! Why a kernel tree could not be built: shared by the tree build (`sources`) and the constants
//! it reads back (`offsets`), which both report it, so it lives below both.

use emu_core::error::Diagnostics;

/// Why a tree could not be built.
#[derive(Debug, Clone, thiserror::Error)]
pub enum SourcesError {
    /// A file of the tree or overlay cannot be read, or the generated headers cannot be made.
    #[error("{0}")]
    Tree(String),
    /// Preprocessing or assembling failed: every diagnostic names file, line and column.
    #[error("{file}: {diagnostics}")]
    Assemble {
        /// The tree-relative file.
        file: String,
        /// The errors.
        diagnostics: Diagnostics,
    },
}
