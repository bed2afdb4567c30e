//! Native differential tests: the committed gcc -O2 objects of tests/data run in the
//! emulator and, linked into a generated C driver, natively on the host, on the same
//! generated inputs; return values must match exactly, and the RFLAGS probes' flags and
//! results wherever the SDM defines them (any Intel or AMD host). What the SDM leaves
//! undefined is held to a committed record of one host instead (flagtest.native.txt). Also checks the committed objects are not stale against their sources.

mod common;
#[path = "differential/defined.rs"]
mod defined;

use std::fmt::Write as _;
use std::path::Path;
use std::process::Command;

use arch_x86::cpu::X86Cpu;
use arch_x86::run::{load_object, prepare, RunConfig, SENTINEL};
use arch_x86::state::flags::STATUS;
use emu_core::cpu::{Machine, StopReason, StopWhen};
use emu_core::image::Image;
use emu_core::rng::Xorshift64;

/// Functions of ops.c.
const OPS: &[&str] = &[
    "add_carry",
    "sub_borrow",
    "carry_out",
    "ops8",
    "ops16",
    "ops32",
    "ext_all",
    "neg_not",
    "incdec",
    "shl64",
    "shr64",
    "sar64",
    "shl32",
    "sar32",
    "shr16",
    "sar8",
    "shift_imm",
    "rol64",
    "ror64",
    "rol32",
    "ror16",
    "rol8",
    "rot_imm",
    "bt_test",
    "bts_btr",
    "bsf_bsr",
    "popcnt_all",
    "lzcnt_tzcnt",
    "mul_hi",
    "imul_hi",
    "imul_forms",
    "mul32",
    "mul8",
    "div64",
    "idiv64",
    "div32",
    "idiv32",
    "div16",
    "idiv16",
    "div8",
    "idiv8",
    "div_const",
    "setcc_all",
    "cmov_all",
    "switch_table",
    "calls",
    "call_recursive",
    "many_args",
    "globals",
    "atomic_max",
    "atomic_bits",
    "flags_save",
    "loop_sum",
];

/// RFLAGS probes of flagtest.c.
fn flag_funcs() -> Vec<String> {
    let mut v = Vec::new();
    let sized = [
        "add", "sub", "adc", "sbb", "and", "or", "xor", "cmp", "test", "neg", "inc", "dec", "shl", "shr", "sar", "rol",
        "ror", "rcl", "rcr",
    ];
    for op in sized {
        for size in ["8", "16", "32", "64"] {
            v.push(format!("{op}{size}"));
        }
    }
    for f in [
        "imul16", "imul32", "imul64", "bt16", "bt32", "bt64", "bts64", "btr32", "bsf32", "bsf64", "bsr16", "bsr64",
        "popcnt32", "popcnt64", "tzcnt64", "lzcnt32", "shld16", "shld32", "shld64", "shrd16", "shrd32", "shrd64",
    ] {
        v.push(f.to_string());
    }
    v
}

/// The flags gcc's build.sh uses (see tests/data/build.sh).
const COMMON: &[&str] = &[
    "-O2",
    "-c",
    "-fno-asynchronous-unwind-tables",
    "-fcf-protection=none",
    "-fno-stack-protector",
    "-mno-red-zone",
    "-mgeneral-regs-only",
];

/// Deterministic inputs: edge values crossed with each other and pseudo-random values.
fn inputs(n: usize, seed: u64) -> Vec<[u64; 3]> {
    const EDGE: [u64; 27] = [
        0,
        1,
        2,
        3,
        7,
        8,
        0x1f,
        0x20,
        0x3f,
        0x40,
        0x7f,
        0x80,
        0xff,
        0x100,
        0x7fff,
        0x8000,
        0xffff,
        0x7fff_ffff,
        0x8000_0000,
        0xffff_ffff,
        0x1_0000_0000,
        i64::MAX as u64,
        i64::MIN as u64,
        u64::MAX,
        u64::MAX - 1,
        1_000_000,
        12345,
    ];
    let mut rng = Xorshift64::new(seed | 1);
    let mut rnd = move || rng.next_u64();
    (0..n)
        .map(|_| {
            let mut pick = || match rnd() % 4 {
                0 => EDGE[(rnd() % EDGE.len() as u64) as usize],
                1 => rnd() & 0xff,
                2 => rnd() >> (rnd() % 64),
                _ => rnd(),
            };
            [pick(), pick(), pick()]
        })
        .collect()
}

