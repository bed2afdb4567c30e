//! A loader that serves some files from memory and the rest from another loader: the
//! headers a kernel build generates (`autoconf.h`, `asm-offsets.h`, ...) without writing
//! them into the tree.

use std::path::Path;

use super::{MemLoader, SourceLoader};

/// Files of `overlay` shadow the same paths of `base`; every other path goes to `base`.
pub struct OverlayLoader<'a> {
    overlay: MemLoader,
    base: &'a dyn SourceLoader,
}

impl<'a> OverlayLoader<'a> {
    /// `overlay` in front of `base`.
    pub fn new(overlay: MemLoader, base: &'a dyn SourceLoader) -> OverlayLoader<'a> {
        OverlayLoader { overlay, base }
    }
}

impl SourceLoader for OverlayLoader<'_> {
    fn load(&self, path: &Path) -> std::io::Result<String> {
        match self.overlay.load(path) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => self.base.load(path),
            found => found,
        }
    }

    fn load_limited(&self, path: &Path, limit: u64) -> std::io::Result<String> {
        match self.overlay.load_limited(path, limit) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => self.base.load_limited(path, limit),
            found => found,
        }
    }

    fn load_bytes(&self, path: &Path, limit: u64) -> std::io::Result<Vec<u8>> {
        match self.overlay.load_bytes(path, limit) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => self.base.load_bytes(path, limit),
            found => found,
        }
    }
}
