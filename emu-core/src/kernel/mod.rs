//! Preprocessing a kernel tree's `.S` files as its build would: the include paths and flags
//! of Linux 6.1's top `Makefile` (`LINUXINCLUDE`, `USERINCLUDE`, `KBUILD_CPPFLAGS`,
//! `KBUILD_AFLAGS`), `scripts/Makefile.lib` (`a_flags`) and `arch/ia64/Makefile`, and the
//! headers the build generates, served from memory.
//!
//! The flags, in the build's order (objtree = srctree for an in-tree build):
//! `-nostdinc -I src/arch/ia64/include -I obj/arch/ia64/include/generated [-I src/include]
//! -I obj/include -I src/arch/ia64/include/uapi -I obj/arch/ia64/include/generated/uapi
//! -I src/include/uapi -I obj/include/generated/uapi -include src/include/linux/compiler-version.h
//! -include src/include/linux/kconfig.h -D__KERNEL__ -DHAVE_WORKING_TEXT_ALIGN
//! -DHAVE_MODEL_SMALL_ATTRIBUTE -DHAVE_SERIALIZE_DIRECTIVE -D__ASSEMBLY__` (the assembler
//! then gets `-mconstant-gp`). acctemu has no system include directories, so `-nostdinc` is
//! implied; the macros ia64 gcc predefines are in [`IA64_PREDEFINED`].
//!
//! Generated headers, each used only when the objtree does not already hold it (so a real
//! build's files win): `include/generated/autoconf.h` from the config,
//! `include/generated/asm-offsets.h` from the caller (an arch's generator or the user's
//! file), the `asm-generic` wrappers of `generic-y`/`mandatory-y` headers and the
//! system-call headers from `arch/ia64/kernel/syscalls/syscall.tbl`.

pub mod generated;
pub mod kconfig;

pub use kconfig::KernelConfig;

use std::io::ErrorKind;
use std::path::{Path, PathBuf};

use crate::preprocess::{MemLoader, PreprocessOptions, SourceLoader};

/// Why a kernel tree cannot be preprocessed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum KernelError {
    /// A file the build needs could not be read.
    #[error("{path}: {message}")]
    Read {
        /// The file.
        path: String,
        /// Why.
        message: String,
    },
    /// A `.config`, `Kbuild` or `syscall.tbl` line is malformed.
    #[error("{file}:{line}: {message}")]
    Config {
        /// The file.
        file: String,
        /// 1-based line (0: the whole file).
        line: u32,
        /// What is wrong.
        message: String,
    },
    /// A generator could not lay out a structure.
    #[error("{0}")]
    Layout(String),
}

/// The macros `ia64-linux-gcc` predefines that kernel headers test, with their values
/// (gcc's `TARGET_OS_CPP_BUILTINS` for Linux and the ia64 target's builtins; the LP64 data
/// model, little-endian). gcc also defines `linux` and `unix` when not in strict ISO mode,
/// as it is for assembler-with-cpp; they are included for the same output.
pub const IA64_PREDEFINED: &[(&str, &str)] = &[
    ("__ia64", "1"),
    ("__ia64__", "1"),
    ("__itanium__", "1"),
    ("_LP64", "1"),
    ("__LP64__", "1"),
    ("__ELF__", "1"),
    ("__linux", "1"),
    ("__linux__", "1"),
    ("__gnu_linux__", "1"),
    ("linux", "1"),
    ("__unix", "1"),
    ("__unix__", "1"),
    ("unix", "1"),
    ("__CHAR_BIT__", "8"),
    ("__SIZEOF_INT__", "4"),
    ("__SIZEOF_LONG__", "8"),
    ("__SIZEOF_LONG_LONG__", "8"),
    ("__SIZEOF_POINTER__", "8"),
    ("__ORDER_LITTLE_ENDIAN__", "1234"),
    ("__ORDER_BIG_ENDIAN__", "4321"),
    ("__BYTE_ORDER__", "__ORDER_LITTLE_ENDIAN__"),
];

/// The `-D` flags Linux 6.1's Makefiles give every ia64 `.S` file (`KBUILD_CPPFLAGS` of the
/// top and arch Makefiles, then `KBUILD_AFLAGS`).
pub const IA64_KERNEL_DEFINES: &[&str] = &[
    "__KERNEL__",
    "HAVE_WORKING_TEXT_ALIGN",
    "HAVE_MODEL_SMALL_ATTRIBUTE",
    "HAVE_SERIALIZE_DIRECTIVE",
    "__ASSEMBLY__",
];

/// A kernel source tree and where its build's generated files are.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KernelTree {
    /// The source tree (`srctree`).
    pub srctree: PathBuf,
    /// The build directory (`objtree`, `O=`); `None` for an in-tree build.
    pub objtree: Option<PathBuf>,
}

