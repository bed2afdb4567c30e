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
    out.push_str(&linux_6_1());
    out
}

/// The traces run from the installed Linux 6.1 tree's own files (issue 14; see
/// `super::kernel_tree`), listed with where the tree comes from.
fn linux_6_1() -> String {
    let tree = match super::kernel_tree::installed_tree() {
        Ok(t) => format!("{}", t.display()),
        Err(_) => "not installed (ACCTEMU_LINUX_TREE=DIR, or /usr/src/linux-source-6.1 extracted)".to_string(),
    };
    let mut out = String::new();
    for (v, about) in [
        ("none", "CONFIG_VIRT_CPU_ACCOUNTING_NATIVE off"),
        ("v1", "seed 004's patch reversed on the files (made in memory by acctemu), the option on"),
        ("v2", "the files as shipped, CONFIG_VIRT_CPU_ACCOUNTING_NATIVE on"),
    ] {
        let _ = writeln!(out, "ia64/linux-6.1/{v}");
        let _ = writeln!(out, "  arch:   ia64");
        let _ = writeln!(out, "  tree:   {tree}");
        let _ = writeln!(out, "  about:  Linux 6.1's own ivt.S, entry.S, fsys.S, gate.S, {about}");
        let _ = writeln!(out, "  paths:  break, epc, fsys-getpid, tick (user mode back to user mode)");
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
