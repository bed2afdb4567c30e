//! The `acctemu` command line.

use acctemu::cli::{self, asm::AsmRequest, CliError};
use clap::{Parser, Subcommand};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

/// Cycle-counting emulator of the kernel paths that account CPU time.
#[derive(Debug, Parser)]
#[command(name = "acctemu", version, about)]
struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Assemble an IA-64 source file (GNU as syntax, explicit stops, C preprocessor).
    Asm {
        /// The source file.
        file: PathBuf,
        /// Define a preprocessor macro: NAME or NAME=VALUE.
        #[arg(short = 'D', value_name = "NAME[=VALUE]")]
        define: Vec<String>,
        /// Add a directory to the #include search path.
        #[arg(short = 'I', value_name = "DIR")]
        include: Vec<PathBuf>,
        /// Write the raw bytes of .text to this file.
        #[arg(short = 'o', value_name = "OUT.bin")]
        output: Option<PathBuf>,
        /// Print a per-slot listing with bytes, template, disassembly and source line.
        #[arg(long)]
        listing: bool,
    },
    /// Disassemble an IA-64 ELF object (like objdump -d) or a raw .bin of bundles.
    Disasm {
        /// The object or raw file.
        file: PathBuf,
        /// Load address of a raw file's first bundle.
        #[arg(long, default_value_t = 0, value_parser = parse_addr)]
        base: u64,
    },
}

fn parse_addr(s: &str) -> Result<u64, String> {
    let r = match s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        Some(hex) => u64::from_str_radix(hex, 16),
        None => s.parse(),
    };
    r.map_err(|e| format!("`{s}` is not an address: {e}"))
}

fn run(args: Args) -> Result<String, CliError> {
    match args.command {
        Command::Asm { file, define, include, output, listing } => {
            let req = AsmRequest { file, defines: define, include_dirs: include, output, listing };
            let done = cli::asm::run(&req)?;
            for w in &done.warnings {
                eprintln!("{w}");
            }
            Ok(done.stdout)
        }
        Command::Disasm { file, base } => cli::disasm::run(&file, base),
    }
}

fn main() -> ExitCode {
    match run(Args::parse()) {
        Ok(text) => {
            // A closed pipe (`| head`) is not an error worth reporting.
            let _ = std::io::stdout().lock().write_all(text.as_bytes());
            ExitCode::SUCCESS
        }
        // Assembler diagnostics already read `file:line:col: error: ...`.
        Err(cli::CliError::Assemble(d)) => {
            eprintln!("{d}");
            ExitCode::FAILURE
        }
        Err(e) => {
            eprintln!("acctemu: error: {e}");
            ExitCode::FAILURE
        }
    }
}