/// What preprocessing a tree's `.S` files needs: the options and the generated headers.
#[derive(Debug, Clone)]
pub struct KernelBuild {
    /// `-I`, `-include` and `-D` of the build, added to the caller's.
    pub options: PreprocessOptions,
    /// Generated headers the objtree lacks, at their objtree paths (serve them with an
    /// [`OverlayLoader`](crate::preprocess::OverlayLoader) in front of the file system).
    pub generated: MemLoader,
}

const ARCH: &str = "ia64";

impl KernelTree {
    /// An in-tree build of `srctree`.
    pub fn new(srctree: impl Into<PathBuf>) -> KernelTree {
        KernelTree { srctree: srctree.into(), objtree: None }
    }

    fn obj(&self) -> &Path {
        self.objtree.as_deref().unwrap_or(&self.srctree)
    }

    fn src(&self) -> &Path {
        &self.srctree
    }

    /// The `-I` directories, in the build's order.
    pub fn include_dirs(&self) -> Vec<PathBuf> {
        let (src, obj) = (self.src(), self.obj());
        let arch = format!("arch/{ARCH}/include");
        let mut dirs = vec![src.join(&arch), obj.join(format!("{arch}/generated"))];
        if self.objtree.is_some() {
            dirs.push(src.join("include"));
        }
        dirs.push(obj.join("include"));
        dirs.push(src.join(format!("{arch}/uapi")));
        dirs.push(obj.join(format!("{arch}/generated/uapi")));
        dirs.push(src.join("include/uapi"));
        dirs.push(obj.join("include/generated/uapi"));
        dirs
    }

    /// The `-include` files, in the build's order.
    pub fn forced_includes(&self) -> Vec<PathBuf> {
        vec![self.src().join("include/linux/compiler-version.h"), self.src().join("include/linux/kconfig.h")]
    }

    /// `base` plus the build's predefined macros, `-I`, `-include` and `-D` flags; `base`'s
    /// own defines come after the build's (so a user's `-D` wins), its `-I` after them.
    pub fn options(&self, base: &PreprocessOptions) -> PreprocessOptions {
        let mut opts = base.clone();
        let mut defines: Vec<(String, String)> =
            IA64_PREDEFINED.iter().map(|(n, v)| (n.to_string(), v.to_string())).collect();
        defines.extend(IA64_KERNEL_DEFINES.iter().map(|n| (n.to_string(), "1".to_string())));
        defines.extend(base.defines.iter().cloned());
        opts.defines = defines;
        let mut dirs = self.include_dirs();
        dirs.extend(base.include_dirs.iter().cloned());
        opts.include_dirs = dirs;
        let mut forced = self.forced_includes();
        forced.extend(base.forced_includes.iter().cloned());
        opts.forced_includes = forced;
        opts
    }

