//! Harness and register values through the real binary (issue 11): a big harness is parsed in
//! time and memory linear in its size, and a value the machine would not hold as given (a
//! `cpl` past 3, a predicate `2`, reserved PSR, RFLAGS or PSW bits, a value wider than its
//! register) is refused at its place instead of being cut silently. A region may end exactly
//! at 2^64.
//!
//! IA-64 cases assemble a three-instruction function; x86-64 and s390x cases run the traces'
//! committed objects. Each case writes its harness into a directory of its own.

mod common;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use common::{acctemu, root};

/// A function that returns at once (b0 is the harness's `sentinel`).
const IA64_SOURCE: &str = "\t.text\n\t.global f\nf:\n\tnop.m 0\n\tnop.i 0\n\tbr.ret.sptk.many b0\n\t;;\n";

/// What an IA-64 harness needs to return from [`IA64_SOURCE`].
const IA64_RETURN: &str = "[registers]\nb0 = \"sentinel\"\n";

/// Far more than any of these runs needs on a loaded debug build (each takes seconds at
/// most), and far less than the quadratic parser took (20,000 regions: 207 s).
const GENEROUS: Duration = Duration::from_secs(60);

/// Which core a case runs.
#[derive(Clone, Copy)]
enum Core {
    Ia64,
    X86,
    S390,
}

impl Core {
    /// The program the case runs, written into `dir` when it is source.
    fn program(self, dir: &std::path::Path) -> PathBuf {
        match self {
            Core::Ia64 => {
                let path = dir.join("f.S");
                std::fs::write(&path, IA64_SOURCE).expect("writes the source");
                path
            }
            Core::X86 => root().join("traces/x86/obj/sched-avg-div.o"),
            Core::S390 => root().join("traces/s390/obj/vtime-delayed.o"),
        }
    }
}

/// A directory of its own for `name`.
fn case_dir(name: &str) -> PathBuf {
    let safe: String = name.chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '_' }).collect();
    let dir = std::env::temp_dir().join(format!("acctemu-robust-harness-{}-{safe}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("creates the case directory");
    dir
}

/// The result of one run: exit status, stdout, stderr.
struct Outcome {
    status: Option<i32>,
    stdout: String,
    stderr: String,
    took: Duration,
}

/// Runs `acctemu run PROGRAM [--harness h.toml] EXTRA...` for `core` in a directory of its
/// own; `harness` is written as `h.toml` when given.
fn run(name: &str, core: Core, harness: Option<&str>, extra: &[&str]) -> Outcome {
    let dir = case_dir(name);
    let program = core.program(&dir);
    let mut args = vec!["run".to_string(), "-v".to_string(), program.display().to_string()];
    if let Some(text) = harness {
        let path = dir.join("h.toml");
        std::fs::write(&path, text).expect("writes the harness");
        args.extend(["--harness".to_string(), path.display().to_string()]);
    }
    args.extend(extra.iter().map(|a| (*a).to_string()));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let start = Instant::now();
    let out = acctemu(&args);
    let took = start.elapsed();
    let _ = std::fs::remove_dir_all(&dir);
    Outcome {
        status: out.status.code(),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        took,
    }
}

/// A refused value: exit status 1, no panic, and every fragment in the message.
struct Refusal {
    name: &'static str,
    core: Core,
    harness: Option<&'static str>,
    sets: &'static [&'static str],
    expect: &'static [&'static str],
}

fn check_refusals(cases: &[Refusal]) {
    let mut failures = Vec::new();
    for c in cases {
        let extra: Vec<&str> = c.sets.iter().flat_map(|s| ["--set", s]).collect();
        let out = run(c.name, c.core, c.harness, &extra);
        if out.stderr.contains("panicked at") || out.status != Some(1) {
            failures.push(format!("{}: exit status {:?}, expected 1\nstderr: {}", c.name, out.status, out.stderr));
            continue;
        }
        let missing: Vec<&&str> = c.expect.iter().filter(|f| !out.stderr.contains(**f)).collect();
        if !missing.is_empty() {
            failures.push(format!("{}: missing {missing:?} in:\n{}", c.name, out.stderr));
        }
    }
    assert!(failures.is_empty(), "{} of {} cases failed:\n\n{}", failures.len(), cases.len(), failures.join("\n\n"));
}

