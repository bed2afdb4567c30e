//! A row of `acctemu bench` run again in a fresh process: `acctemu bench --row LABEL --format
//! json` with the same lengths, limits and `--max-paths` (issue 17).
//!
//! Every row of a run of several rows goes through here, so that what the host figures say is
//! the row's own: in one process a row's peak memory would include the heap the rows before it
//! left behind (the allocator keeps what they freed, so resetting `VmHWM` only brings it down
//! to that), and a row's figures would depend on which rows ran before it. The callgrind
//! re-runs ([`super::Callgrind`]) use the same command line.

use super::{Case, Measured, Row, Work};
use crate::cli::CliError;
use std::path::PathBuf;
use std::process::Command;

/// How to re-run a row: the acctemu executable and the `--max-paths` the rows run under.
#[derive(Debug, Clone)]
pub struct Rerun {
    /// The acctemu executable (`acctemu bench --row LABEL`).
    pub exe: PathBuf,
    /// `--max-paths` of the re-runs.
    pub max_paths: u64,
}

impl Rerun {
    /// Re-runs by the running executable.
    ///
    /// # Errors
    /// The running executable unknown.
    pub fn this_exe(max_paths: u64) -> Result<Rerun, CliError> {
        let exe = std::env::current_exe()
            .map_err(|e| CliError::Bench(format!("cannot find the acctemu executable to run the rows: {e}")))?;
        Ok(Rerun { exe, max_paths })
    }

    /// The arguments of `exe` that run `case` alone: `iterations` loop iterations or `syscalls`
    /// system calls, this process's size limits, JSON out.
    pub fn args(&self, case: &Case, iterations: u64, syscalls: u64) -> Vec<String> {
        let limits = crate::cli::limits();
        [
            "--max-input-size",
            &limits.max_input_size.to_string(),
            "--max-output-size",
            &limits.max_output_size.to_string(),
            "bench",
            "--row",
            &case.label(),
            "--iterations",
            &iterations.to_string(),
            "--syscalls",
            &syscalls.to_string(),
            "--max-paths",
            &self.max_paths.to_string(),
            "--format",
            "json",
        ]
        .iter()
        .map(|a| a.to_string())
        .collect()
    }

    /// Runs `case` in a fresh process and reads its row back.
    ///
    /// # Errors
    /// The process does not start, or fails (with the exit status it gave: a usage error
    /// stays one, a loop that stopped early stays [`CliError::Stopped`]), or its JSON does
    /// not parse.
    pub fn run(&self, case: &Case, iterations: u64, syscalls: u64) -> Result<Row, CliError> {
        let output = Command::new(&self.exe)
            .args(self.args(case, iterations, syscalls))
            .output()
            .map_err(|e| CliError::Bench(format!("{}: cannot run {}: {e}", case.label(), self.exe.display())))?;
        if !output.status.success() {
            return Err(failure(case, output.status, &String::from_utf8_lossy(&output.stderr)));
        }
        let stdout = String::from_utf8_lossy(&output.stdout);
        row_of(case, &stdout).map_err(|e| CliError::Bench(format!("{}: {e}", case.label())))
    }
}

/// The error of a re-run of `case` that exited with `status` after printing `stderr`: the
/// process's own message under the same exit status (a usage error stays one, a run that
/// stopped early stays [`CliError::Stopped`]), so the whole run reads as if the row had run here.
fn failure(case: &Case, status: std::process::ExitStatus, stderr: &str) -> CliError {
    let stopped = CliError::Stopped { report: String::new(), stop: String::new() }.to_string();
    let line = stderr.trim();
    let line = line.strip_prefix("acctemu: ").unwrap_or(line);
    match status.code() {
        Some(2) => CliError::Usage(line.strip_prefix("error: ").unwrap_or(line).to_string()),
        Some(3) => {
            CliError::Stopped { report: String::new(), stop: line.strip_prefix(&stopped).unwrap_or(line).to_string() }
        }
        _ => {
            let message = line.strip_prefix("error: ").unwrap_or(line);
            CliError::Bench(format!("{}: the row's process failed ({status}): {message}", case.label()))
        }
    }
}

/// The row of `case` in the JSON document a re-run printed.
fn row_of(case: &Case, json: &str) -> Result<Row, String> {
    let doc: serde_json::Value =
        serde_json::from_str(json).map_err(|e| format!("the row's process printed no JSON: {e}: {json}"))?;
    let r = &doc["rows"][0];
    let u64_of = |key: &str| r[key].as_u64().ok_or_else(|| format!("the row's JSON has no `{key}`: {json}"));
    let m = Measured {
        instructions: u64_of("instructions")?,
        cycles: u64_of("cycles")?,
        seconds: r["cpu_seconds"].as_f64().ok_or_else(|| format!("the row's JSON has no `cpu_seconds`: {json}"))?,
    };
    let syscalls = match case.work {
        Work::Scenario(_) => Some(u64_of("syscalls")?),
        Work::Loop(_) => None,
    };
    Ok(Row::new(case, m, syscalls, r["peak_rss_kib"].as_u64()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::bench::{cases, Core, Loop};
    use crate::cli::exit::Status;

    #[test]
    fn a_rerun_row_reads_back_into_the_same_row() {
        let case = cases()
            .into_iter()
            .find(|c| c.core == Core::S390x && matches!(c.work, Work::Loop(Loop::Alu)) && !c.timing)
            .expect("the s390x alu off row");
        let row = case.run(10, 1).expect("runs");
        let doc = serde_json::json!({ "rows": [row] }).to_string();
        let back = row_of(&case, &doc).expect("reads back");
        assert_eq!(serde_json::to_value(&back).ok(), serde_json::to_value(&row).ok());
        assert!(row_of(&case, "{}").is_err_and(|e| e.contains("no `instructions`")));
    }

    #[test]
    fn the_rerun_command_names_the_row_and_its_lengths() {
        let case = cases()[0];
        let args = Rerun { exe: PathBuf::from("acctemu"), max_paths: 7 }.args(&case, 5, 6);
        let at = |flag: &str| args.iter().position(|a| a == flag).map(|i| args[i + 1].as_str());
        assert_eq!(at("--row"), Some(case.label().as_str()));
        assert_eq!((at("--iterations"), at("--syscalls"), at("--max-paths")), (Some("5"), Some("6"), Some("7")));
        assert_eq!(at("--format"), Some("json"));
        assert!(at("--max-input-size").is_some() && at("--max-output-size").is_some());
    }

    #[test]
    fn a_failed_rerun_keeps_its_message_and_its_exit_status() {
        use std::os::unix::process::ExitStatusExt;
        let case = cases()[0];
        let exit = |code: i32| std::process::ExitStatus::from_raw(code << 8);
        let e = failure(&case, exit(2), "acctemu: error: bench: --syscalls 0: none\n");
        assert!(matches!(&e, CliError::Usage(m) if m == "bench: --syscalls 0: none"), "{e:?}");
        let stop = CliError::Stopped { report: String::new(), stop: "bench: x: the loop did not return".into() };
        let e = failure(&case, exit(3), &format!("acctemu: {stop}\n"));
        assert_eq!((e.to_string(), e.status()), (stop.to_string(), Status::Stopped));
        let e = failure(&case, exit(1), "acctemu: error: boom\n");
        assert!(matches!(&e, CliError::Bench(m) if m.starts_with(&case.label()) && m.ends_with("): boom")), "{e:?}");
        assert_eq!(e.status(), Status::Error);
    }
}
