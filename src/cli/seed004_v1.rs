//! Version V.1 of Linux 6.1's ia64 accounting: seed 004's patch ("[PATCH 2/2] ia64:
//! VIRT_CPU_ACCOUNTING ... take 2", the change from V.1 to V.2 against 2.6.24-rc5) applied in
//! reverse to the 6.1 files, which ship V.2.
//!
//! The patch is the seed's own text (`traces/ia64/linux-6.1/seed004-v2.patch`, its five files'
//! hunks as posted). 2.6.24 and 6.1 differ where the hunks touch; each difference is met by a
//! named [`Adaptation`] of the patch text before it is applied (the list is [`ADAPTATIONS`],
//! each saying why), and by the offsets and fuzz of [`super::patch_tree`], which every hunk's
//! [`HunkResult`] reports. Nothing else is changed.

use std::path::{Path, PathBuf};

use super::patch_tree::{self, ApplyOptions, FilePatch, HunkLine, HunkResult};

/// The seed's patch text.
pub const SEED_PATCH: &str = include_str!("../../traces/ia64/linux-6.1/seed004-v2.patch");

/// Its name in messages.
pub const SEED_PATCH_NAME: &str = "traces/ia64/linux-6.1/seed004-v2.patch";

/// The most context lines ignored at each end of a hunk (GNU patch's default, `-F2`).
pub const MAX_FUZZ: usize = 2;

/// One change to the patch text so that it meets 6.1.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Adaptation {
    /// A file moved: the patch's path (after `-p1`) → 6.1's.
    Path {
        /// 2.6.24's path.
        from: &'static str,
        /// 6.1's path.
        to: &'static str,
        /// Why.
        why: &'static str,
    },
    /// A word renamed in every line of every hunk.
    Word {
        /// The old word.
        from: &'static str,
        /// The new word.
        to: &'static str,
        /// Why.
        why: &'static str,
    },
    /// One whole line of one file's hunks replaced by 6.1's form of it.
    Line {
        /// The file (6.1 path).
        file: &'static str,
        /// The line as the patch has it.
        from: &'static str,
        /// The line as 6.1 has it.
        to: &'static str,
        /// Why.
        why: &'static str,
    },
}

/// Every adaptation, in the order applied.
pub const ADAPTATIONS: &[Adaptation] = &[
    Adaptation::Path {
        from: "include/asm-ia64/thread_info.h",
        to: "arch/ia64/include/asm/thread_info.h",
        why: "the ia64 headers moved from include/asm-ia64/ to arch/ia64/include/asm/ (2.6.27)",
    },
    Adaptation::Word {
        from: "CONFIG_VIRT_CPU_ACCOUNTING",
        to: "CONFIG_VIRT_CPU_ACCOUNTING_NATIVE",
        why: "the config was renamed; 6.1's files test CONFIG_VIRT_CPU_ACCOUNTING_NATIVE (init/Kconfig:498)",
    },
    Adaptation::Line {
        file: "arch/ia64/kernel/entry.S",
        from: ".work_processed_syscall:",
        to: "ia64_work_processed_syscall:",
        why: "the local label of ia64_leave_syscall is a global one in 6.1 (entry.S:687-688)",
    },
    Adaptation::Line {
        file: "arch/ia64/kernel/entry.S",
        from: "(pUStk)\tmov.m r22=ar.itc\t\t\t// fetch time at leave",
        to: "\tMOV_FROM_ITC(pUStk, p9, r22, r19)\t// fetch time at leave",
        why: "6.1 reads the ITC through the paravirt macro MOV_FROM_ITC (entry.S:691)",
    },
    Adaptation::Line {
        file: "arch/ia64/kernel/entry.S",
        from: "(pKStk)\tmov r22=psr\t\t// M2 read PSR now that interrupts are disabled",
        to: "\tMOV_FROM_PSR(pKStk, r22, r29)\t// M2 read PSR now that interrupts are disabled",
        why: "6.1 reads the PSR through MOV_FROM_PSR in ia64_leave_kernel (entry.S:915, 920)",
    },
    Adaptation::Line {
        file: "arch/ia64/kernel/entry.S",
        from: "(pUStk)\tmov.m r22=ar.itc\t// M  fetch time at leave",
        to: "\tMOV_FROM_ITC(pUStk, p9, r22, r29)\t// M  fetch time at leave",
        why: "6.1 reads the ITC through MOV_FROM_ITC in ia64_leave_kernel (entry.S:916)",
    },
];