/// The emulator with one object loaded, reused across calls.
struct Emu {
    image: Image,
    machine: Machine<X86Cpu>,
    rsp: u64,
}

impl Emu {
    fn new(obj: &Path) -> Emu {
        let bytes = std::fs::read(obj).expect("read object");
        let image = load_object(&bytes).expect("load object");
        let cfg = RunConfig { timing: false, ..RunConfig::default() };
        let (machine, _) = prepare(&image, &cfg).expect("prepare");
        let rsp = machine.cpu.state.reg(4);
        Emu { image, machine, rsp }
    }

    fn call(&mut self, name: &str, args: [u64; 3]) -> Result<u64, String> {
        let entry = self.image.symbol(name).ok_or_else(|| format!("no symbol {name}"))?.value;
        let st = &mut self.machine.cpu.state;
        st.set_reg(7, args[0]);
        st.set_reg(6, args[1]);
        st.set_reg(2, args[2]);
        st.set_reg(4, self.rsp);
        st.rflags = 0x202;
        self.machine.mem.write_u64(self.rsp, SENTINEL).map_err(|e| e.to_string())?;
        self.machine.cpu.set_entry(entry);
        let stop = StopWhen { max_insns: 200_000, ..StopWhen::default() };
        match self.machine.run(&stop) {
            Ok(StopReason::Sentinel) => Ok(self.machine.cpu.state.reg(0)),
            Ok(other) => Err(format!("stopped: {other}")),
            Err(e) => Err(e.to_string()),
        }
    }

    fn global(&self, name: &str) -> u64 {
        let addr = self.image.symbol(name).map_or(0, |s| s.value);
        self.machine.mem.read_u64(addr).unwrap_or(0)
    }
}

/// Builds and runs a driver calling `funcs` of `obj` on `ins`; one line per call.
fn native(gcc: &Path, obj: &Path, funcs: &[String], ins: &[[u64; 3]], with_res: bool, tag: &str) -> Vec<String> {
    let dir = common::scratch(tag);
    let mut c = String::from("#include <stdio.h>\n#include <stdint.h>\ntypedef uint64_t u64;\n");
    for f in funcs {
        let _ = writeln!(c, "u64 {f}(u64, u64, u64);");
    }
    if with_res {
        c.push_str("extern u64 flag_res;\n");
    }
    c.push_str("static const u64 in[][3] = {\n");
    for i in ins {
        let _ = writeln!(c, "{{{:#x}ULL, {:#x}ULL, {:#x}ULL}},", i[0], i[1], i[2]);
    }
    c.push_str("};\nstatic u64 (*const fs[])(u64, u64, u64) = {\n");
    for f in funcs {
        let _ = writeln!(c, "{f},");
    }
    c.push_str("};\nint main(void) {\n for (unsigned f = 0; f < sizeof fs / sizeof fs[0]; f++)\n");
    c.push_str("  for (unsigned i = 0; i < sizeof in / sizeof in[0]; i++) {\n");
    c.push_str("   u64 r = fs[f](in[i][0], in[i][1], in[i][2]);\n");
    if with_res {
        c.push_str("   printf(\"%lx %lx\\n\", (unsigned long)r, (unsigned long)flag_res);\n");
    } else {
        c.push_str("   printf(\"%lx\\n\", (unsigned long)r);\n");
    }
    c.push_str("  }\n return 0;\n}\n");
    let src = dir.join("driver.c");
    std::fs::write(&src, c).expect("write driver");
    let exe = dir.join("driver");
    let out = Command::new(gcc).arg("-O1").arg("-no-pie").arg(&src).arg(obj).arg("-o").arg(&exe).output().expect("gcc");
    assert!(out.status.success(), "driver build failed: {}", String::from_utf8_lossy(&out.stderr));
    let run = Command::new(&exe).output().expect("run driver");
    assert!(run.status.success(), "driver failed");
    let _ = std::fs::remove_dir_all(&dir);
    String::from_utf8_lossy(&run.stdout).lines().map(str::to_string).collect()
}