/// `n` regions of a page each, listed from the highest address down (the order that made
/// mapping them shift every region already mapped).
fn many_regions(n: u64) -> String {
    let mut text = String::from(IA64_RETURN);
    for i in (0..n).rev() {
        let base = 0x1_0000_0000 + i * 0x1000;
        text.push_str(&format!("[[region]]\nname = \"r{i}\"\nbase = \"{base:#x}\"\nsize = 4096\nperms = \"rw\"\n\n"));
    }
    text
}

#[test]
fn twenty_thousand_regions_parse_in_linear_time() {
    let out = run("many-regions", Core::Ia64, Some(&many_regions(20_000)), &[]);
    assert_eq!(out.status, Some(0), "stderr: {}", out.stderr);
    assert!(out.stdout.contains("stop: returned to the sentinel"), "{}", out.stdout);
    assert!(out.took < GENEROUS, "20,000 regions took {:?}", out.took);
}

#[test]
fn a_fill_of_twenty_thousand_values_on_one_line_runs() {
    // Each value used to copy its whole line (and count newlines from the start): 8,000
    // values took 890 MB; 20,000 would take several GB.
    let values = vec!["\"0x1\""; 20_000].join(", ");
    let harness = format!(
        "{IA64_RETURN}[[region]]\nname = \"d\"\nbase = \"0x100000000\"\nsize = \"0x10000\"\nperms = \"rw\"\n\
         fill = [ {{ at = 0, u8 = [{values}] }} ]\n"
    );
    let out = run("long-fill", Core::Ia64, Some(&harness), &[]);
    assert_eq!(out.status, Some(0), "stderr: {}", out.stderr);
    assert!(out.took < GENEROUS, "the fill took {:?}", out.took);
}

#[test]
fn an_error_on_a_long_fill_line_names_its_column() {
    let values = vec!["1"; 5_000].join(", ");
    let harness = format!(
        "[[region]]\nname = \"d\"\nbase = \"0x100000000\"\nsize = \"0x10000\"\nperms = \"rw\"\n\
         fill = [ {{ at = 0, u8 = [{values}, 256] }} ]\n"
    );
    let col = "fill = [ { at = 0, u8 = [".len() + values.len() + ", ".len() + 1;
    let out = run("long-fill-error", Core::Ia64, Some(&harness), &[]);
    assert_eq!(out.status, Some(1), "stderr: {}", out.stderr);
    let place = format!("h.toml:6:{col}: error: region.d.fill[0].u8[5000]: 0x100 does not fit in 1 byte(s)");
    assert!(out.stderr.contains(&place), "want {place} in:\n{}", out.stderr);
}