impl Adaptation {
    /// One line describing it.
    pub fn describe(&self) -> String {
        match self {
            Adaptation::Path { from, to, why } => format!("path {from} -> {to}: {why}"),
            Adaptation::Word { from, to, why } => format!("word {from} -> {to}: {why}"),
            Adaptation::Line { file, from, to, why } => format!("{file}: line `{from}` -> `{to}`: {why}"),
        }
    }
}

fn replace_word(line: &str, from: &str, to: &str) -> String {
    let is_word = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let mut out = String::new();
    let mut rest = line;
    while let Some(i) = rest.find(from) {
        let before_ok = rest[..i].chars().next_back().is_none_or(|c| !is_word(c));
        let after = &rest[i + from.len()..];
        let after_ok = after.chars().next().is_none_or(|c| !is_word(c));
        out.push_str(&rest[..i]);
        out.push_str(if before_ok && after_ok { to } else { from });
        rest = after;
    }
    out.push_str(rest);
    out
}

/// Adapts `files` (paths already stripped by one component) with [`ADAPTATIONS`]; returns how
/// many lines each adaptation changed.
fn adapt(files: &mut [(String, FilePatch)]) -> Vec<(Adaptation, usize)> {
    let mut counts = Vec::new();
    for a in ADAPTATIONS {
        let mut n = 0;
        for (path, fp) in files.iter_mut() {
            match *a {
                Adaptation::Path { from, to, .. } => {
                    if path == from {
                        *path = to.to_string();
                        n += 1;
                    }
                }
                Adaptation::Word { from, to, .. } => {
                    for h in &mut fp.hunks {
                        for l in &mut h.lines {
                            let (HunkLine::Context(s) | HunkLine::Removed(s) | HunkLine::Added(s)) = l;
                            let r = replace_word(s, from, to);
                            if r != *s {
                                *s = r;
                                n += 1;
                            }
                        }
                    }
                }
                Adaptation::Line { file, from, to, .. } => {
                    if path != file {
                        continue;
                    }
                    for h in &mut fp.hunks {
                        for l in &mut h.lines {
                            let (HunkLine::Context(s) | HunkLine::Removed(s) | HunkLine::Added(s)) = l;
                            if s == from {
                                *s = to.to_string();
                                n += 1;
                            }
                        }
                    }
                }
            }
        }
        counts.push((*a, n));
    }
    counts
}

/// One file of the V.1 tree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct V1File {
    /// Its path in the tree (`arch/ia64/kernel/entry.S`).
    pub path: String,
    /// The V.1 text.
    pub text: String,
    /// Where each hunk went.
    pub hunks: Vec<HunkResult>,
}

/// The V.1 files and how they were made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct V1Tree {
    /// The files the patch touches, V.1 text.
    pub files: Vec<V1File>,
    /// Each adaptation with the number of patch lines it changed.
    pub adaptations: Vec<(Adaptation, usize)>,
}

impl V1Tree {
    /// A report: each adaptation, then each file's hunks.
    pub fn report(&self) -> String {
        let mut out = String::from("V.1 = Linux 6.1 with seed 004's patch reversed\n");
        for (a, n) in &self.adaptations {
            out.push_str(&format!("adaptation ({n} lines): {}\n", a.describe()));
        }
        for f in &self.files {
            let hunks: Vec<String> = f.hunks.iter().map(ToString::to_string).collect();
            out.push_str(&format!("{}: {}\n", f.path, hunks.join(", ")));
        }
        out
    }
}

/// Why the V.1 tree cannot be made.
#[derive(Debug, thiserror::Error)]
pub enum V1Error {
    /// The patch text is malformed.
    #[error("{0}")]
    Patch(#[from] patch_tree::TreePatchError),
    /// A tree file cannot be read or written.
    #[error("{path}: {message}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The failure.
        message: String,
    },
    /// A hunk does not apply even with the adaptations and fuzz.
    #[error("{patch}:{line}: hunk #{number} of {file} does not apply in reverse to {tree} (fuzz up to {MAX_FUZZ})")]
    DoesNotApply {
        /// The patch's name.
        patch: String,
        /// Its header line.
        line: usize,
        /// Hunk number in its file.
        number: usize,
        /// The file.
        file: String,
        /// The tree.
        tree: String,
    },
}