fn compare_ops(obj: &str, tag: &str) {
    let Some(gcc) = common::oracle("gcc") else { return };
    let path = common::data_dir().join(obj);
    let funcs: Vec<String> = OPS.iter().map(|s| s.to_string()).collect();
    let ins = inputs(300, 0x1234_5678_9abc_def1);
    let want = native(&gcc, &path, &funcs, &ins, false, tag);
    let mut emu = Emu::new(&path);
    let mut bad = Vec::new();
    let mut lines = want.iter();
    for f in &funcs {
        for i in &ins {
            let expect = lines.next().cloned().unwrap_or_default();
            let got = emu.call(f, *i).map(|v| format!("{v:x}"));
            if got.as_deref() != Ok(expect.as_str()) {
                bad.push(format!("{f}({:#x}, {:#x}, {:#x}): native {expect}, emulated {got:?}", i[0], i[1], i[2]));
            }
        }
    }
    assert!(
        bad.is_empty(),
        "{} mismatches of {obj}:\n{}",
        bad.len(),
        bad.iter().take(40).cloned().collect::<Vec<_>>().join("\n")
    );
}

#[test]
fn ops_match_native_execution() {
    compare_ops("ops.o", "ops");
}

#[test]
fn pic_ops_match_native_execution() {
    compare_ops("ops_pic.o", "ops-pic");
}

/// The inputs of the RFLAGS probes: the third argument is the incoming RFLAGS, any subset
/// of the status flags.
fn flag_inputs() -> Vec<[u64; 3]> {
    let mut ins = inputs(400, 0xfeed_beef_0bad_cafe);
    for (k, i) in ins.iter_mut().enumerate() {
        i[2] = (i[2] ^ k as u64) & STATUS;
    }
    ins
}

/// One probe's outcome: RFLAGS after the instruction and its result (`flag_res`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Outcome {
    flags: u64,
    res: u64,
}

/// Runs every probe on every input in the emulator, in the order of [`flag_funcs`] then inputs.
fn emulated_outcomes(funcs: &[String], ins: &[[u64; 3]]) -> Vec<Result<Outcome, String>> {
    let mut emu = Emu::new(&common::data_dir().join("flagtest.o"));
    let mut out = Vec::with_capacity(funcs.len() * ins.len());
    for f in funcs {
        for i in ins {
            out.push(emu.call(f, *i).map(|flags| Outcome { flags: flags & STATUS, res: emu.global("flag_res") }));
        }
    }
    out
}

/// Runs every probe on every input natively (gcc links `flagtest.o` into a driver).
fn native_outcomes(gcc: &Path, funcs: &[String], ins: &[[u64; 3]]) -> Vec<Outcome> {
    let path = common::data_dir().join("flagtest.o");
    native(gcc, &path, funcs, ins, true, "flags")
        .iter()
        .map(|line| {
            let mut parts = line.split(' ').map(|p| u64::from_str_radix(p, 16).expect("driver prints hex"));
            let flags = parts.next().expect("flags") & STATUS;
            Outcome { flags, res: parts.next().expect("result") }
        })
        .collect()
}

#[test]
fn flags_match_native_execution() {
    // Only what the SDM defines is compared with the host: the undefined flags (and the
    // undefined results of 16-bit shld/shrd by more than 16) differ between Intel and AMD
    // cores and between generations. The core's choice for those is checked against the
    // committed record instead (undefined_flags_follow_the_recorded_host).
    let Some(gcc) = common::oracle("gcc") else { return };
    let funcs = flag_funcs();
    let ins = flag_inputs();
    let want = native_outcomes(&gcc, &funcs, &ins);
    let got = emulated_outcomes(&funcs, &ins);
    let mut bad = Vec::new();
    let mut k = 0;
    for f in &funcs {
        for i in &ins {
            let (n, e) = (want[k], &got[k]);
            k += 1;
            let Ok(e) = e else {
                bad.push(format!("{f}: {e:?}"));
                continue;
            };
            let d = defined::outcome(f, i[1]);
            if (n.flags ^ e.flags) & d.flags != 0 || (d.result && n.res != e.res) {
                bad.push(format!(
                    "{f}({:#x}, {:#x}, flags {:#x}): native flags {:#05x} res {:x}, emulated flags {:#05x} res {:x} (defined {:#05x}, diff {:#x})",
                    i[0], i[1], i[2], n.flags, n.res, e.flags, e.res, d.flags, (n.flags ^ e.flags) & d.flags
                ));
            }
        }
    }
    assert!(
        bad.is_empty(),
        "{} mismatches in defined flags:\n{}",
        bad.len(),
        bad.iter().take(60).cloned().collect::<Vec<_>>().join("\n")
    );
}

