//! `acctemu list` and `acctemu show NAME`: the trace catalogue, and one trace's source and
//! harness.

use super::CliError;
use std::fmt::Write as _;

/// One paragraph per trace: name, architecture, seed document, description, bound paths.
pub fn list() -> String {
    let mut out = String::new();
    for t in traces::catalogue() {
        let _ = writeln!(out, "{}", t.name);
        let _ = writeln!(out, "  arch:   {}", t.arch.name());
        let _ = writeln!(out, "  seed:   {}", t.seed);
        let _ = writeln!(out, "  about:  {}", t.description);
        let _ = writeln!(out, "  paths:");
        for b in t.bindings {
            let end = match b.end {
                traces::PathEnd::Symbol(s) => format!("reaching {s}"),
                traces::PathEnd::Rfi => "rfi".to_string(),
            };
            let _ = writeln!(out, "    {:<14} from {} to {end}", b.kind.name(), b.start);
        }
    }
    out
}

/// The trace's defines, source and harness, each under a header.
///
/// # Errors
/// No trace of that name.
pub fn show(name: &str) -> Result<String, CliError> {
    let t = traces::find(name).ok_or_else(|| {
        let names: Vec<&str> = traces::catalogue().iter().map(|t| t.name).collect();
        CliError::Usage(format!("no trace `{name}` in the catalogue (known: {})", names.join(", ")))
    })?;
    let mut out = String::new();
    let _ = writeln!(out, "# {} ({}, seed {})", t.name, t.arch.name(), t.seed);
    let _ = writeln!(out, "# {}", t.description);
    let defines: Vec<String> = t.defines.iter().map(|(n, v)| format!("-D {n}={v}")).collect();
    let _ = writeln!(out, "# defines: {}", if defines.is_empty() { "(none)".to_string() } else { defines.join(" ") });
    let _ = writeln!(out, "\n# ---- source: {} ----", t.source_name);
    out.push_str(t.source);
    if !t.source.ends_with('\n') {
        out.push('\n');
    }
    let _ = writeln!(out, "\n# ---- harness: {} ----", t.harness_name);
    out.push_str(t.harness);
    if !t.harness.ends_with('\n') {
        out.push('\n');
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn list_names_every_trace_with_its_paths() {
        let text = list();
        for t in traces::catalogue() {
            assert!(text.contains(t.name) && text.contains(t.description), "{text}");
        }
        assert!(text.contains("syscall_enter"), "{text}");
    }

    #[test]
    fn show_prints_source_and_harness() {
        let Some(t) = traces::catalogue().first() else { return };
        let text = show(t.name).unwrap_or_else(|e| panic!("{e}"));
        assert!(text.contains(t.source) && text.contains(t.harness));
        assert!(matches!(show("nope"), Err(CliError::Usage(_))));
    }
}