#[test]
fn ia64_values_that_would_be_cut_are_refused_at_their_place() {
    check_refusals(&[
        Refusal {
            name: "cpl 7",
            core: Core::Ia64,
            harness: Some("cpl = 7\n"),
            sets: &[],
            expect: &["h.toml:1:7: error: cpl: 7 is not a privilege level (0 to 3)"],
        },
        Refusal {
            name: "negative cpl",
            core: Core::Ia64,
            harness: Some("cpl = -1\n"),
            sets: &[],
            expect: &["h.toml:1:7: error: cpl: -1 is not a privilege level (0 to 3)"],
        },
        Refusal {
            name: "predicate 2",
            core: Core::Ia64,
            harness: Some("[registers]\np6 = \"2\"\n"),
            sets: &[],
            expect: &["h.toml:2:6: error: registers.p6: p6 = 0x2: a predicate is 0 or 1"],
        },
        Refusal {
            name: "--set predicate 2",
            core: Core::Ia64,
            harness: None,
            sets: &["p63=2"],
            expect: &["--set p63=2: error: p63 = 0x2: a predicate is 0 or 1"],
        },
        Refusal {
            name: "--set psr reserved bit 0",
            core: Core::Ia64,
            harness: None,
            sets: &["psr=0x1"],
            expect: &["--set psr=0x1: error: psr 0x1 sets reserved bits 0x1"],
        },
        Refusal {
            name: "--set psr reserved high bits",
            core: Core::Ia64,
            harness: None,
            sets: &["psr=0xffff100000000000"],
            expect: &[
                "--set psr=0xffff100000000000: error: psr 0xffff100000000000 sets reserved bits 0xffff000000000000",
            ],
        },
        Refusal {
            name: "harness psr reserved bit 6",
            core: Core::Ia64,
            harness: Some("psr = \"0x100000000040\"\n"),
            sets: &[],
            expect: &["h.toml:1:7: error: psr: psr 0x100000000040 sets reserved bits 0x40"],
        },
        Refusal {
            name: "psr ri 3",
            core: Core::Ia64,
            harness: Some("psr = \"0x160000000000\"\n"),
            sets: &[],
            expect: &["h.toml:1:7: error: psr: psr 0x160000000000 has ri = 3"],
        },
        Refusal {
            name: "cpl and psr disagree",
            core: Core::Ia64,
            harness: Some("cpl = 3\npsr = \"0x100000000000\"\n"),
            sets: &[],
            expect: &["h.toml:1:7: error: cpl: cpl = 3 disagrees with the privilege level 0 of psr = 0x100000000000"],
        },
        Refusal {
            name: "ar.ec wider than 6 bits",
            core: Core::Ia64,
            harness: Some("[registers]\n\"ar.ec\" = 64\n"),
            sets: &[],
            expect: &["h.toml:2:11: error: registers.ar.ec: 0x40 sets bits 0x40 that ar.ec reserves"],
        },
        Refusal {
            name: "ar.rsc reserved field",
            core: Core::Ia64,
            harness: None,
            sets: &["ar.rsc=0x20"],
            expect: &["--set ar.rsc=0x20: error: 0x20 sets bits 0x20 that ar.rsc reserves"],
        },
        Refusal {
            name: "ar.pfs reserved field",
            core: Core::Ia64,
            harness: None,
            sets: &["ar64=0x10000000000"],
            expect: &["0x10000000000 sets bits 0x10000000000 that ar.pfs reserves"],
        },
        Refusal {
            name: "ip slot 3",
            core: Core::Ia64,
            harness: None,
            sets: &["ip=f+3"],
            expect: &["--set ip=f+3: error: ip 0x3 names slot 3 of a bundle (0 to 2)"],
        },
        Refusal {
            name: "misaligned cr.iva",
            core: Core::Ia64,
            harness: None,
            sets: &["cr.iva=0x100"],
            expect: &["--set cr.iva=0x100: error: cr.iva 0x100 is not 32 KiB aligned"],
        },
        Refusal {
            name: "misaligned ar.bspstore",
            core: Core::Ia64,
            harness: None,
            sets: &["ar.bspstore=0x71000004"],
            expect: &["ar.bspstore 0x71000004 is not 8-byte aligned"],
        },
    ]);
}

#[test]
fn x86_values_that_would_be_cut_are_refused_at_their_place() {
    check_refusals(&[
        Refusal {
            name: "rflags bit 3",
            core: Core::X86,
            harness: None,
            sets: &["rflags=0x8"],
            expect: &["--set rflags=0x8: error: rflags 0x8 sets reserved bits 0x8"],
        },
        Refusal {
            name: "rflags past bit 21",
            core: Core::X86,
            harness: None,
            sets: &["rflags=0x100000202"],
            expect: &["rflags 0x100000202 sets reserved bits 0x100000000"],
        },
        Refusal {
            name: "eflags wider than 32 bits",
            core: Core::X86,
            harness: None,
            sets: &["eflags=0x100000202"],
            expect: &["eflags 0x100000202 is wider than 32 bits"],
        },
        Refusal {
            name: "tsc_aux wider than 32 bits",
            core: Core::X86,
            harness: Some("[registers]\ntsc_aux = \"0x100000000\"\n"),
            sets: &[],
            expect: &["h.toml:2:11: error: registers.tsc_aux: tsc_aux 0x100000000 is wider than 32 bits"],
        },
        Refusal {
            name: "non-canonical gs_base",
            core: Core::X86,
            harness: None,
            sets: &["gs_base=0x800000000000"],
            expect: &["gs_base 0x800000000000 is not canonical"],
        },
        Refusal {
            name: "harness psr is rflags",
            core: Core::X86,
            harness: Some("psr = \"0x20\"\n"),
            sets: &[],
            expect: &["h.toml:1:7: error: psr: rflags 0x20 sets reserved bits 0x20"],
        },
        Refusal {
            name: "x86 cpl 3",
            core: Core::X86,
            harness: Some("cpl = 3\n"),
            sets: &[],
            expect: &["h.toml:1:7: error: cpl: cpl 3 cannot be run: the x86-64 core models privilege level 0 only"],
        },
        // TLB, issue 12: only the ia64 core models address translation.
        Refusal {
            name: "x86 translation",
            core: Core::X86,
            harness: Some("translation = true\n"),
            sets: &[],
            expect: &["h.toml:1:15: error: translation: translation = true: this core models no address translation"],
        },
    ]);
}