/// The committed record of one host's native RFLAGS probes (see record_native_flags).
const RECORD: &str = "flagtest.native.txt";

#[test]
fn undefined_flags_follow_the_recorded_host() {
    // The core copies, for every flag and result the SDM leaves undefined, what the host of
    // the committed record did (its CPU is named in the record's header). No host runs here.
    let text = std::fs::read_to_string(common::data_dir().join(RECORD)).expect("committed record");
    let funcs = flag_funcs();
    let ins = flag_inputs();
    let got = emulated_outcomes(&funcs, &ins);
    let rows: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(rows.len(), got.len(), "{RECORD} is stale: run arch-x86/tests/data/record-native-flags.sh");
    let mut bad = Vec::new();
    for (k, (row, e)) in rows.iter().zip(&got).enumerate() {
        let (f, i) = (&funcs[k / ins.len()], ins[k % ins.len()]);
        let mut parts = row.split(' ');
        assert_eq!(parts.next(), Some(f.as_str()), "{RECORD} line order differs from the probes: re-record it");
        let mut hex = parts.map(|p| u64::from_str_radix(p, 16).expect("record holds hex"));
        let want = Outcome { flags: hex.next().expect("flags"), res: hex.next().expect("result") };
        if e.as_ref() != Ok(&want) {
            bad.push(format!("{f}({:#x}, {:#x}, flags {:#x}): recorded {want:x?}, emulated {e:x?}", i[0], i[1], i[2]));
        }
    }
    assert!(
        bad.is_empty(),
        "{} differences from {RECORD}:\n{}",
        bad.len(),
        bad.iter().take(60).cloned().collect::<Vec<_>>().join("\n")
    );
}

/// Writes the record from this host's native execution. Run by
/// `arch-x86/tests/data/record-native-flags.sh`, not by the test command.
#[test]
#[ignore = "records the host; run by tests/data/record-native-flags.sh"]
fn record_native_flags() {
    let gcc = common::oracle("gcc").expect("gcc");
    let funcs = flag_funcs();
    let ins = flag_inputs();
    let outcomes = native_outcomes(&gcc, &funcs, &ins);
    let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let field = |name: &str| {
        cpuinfo
            .lines()
            .find(|l| l.split(':').next().is_some_and(|k| k.trim() == name))
            .and_then(|l| l.split_once(':'))
            .map_or("?", |(_, v)| v.trim())
            .to_string()
    };
    let mut text = String::new();
    let _ = writeln!(text, "# Native RFLAGS probes of flagtest.o: one line per (function, input) in the order of");
    let _ = writeln!(text, "# tests/differential.rs (flag_funcs x flag_inputs): function, status flags, result (hex).");
    let _ = writeln!(text, "# Recorded by arch-x86/tests/data/record-native-flags.sh on this host:");
    let _ = writeln!(
        text,
        "# vendor {}, family {}, model {}, stepping {}: {}",
        field("vendor_id"),
        field("cpu family"),
        field("model"),
        field("stepping"),
        field("model name")
    );
    let mut k = 0;
    for f in &funcs {
        for _ in &ins {
            let _ = writeln!(text, "{f} {:x} {:x}", outcomes[k].flags, outcomes[k].res);
            k += 1;
        }
    }
    std::fs::write(common::data_dir().join(RECORD), text).expect("write record");
}

#[test]
fn committed_objects_are_not_stale() {
    let Some(gcc) = common::oracle("gcc") else { return };
    let data = common::data_dir();
    let dir = common::scratch("stale");
    for (src, obj, pic) in
        [("ops.c", "ops.o", "-fno-pic"), ("ops.c", "ops_pic.o", "-fPIC"), ("flagtest.c", "flagtest.o", "-fno-pic")]
    {
        let fresh = dir.join(obj);
        let out = Command::new(&gcc)
            .current_dir(&data)
            .args(COMMON)
            .arg(pic)
            .arg(src)
            .arg("-o")
            .arg(&fresh)
            .output()
            .expect("gcc");
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let committed = std::fs::read(data.join(obj)).expect("committed object");
        let rebuilt = std::fs::read(&fresh).expect("rebuilt object");
        assert!(committed == rebuilt, "tests/data/{obj} is stale: run arch-x86/tests/data/build.sh");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