/// The V.1 files of `srctree` (a 6.1 tree), from `patch_text`, read through `read`.
///
/// # Errors
/// The patch is malformed, a file is missing, or a hunk does not apply.
pub fn v1_files_with(
    srctree: &Path,
    patch_name: &str,
    patch_text: &str,
    mut read: impl FnMut(&Path) -> std::io::Result<String>,
) -> Result<V1Tree, V1Error> {
    let parsed = patch_tree::parse(patch_name, patch_text)?;
    let mut files: Vec<(String, FilePatch)> = parsed.into_iter().map(|f| (f.path(1), f)).collect();
    let adaptations = adapt(&mut files);
    let mut out = Vec::new();
    for (path, fp) in &files {
        let full = srctree.join(path);
        let source = read(&full).map_err(|e| V1Error::Io { path: full.clone(), message: e.to_string() })?;
        let (text, hunks) = patch_tree::apply_file(&source, fp, ApplyOptions { reverse: true, max_fuzz: MAX_FUZZ })
            .map_err(|f| V1Error::DoesNotApply {
                patch: patch_name.to_string(),
                line: f.header_line,
                number: f.number,
                file: path.clone(),
                tree: srctree.display().to_string(),
            })?;
        out.push(V1File { path: path.clone(), text, hunks });
    }
    Ok(V1Tree { files: out, adaptations })
}

/// The V.1 files of the 6.1 tree at `srctree`, from the seed's patch.
///
/// # Errors
/// As [`v1_files_with`].
pub fn v1_files(srctree: &Path) -> Result<V1Tree, V1Error> {
    v1_files_with(srctree, SEED_PATCH_NAME, SEED_PATCH, |p| std::fs::read_to_string(p))
}

/// Writes the V.1 files of `srctree` under `out` at their tree paths (only the files the
/// patch touches: a build takes the rest from `srctree`), and `out/V1.txt`, the report.
///
/// # Errors
/// As [`v1_files`], or a file cannot be written.
pub fn write_v1_tree(srctree: &Path, out: &Path) -> Result<V1Tree, V1Error> {
    let tree = v1_files(srctree)?;
    let io = |path: &Path, e: std::io::Error| V1Error::Io { path: path.to_path_buf(), message: e.to_string() };
    for f in &tree.files {
        let path = out.join(&f.path);
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(|e| io(dir, e))?;
        }
        std::fs::write(&path, &f.text).map_err(|e| io(&path, e))?;
    }
    let report = out.join("V1.txt");
    std::fs::write(&report, tree.report()).map_err(|e| io(&report, e))?;
    Ok(tree)
}

/// The V.1 files as a loader overlay at `srctree`'s paths, to put in front of the file
/// system so that preprocessing `srctree`'s files reads V.1 where the patch changed them.
pub fn overlay(srctree: &Path, tree: &V1Tree) -> emu_core::preprocess::MemLoader {
    let mut mem = emu_core::preprocess::MemLoader::new();
    for f in &tree.files {
        mem.insert(srctree.join(&f.path), f.text.clone());
    }
    mem
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_seed_patch_parses_into_its_five_files_and_thirteen_entry_and_other_hunks() {
        let files = patch_tree::parse(SEED_PATCH_NAME, SEED_PATCH).unwrap();
        let shape: Vec<(String, usize)> = files.iter().map(|f| (f.path(1), f.hunks.len())).collect();
        assert_eq!(
            shape,
            [
                ("arch/ia64/kernel/asm-offsets.c".to_string(), 1),
                ("arch/ia64/kernel/entry.S".to_string(), 9),
                ("arch/ia64/kernel/fsys.S".to_string(), 1),
                ("arch/ia64/kernel/ivt.S".to_string(), 2),
                ("include/asm-ia64/thread_info.h".to_string(), 1),
            ]
        );
    }

    #[test]
    fn words_are_renamed_only_whole() {
        assert_eq!(
            replace_word(
                "#ifdef CONFIG_VIRT_CPU_ACCOUNTING",
                "CONFIG_VIRT_CPU_ACCOUNTING",
                "CONFIG_VIRT_CPU_ACCOUNTING_NATIVE"
            ),
            "#ifdef CONFIG_VIRT_CPU_ACCOUNTING_NATIVE"
        );
        assert_eq!(
            replace_word("CONFIG_VIRT_CPU_ACCOUNTING_GEN", "CONFIG_VIRT_CPU_ACCOUNTING", "X"),
            "CONFIG_VIRT_CPU_ACCOUNTING_GEN"
        );
    }

    #[test]
    fn every_adaptation_changes_something() {
        let parsed = patch_tree::parse(SEED_PATCH_NAME, SEED_PATCH).unwrap();
        let mut files: Vec<(String, FilePatch)> = parsed.into_iter().map(|f| (f.path(1), f)).collect();
        for (a, n) in adapt(&mut files) {
            assert!(n > 0, "{}", a.describe());
        }
    }
}