#[test]
fn s390_values_that_would_be_cut_are_refused_at_their_place() {
    check_refusals(&[
        Refusal {
            name: "cc 4",
            core: Core::S390,
            harness: None,
            sets: &["cc=4"],
            expect: &["--set cc=4: error: cc 0x4 is not 0 to 3"],
        },
        Refusal {
            name: "psw_mask reserved bit 0",
            core: Core::S390,
            harness: None,
            sets: &["psw_mask=0x8000000180000000"],
            expect: &["psw_mask 0x8000000180000000 sets reserved bits 0x8000000000000000"],
        },
        Refusal {
            name: "psw_mask 31-bit mode",
            core: Core::S390,
            harness: Some("[registers]\npsw_mask = \"0x80000000\"\n"),
            sets: &[],
            expect: &["h.toml:2:12: error: registers.psw_mask: psw_mask 0x80000000 is not 64-bit addressing"],
        },
        Refusal {
            name: "harness psr is the psw mask",
            core: Core::S390,
            harness: Some("psr = \"0x1\"\n"),
            sets: &[],
            expect: &["h.toml:1:7: error: psr: psw_mask 0x1 sets reserved bits 0x1"],
        },
        Refusal {
            name: "s390 itc",
            core: Core::S390,
            harness: Some("itc = 5\n"),
            sets: &[],
            expect: &["h.toml:1:7: error: itc: itc = 5: the s390x core's cycle count starts at 0"],
        },
        Refusal {
            name: "misaligned prefix",
            core: Core::S390,
            harness: None,
            sets: &["prefix=0x1000"],
            expect: &["prefix 0x1000 is not a multiple of 8 KiB below 2^31"],
        },
        Refusal {
            name: "s390 cpl 3",
            core: Core::S390,
            harness: Some("cpl = 3\n"),
            sets: &[],
            expect: &["h.toml:1:7: error: cpl: cpl 3 cannot be run: the s390x core has no privilege levels"],
        },
        // TLB, issue 12: only the ia64 core models address translation.
        Refusal {
            name: "s390 translation",
            core: Core::S390,
            harness: Some("translation = true\n"),
            sets: &[],
            expect: &["h.toml:1:15: error: translation: translation = true: this core models no address translation"],
        },
    ]);
}

#[test]
fn values_the_machine_holds_still_run() {
    let ia64 = format!("cpl = 3\npsr = \"0x100300002000\"\n{IA64_RETURN}p6 = 1\n\"ar.ec\" = \"0x3f\"\n");
    let out = run("ia64 good values", Core::Ia64, Some(&ia64), &["--set", "psr=0x0000101308026000"]);
    assert_eq!(out.status, Some(0), "stderr: {}", out.stderr);
    assert!(out.stdout.contains("psr: \"0x0000101308026000\""), "{}", out.stdout);
    let x86 = run("x86 psr", Core::X86, Some("cpl = 0\npsr = \"0x203\"\n"), &["--max-insns", "0"]);
    assert!(x86.stdout.contains("rflags: \"0x0000000000000203\""), "stdout: {}\nstderr: {}", x86.stdout, x86.stderr);
    let s390 =
        run("s390 psw", Core::S390, Some("cpl = 0\n"), &["--set", "psw_mask=0x0000300180000000", "--max-insns", "0"]);
    assert!(
        s390.stdout.contains("psw.mask: \"0x0000300180000000\""),
        "stdout: {}\nstderr: {}",
        s390.stdout,
        s390.stderr
    );
}

