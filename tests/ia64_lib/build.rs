//! The arch/ia64/lib objects as the kernel build makes them, by acctemu alone: the builds of
//! the shared kernel corpus (`tests/common/kernel_corpus.rs`: acctemu's preprocessor with the
//! kernel build's flags and generated headers, the per-object `AFLAGS` of
//! arch/ia64/lib/Makefile for the eight division objects), assembled and written as ELF
//! objects by acctemu (`-x -mconstant-gp`).
//!
//! The configuration is the corpus's, with 16 KiB pages instead of its 64 KiB, so that the
//! page routines' cases fit the test's buffers several times over.

use crate::kernel_corpus::{self, Corpus};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// One object of arch/ia64/lib: its name in the Makefile, source file and extra defines.
pub struct LibObject {
    /// The object's name (`__udivdi3`, `memcpy_mck`, ...).
    pub name: &'static str,
    /// The source under arch/ia64/lib.
    pub source: &'static str,
    /// `AFLAGS_<name>.o` of the Makefile.
    pub defines: &'static [&'static str],
}

/// Every `.S` object the Makefile builds (`lib-y`, and both the `CONFIG_ITANIUM` and the
/// `CONFIG_MCKINLEY` variants).
pub const OBJECTS: &[LibObject] = &[
    LibObject { name: "__divsi3", source: "idiv32.S", defines: &[] },
    LibObject { name: "__udivsi3", source: "idiv32.S", defines: &["UNSIGNED"] },
    LibObject { name: "__modsi3", source: "idiv32.S", defines: &["MODULO"] },
    LibObject { name: "__umodsi3", source: "idiv32.S", defines: &["UNSIGNED", "MODULO"] },
    LibObject { name: "__divdi3", source: "idiv64.S", defines: &[] },
    LibObject { name: "__udivdi3", source: "idiv64.S", defines: &["UNSIGNED"] },
    LibObject { name: "__moddi3", source: "idiv64.S", defines: &["MODULO"] },
    LibObject { name: "__umoddi3", source: "idiv64.S", defines: &["UNSIGNED", "MODULO"] },
    LibObject { name: "clear_page", source: "clear_page.S", defines: &[] },
    LibObject { name: "clear_user", source: "clear_user.S", defines: &[] },
    LibObject { name: "strncpy_from_user", source: "strncpy_from_user.S", defines: &[] },
    LibObject { name: "strnlen_user", source: "strnlen_user.S", defines: &[] },
    LibObject { name: "flush", source: "flush.S", defines: &[] },
    LibObject { name: "ip_fast_csum", source: "ip_fast_csum.S", defines: &[] },
    LibObject { name: "do_csum", source: "do_csum.S", defines: &[] },
    LibObject { name: "memset", source: "memset.S", defines: &[] },
    LibObject { name: "strlen", source: "strlen.S", defines: &[] },
    LibObject { name: "xor", source: "xor.S", defines: &[] },
    LibObject { name: "copy_page", source: "copy_page.S", defines: &[] },
    LibObject { name: "copy_user", source: "copy_user.S", defines: &[] },
    LibObject { name: "memcpy", source: "memcpy.S", defines: &[] },
    LibObject { name: "copy_page_mck", source: "copy_page_mck.S", defines: &[] },
    LibObject { name: "memcpy_mck", source: "memcpy_mck.S", defines: &[] },
];

/// The page size the objects are built for.
pub const PAGE: u64 = 16 * 1024;

/// The scratch directory of this test.
pub fn scratch() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join("ia64-lib-routines")
}

/// The corpus, prepared once per test binary (tests run on threads of one process).
fn corpus(tree: &Path) -> &'static Corpus {
    static CORPUS: OnceLock<Corpus> = OnceLock::new();
    CORPUS.get_or_init(|| {
        let mut config = kernel_corpus::config(false);
        config.set("IA64_PAGE_SIZE_64KB", "n");
        config.set("IA64_PAGE_SIZE_16KB", "y");
        assert_eq!(kernel_corpus::page_size(&config), PAGE);
        let objtree = scratch().join("objtree");
        let _ = std::fs::remove_dir_all(&objtree);
        kernel_corpus::prepare_with(tree, &objtree, &config, "lib", None)
    })
}

/// Builds `obj` from `tree`: the ELF object bytes acctemu writes.
///
/// # Panics
/// When acctemu's preprocessor or assembler fails (with its messages).
pub fn build(tree: &Path, obj: &LibObject) -> Vec<u8> {
    let corpus = corpus(tree);
    let file = format!("arch/ia64/lib/{}", obj.source);
    let b = corpus
        .builds
        .iter()
        .find(|b| b.file == file && b.defines == obj.defines)
        .unwrap_or_else(|| panic!("the kernel corpus has no build of {file} with {:?}", obj.defines));
    kernel_corpus::acctemu_object(b, &corpus.objtree).unwrap_or_else(|e| panic!("{e}"))
}
