//! The scenario diff as a reviewer reads it (issue 18): the headline first, trace names as
//! column heads, attribution matched by code, and the 72-column mail layout.

mod common;

use common::acctemu;

fn ok(args: &[&str]) -> String {
    let o = acctemu(args);
    assert!(o.status.success(), "{args:?}: {}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// `--format mail` fits a patch review: plain ASCII, no line over 72 columns, and it carries
/// the headline, the model and workload, the per-path table and both verdicts.
#[test]
fn the_mail_layout_is_72_columns_of_ascii_with_headline_table_and_verdicts() {
    let out = ok(&["diff", "--syscalls", "200", "--format", "mail"]);
    for line in out.lines() {
        assert!(line.chars().count() <= 72, "{} columns: {line}\n{out}", line.chars().count());
        assert!(line.is_ascii(), "not ASCII: {line}");
    }
    assert!(out.starts_with("v2 saves 18.0 cycles per system call (-11.3%, 12.0 ns) over v1"), "{out}");
    assert!(out.contains("\nOverhead over none: v2 +28.0, v1 +46.0 cycles, 0.61x v1's.\n"), "{out}");
    assert!(out.contains("\nmodel: Itanium 2 (Madison) at 1.5 GHz; workload: 200 system calls,"), "{out}");
    assert!(out.contains("\ncycles per system call       none        v1        v2     v2-v1    v2/v1\n"), "{out}");
    assert!(out.contains("\nentry + exit                113.0     159.0     141.0     -18.0    0.887\n"), "{out}");
    assert!(out.contains("\n  ns at 1.5 GHz              75.3     106.0      94.0     -12.0\n"), "{out}");
    assert!(out.contains("\n  v1 correct: utime ") && out.contains("\n  v2 correct: utime "), "{out}");
    assert!(out.contains("(within +/-"), "{out}");
    assert!(out.contains("agreeing is not being correct"), "{out}");
}

/// One stop inserted where it costs nothing (the issue's example): no cycle changes, and the
/// attribution shows only the split group and the wait that absorbed the new group's cycle,
/// not rows of -18, +17 and +3 from groups compared by position.
#[test]
fn an_inserted_stop_is_attributed_where_the_code_changed() {
    let out = ok(&["diff", "ia64/syscall/v2", "--patch", "tests/data/patches/ia64-v2-stop.diff", "--syscalls", "200"]);
    assert!(out.starts_with("v2+stop and v2 cost the same: 141.0 cycles per system call.\n"), "{out}");
    let groups = &out[out.find("by instruction group").expect("groups")..out.find("\naccounting").expect("accounting")];
    let rows: Vec<&str> = groups.lines().skip(1).filter(|l| l.starts_with("  ") && !l.starts_with("   ")).collect();
    assert_eq!(
        rows,
        [
            "  .work_processed_syscall#12->#13      21.00     20.00     -1.00",
            "  .work_processed_syscall#2->#2-3       1.00      2.00     +1.00"
        ],
        "{out}"
    );
    assert!(groups.contains("      same code: mov.m r19=ar.bsp"), "{groups}");
    assert!(groups.contains("      v2+stop: ld8 r23=[r3],-64\n"), "{groups}");
    assert!(out.contains("no label's cost changed by 0.05 cycles per call or more"), "{out}");
}

/// A `movl` of a code address names the symbol, as objdump names branch targets; the rows of
/// 0.01-cycle noise are folded into one; `--top` folds the rest into `other`.
#[test]
fn constants_name_their_symbol_and_small_rows_fold() {
    let out = ok(&["diff", "--syscalls", "200", "--top", "2"]);
    assert!(out.contains("movl r14=0xb540 <__kernel_syscall_via_epc>"), "{out}");
    assert!(out.contains("\n  noise ("), "{out}");
    assert!(out.contains("\n  other ("), "{out}");
    let groups = &out[out.find("by instruction group").expect("groups")..out.find("\n  other (").expect("other")];
    assert_eq!(groups.lines().filter(|l| l.starts_with("  ") && !l.starts_with("   ")).count(), 2, "{groups}");
}

/// The README's main-job output is what `acctemu diff` prints: every line of its excerpt
/// (`[...]` marks what it leaves out) is a line of the output, in order.
#[test]
fn the_readme_shows_the_main_job_as_it_runs() {
    let readme = std::fs::read_to_string(common::root().join("README.md")).expect("README.md");
    let setup = &readme[readme.find("## Set-up").expect("Set-up")..];
    let block = &setup[setup.find("```text\n").expect("the example output") + 8..];
    let block = &block[..block.find("```").expect("its end")];
    let out = ok(&["diff"]);
    let mut lines = out.lines();
    for want in block.lines().filter(|l| l.trim() != "[...]") {
        assert!(lines.any(|l| l == want), "not in the output (in order): {want}\n{out}");
    }
}