#[test]
fn a_region_ending_exactly_at_2_64_maps() {
    let region = "[[region]]\nname = \"top\"\nbase = \"0xffff_ffff_ffff_f000\"\nsize = \"0x1000\"\nperms = \"rw\"\n\
                  fill = [ { at = \"0xff8\", u64 = [\"0x1122334455667788\"] } ]\n";
    let good = format!("{IA64_RETURN}r8 = \"top+0xff8\"\n{region}");
    let out = run("region at 2^64", Core::Ia64, Some(&good), &[]);
    assert_eq!(out.status, Some(0), "stderr: {}", out.stderr);
    assert!(out.stdout.contains("r8: \"0xfffffffffffffff8\""), "{}", out.stdout);
    let top = format!("{IA64_RETURN}r8 = \"top.top\"\n{region}");
    let out = run("top of a region at 2^64", Core::Ia64, Some(&top), &[]);
    assert_eq!(out.status, Some(1), "stderr: {}", out.stderr);
    assert!(out.stderr.contains("h.toml:3:6: error: registers.r8: 'top.top' is 2^64"), "{}", out.stderr);
    let past = format!(
        "{IA64_RETURN}[[region]]\nname = \"p\"\nbase = \"0xffff_ffff_ffff_f001\"\nsize = \"0x1000\"\nperms = \"rw\"\n"
    );
    let out = run("region past 2^64", Core::Ia64, Some(&past), &[]);
    assert!(out.stderr.contains("h.toml:6:8: error: region.p.size: region ends past 2^64"), "{}", out.stderr);
}

#[test]
fn an_instruction_pointer_given_as_a_register_is_where_the_run_starts() {
    // The entry point used to be set after the registers, replacing ip / rip / psw_addr.
    let ia64 = run("ia64 ip", Core::Ia64, None, &["--set", "ip=f+0x12", "--max-insns", "0"]);
    assert!(ia64.stdout.contains("exhausted at 0x10 slot 2"), "stdout: {}\nstderr: {}", ia64.stdout, ia64.stderr);
    let x86 = run("x86 rip", Core::X86, Some("[registers]\nrip = \"0x400010\"\n"), &["--max-insns", "0"]);
    assert!(x86.stdout.contains("exhausted at pc 0x400010"), "stdout: {}\nstderr: {}", x86.stdout, x86.stderr);
    let s390 = run("s390 psw_addr", Core::S390, None, &["--set", "psw_addr=0x10", "--max-insns", "0"]);
    assert!(s390.stdout.contains("exhausted at pc 0x10"), "stdout: {}\nstderr: {}", s390.stdout, s390.stderr);
}

#[test]
fn fifty_thousand_counters_are_read_in_linear_time() {
    // Each counter searched the whole snapshot before being appended: N² for N counters.
    let n = 50_000u64;
    let mut harness = format!(
        "{IA64_RETURN}[[region]]\nname = \"d\"\nbase = \"0x100000000\"\nsize = \"{:#x}\"\nperms = \"rw\"\n\
         fill = [ {{ at = \"{:#x}\", u64 = [\"0x1234\"] }} ]\n",
        n * 8,
        (n - 1) * 8
    );
    for i in 0..n {
        harness.push_str(&format!(
            "[[counter]]\nname = \"c{i}\"\naddress = \"d+{}\"\nwidth = 8\nunit = \"cycles\"\n",
            i * 8
        ));
    }
    let out = run("many-counters", Core::Ia64, Some(&harness), &[]);
    assert_eq!(out.status, Some(0), "stderr: {}", out.stderr);
    assert!(out.stdout.contains("counter.c49999: \"0x0000000000001234\""), "no last counter in the report");
    assert!(out.took < GENEROUS, "50,000 counters took {:?}", out.took);
}

#[test]
fn a_chain_of_a_hundred_thousand_symbols_resolves_in_linear_time() {
    // Each name was searched in a list of every name before it: 20,000 took 11 s.
    let n = 100_000u64;
    let mut harness = format!("{IA64_RETURN}r8 = \"s{}\"\n[symbols]\ns0 = 1\n", n - 1);
    for i in 1..n {
        harness.push_str(&format!("s{i} = \"s{}+1\"\n", i - 1));
    }
    let out = run("symbol-chain", Core::Ia64, Some(&harness), &[]);
    assert_eq!(out.status, Some(0), "stderr: {}", out.stderr);
    assert!(out.stdout.contains(&format!("r8: \"{n:#018x}\"")), "r8 is not s{}", n - 1);
    assert!(out.took < GENEROUS, "100,000 symbols took {:?}", out.took);
}
