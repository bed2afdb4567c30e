//! Preprocessor flags beyond `-D`/`-I` (`-U`, `-include`) and the kernel-tree options of
//! `asm`, `run` and `diff`, and the `acctemu asm-offsets` command.

use super::{read, CliError};
use emu_core::kernel::{KernelConfig, KernelTree};
use emu_core::preprocess::{parse_define, FsLoader, MemLoader, OverlayLoader, PreprocessOptions, SourceLoader};
use std::path::{Path, PathBuf};

/// `-U`, `-include` and the kernel-tree flags of a command that preprocesses.
#[derive(Debug, Clone, Default)]
pub struct PpArgs {
    /// `-U NAME`.
    pub undefines: Vec<String>,
    /// `-include FILE`, in order (after the kernel tree's own).
    pub forced_includes: Vec<PathBuf>,
    /// `--kernel-tree DIR`: preprocess as Linux's build of arch/ia64 does.
    pub kernel_tree: Option<PathBuf>,
    /// `--kernel-build DIR`: the build directory (`O=`) whose generated headers are used
    /// where it has them; default: the tree itself.
    pub kernel_build: Option<PathBuf>,
    /// `--kernel-config FILE`; default `.config` of the build directory.
    pub kernel_config: Option<PathBuf>,
    /// `--asm-offsets FILE`: a real build's `include/generated/asm-offsets.h`, used instead
    /// of the generated one.
    pub asm_offsets: Option<PathBuf>,
}

/// Options and the generated headers to preprocess with.
#[derive(Debug, Clone)]
pub struct Prepared {
    /// The preprocessor options.
    pub options: PreprocessOptions,
    generated: MemLoader,
}

static FS: FsLoader = FsLoader;

impl Prepared {
    /// The loader: generated headers in front of the file system.
    pub fn loader(&self) -> OverlayLoader<'static> {
        OverlayLoader::new(self.generated.clone(), &FS)
    }
}

fn text_of(path: &Path) -> Result<String, CliError> {
    Ok(String::from_utf8_lossy(&read(path)?).into_owned())
}

fn kernel_error(e: emu_core::kernel::KernelError) -> CliError {
    CliError::Usage(format!("kernel tree: {e}"))
}

/// The tree, config and asm-offsets text these flags name.
fn tree_setup(tree: &Path, args: &PpArgs) -> Result<(KernelTree, KernelConfig), CliError> {
    let kt = KernelTree { srctree: tree.to_path_buf(), objtree: args.kernel_build.clone() };
    let config_path =
        args.kernel_config.clone().unwrap_or_else(|| args.kernel_build.as_deref().unwrap_or(tree).join(".config"));
    if !config_path.exists() {
        return Err(CliError::Usage(format!(
            "{}: no kernel config; give --kernel-config FILE (a .config)",
            config_path.display()
        )));
    }
    let config =
        KernelConfig::parse(&config_path.display().to_string(), &text_of(&config_path)?).map_err(kernel_error)?;
    Ok((kt, config))
}

impl PpArgs {
    /// The preprocessor options for `defines` and `include_dirs` plus these flags, with the
    /// kernel tree's headers when one is given.
    ///
    /// # Errors
    /// An unreadable config or asm-offsets file, or a tree whose generated headers cannot be made.
    pub fn prepare(&self, defines: &[String], include_dirs: &[PathBuf]) -> Result<Prepared, CliError> {
        let mut base = super::preprocess_options();
        base.defines = defines.iter().map(|d| parse_define(d)).collect();
        base.undefines = self.undefines.clone();
        base.include_dirs = include_dirs.to_vec();
        base.forced_includes = self.forced_includes.clone();
        let Some(tree) = &self.kernel_tree else {
            if self.kernel_build.is_some() || self.kernel_config.is_some() || self.asm_offsets.is_some() {
                return Err(CliError::Usage(
                    "--kernel-build, --kernel-config and --asm-offsets need --kernel-tree DIR".into(),
                ));
            }
            return Ok(Prepared { options: base, generated: MemLoader::new() });
        };
        let (kt, config) = tree_setup(tree, self)?;
        let offsets = match &self.asm_offsets {
            Some(path) => text_of(path)?,
            None => arch_ia64::asm_offsets::generate(tree, &config, &FS).map_err(kernel_error)?,
        };
        let build = kt.build(&base, &config, Some(&offsets), &FS).map_err(kernel_error)?;
        let mut generated = build.generated;
        if self.asm_offsets.is_some() {
            // The user's file wins even over one the build directory holds.
            let obj = self.kernel_build.as_deref().unwrap_or(tree);
            generated.insert(obj.join("include/generated/asm-offsets.h"), offsets);
        }
        Ok(Prepared { options: build.options, generated })
    }
}

/// `acctemu asm-offsets --kernel-tree DIR [--kernel-config FILE] [-o FILE]`: the generated
/// header's text (written to `output` when given, else returned for stdout).
///
/// # Errors
/// A missing config or tree header, or a structure that cannot be laid out.
pub fn asm_offsets(tree: &Path, config: Option<&Path>, output: Option<&Path>) -> Result<String, CliError> {
    let args = PpArgs {
        kernel_tree: Some(tree.to_path_buf()),
        kernel_config: config.map(Path::to_path_buf),
        ..PpArgs::default()
    };
    let (_, config) = tree_setup(tree, &args)?;
    let text = arch_ia64::asm_offsets::generate(tree, &config, &FS as &dyn SourceLoader).map_err(kernel_error)?;
    match output {
        Some(out) => {
            std::fs::write(out, &text).map_err(|source| CliError::Io { path: out.to_path_buf(), source })?;
            Ok(String::new())
        }
        None => Ok(text),
    }
}