    /// The options and generated headers for preprocessing with `config`; `asm_offsets` is
    /// the text of `include/generated/asm-offsets.h` (used only if the objtree has none).
    ///
    /// # Errors
    /// A tree file the generated headers are made from cannot be read or is malformed.
    pub fn build(
        &self,
        base: &PreprocessOptions,
        config: &KernelConfig,
        asm_offsets: Option<&str>,
        loader: &dyn SourceLoader,
    ) -> Result<KernelBuild, KernelError> {
        let obj = self.obj();
        let mut files: Vec<(PathBuf, String)> = vec![(obj.join("include/generated/autoconf.h"), config.autoconf_h())];
        if let Some(text) = asm_offsets {
            files.push((obj.join("include/generated/asm-offsets.h"), text.to_string()));
        }
        let read = |path: PathBuf| -> Result<(String, String), KernelError> {
            let name = path.display().to_string();
            let text =
                loader.load(&path).map_err(|e| KernelError::Read { path: name.clone(), message: e.to_string() })?;
            Ok((name, text))
        };
        let exists = |path: &Path| loader.load(path).is_ok();
        let src = self.src();
        let arch_inc = src.join(format!("arch/{ARCH}/include"));
        let gen = obj.join(format!("arch/{ARCH}/include/generated"));
        for (arch_kbuild, generic_kbuild, arch_dir, out_dir) in [
            ("asm/Kbuild", "include/asm-generic/Kbuild", arch_inc.join("asm"), gen.join("asm")),
            ("uapi/asm/Kbuild", "include/uapi/asm-generic/Kbuild", arch_inc.join("uapi/asm"), gen.join("uapi/asm")),
        ] {
            let (_, arch_text) = read(arch_inc.join(arch_kbuild))?;
            let (_, generic_text) = read(src.join(generic_kbuild))?;
            let mut names = generated::kbuild_list(&arch_text, "generic-y");
            let generated_y = generated::kbuild_list(&arch_text, "generated-y");
            for name in generated::kbuild_list(&generic_text, "mandatory-y") {
                if !names.contains(&name) && !generated_y.contains(&name) && !exists(&arch_dir.join(&name)) {
                    names.push(name);
                }
            }
            for name in names {
                files.push((out_dir.join(&name), generated::generic_wrapper(&name)));
            }
        }
        let (tbl_name, table) = read(src.join(format!("arch/{ARCH}/kernel/syscalls/syscall.tbl")))?;
        // arch/ia64/kernel/syscalls/Makefile: `syscallhdr.sh --emit-nr --offset __NR_Linux`.
        files.push((
            gen.join("uapi/asm/unistd_64.h"),
            generated::unistd_h(&tbl_name, &table, "unistd_64.h", Some("__NR_Linux"))?,
        ));
        files.push((gen.join("asm/syscall_table.h"), generated::syscall_table_h(&tbl_name, &table)?));
        let mut mem = MemLoader::new();
        for (path, text) in files {
            match loader.load(&path) {
                Err(e) if e.kind() == ErrorKind::NotFound => mem.insert(path, text),
                _ => {}
            }
        }
        Ok(KernelBuild { options: self.options(base), generated: mem })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn in_tree_flags_follow_the_makefiles() {
        let kt = KernelTree::new("/k");
        let dirs: Vec<String> = kt.include_dirs().iter().map(|d| d.display().to_string()).collect();
        assert_eq!(
            dirs,
            [
                "/k/arch/ia64/include",
                "/k/arch/ia64/include/generated",
                "/k/include",
                "/k/arch/ia64/include/uapi",
                "/k/arch/ia64/include/generated/uapi",
                "/k/include/uapi",
                "/k/include/generated/uapi"
            ]
        );
        let out_of_tree = KernelTree { srctree: "/k".into(), objtree: Some("/o".into()) };
        assert_eq!(out_of_tree.include_dirs()[2], PathBuf::from("/k/include"));
        assert_eq!(out_of_tree.include_dirs()[3], PathBuf::from("/o/include"));
        let opts = kt.options(&PreprocessOptions::new().defined("MINE", "2"));
        assert_eq!(opts.forced_includes.last(), Some(&PathBuf::from("/k/include/linux/kconfig.h")));
        assert!(opts.defines.iter().any(|(n, _)| n == "__ASSEMBLY__"));
        assert_eq!(opts.defines.last(), Some(&("MINE".to_string(), "2".to_string())));
    }

    fn tree() -> MemLoader {
        MemLoader::new()
            .with("/k/arch/ia64/include/asm/Kbuild", "generated-y += syscall_table.h\ngeneric-y += vtime.h\n")
            .with("/k/include/asm-generic/Kbuild", "mandatory-y += own.h\nmandatory-y += missing.h\n")
            .with("/k/arch/ia64/include/asm/own.h", "")
            .with("/k/arch/ia64/include/uapi/asm/Kbuild", "generated-y += unistd_64.h\n")
            .with("/k/include/uapi/asm-generic/Kbuild", "mandatory-y += errno.h\n")
            .with("/k/arch/ia64/kernel/syscalls/syscall.tbl", "0 common ni_syscall sys_ni_syscall\n")
    }

    #[test]
    fn generated_headers_unless_the_build_has_them() {
        let config = KernelConfig::parse(".config", "CONFIG_SMP=y\n").unwrap();
        let loader = tree();
        let build =
            KernelTree::new("/k").build(&PreprocessOptions::new(), &config, Some("#define X 1\n"), &loader).unwrap();
        let g = &build.generated;
        let get = |p: &str| g.load(Path::new(p)).ok();
        assert_eq!(get("/k/include/generated/autoconf.h").map(|t| t.contains("#define CONFIG_SMP 1")), Some(true));
        assert_eq!(get("/k/include/generated/asm-offsets.h").as_deref(), Some("#define X 1\n"));
        assert_eq!(
            get("/k/arch/ia64/include/generated/asm/vtime.h").as_deref(),
            Some("#include <asm-generic/vtime.h>\n")
        );
        assert!(get("/k/arch/ia64/include/generated/asm/missing.h").is_some());
        assert!(get("/k/arch/ia64/include/generated/asm/own.h").is_none(), "the arch has its own");
        assert!(get("/k/arch/ia64/include/generated/uapi/asm/errno.h").is_some());
        assert!(get("/k/arch/ia64/include/generated/asm/syscall_table.h").is_some());
        // A real build's file is left to the file system.
        let real = tree().with("/k/include/generated/asm-offsets.h", "#define X 2\n");
        let build =
            KernelTree::new("/k").build(&PreprocessOptions::new(), &config, Some("#define X 1\n"), &real).unwrap();
        assert!(build.generated.load(Path::new("/k/include/generated/asm-offsets.h")).is_err());
    }

    #[test]
    fn missing_tree_file_is_an_error() {
        let e = KernelTree::new("/nowhere")
            .build(&PreprocessOptions::new(), &KernelConfig::default(), None, &MemLoader::new())
            .unwrap_err();
        assert!(e.to_string().contains("/nowhere/arch/ia64/include/asm/Kbuild"), "{e}");
    }
}
