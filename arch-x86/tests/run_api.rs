//! The run API: loading objects, the default harness, `--set` style overrides, snapshots,
//! and that every instruction gcc -O2 emitted into the committed objects is supported.

mod common;

use arch_x86::decode::{Op, X86Decoder};
use arch_x86::run::{load_object, run_object, RunConfig};
use emu_core::image::SectionKind;
use emu_core::snapshot::Value;

fn object(name: &str) -> Vec<u8> {
    std::fs::read(common::data_dir().join(name)).expect("committed object")
}

#[test]
fn every_instruction_in_the_committed_objects_is_supported() {
    for name in ["ops.o", "ops_pic.o", "flagtest.o"] {
        let image = load_object(&object(name)).expect("load");
        let mut decoder = X86Decoder::new();
        for s in image.sections.iter().filter(|s| s.kind == SectionKind::Code) {
            for i in decoder.decode_all(s.addr, &s.data) {
                assert_ne!(i.op, Op::Unsupported, "{name}: `{}` ({}) at {:#x}", i.text(), i.hex(), i.addr);
            }
        }
    }
}

#[test]
fn runs_a_function_with_register_overrides() {
    let sets = [("rdi", "1000"), ("rsi", "7"), ("rdx", "3")];
    let cfg = RunConfig {
        entry: Some("div64".into()),
        sets: sets.iter().map(|(n, v)| (n.to_string(), v.to_string())).collect(),
        ..RunConfig::default()
    };
    let report = run_object(&object("ops.o"), &cfg).expect("run");
    assert_eq!(report.stop, "returned to the sentinel");
    assert_eq!(report.snapshot.register("rax"), Some(&Value::Hex(142 + 6000 + 3)));
    assert_eq!(report.snapshot.register("rflags.if"), Some(&Value::Bool(true)));
    assert!(report.summary.cycles > 0);
    assert_eq!(report.summary.instructions, report.summary.instructions.max(5));
}

#[test]
fn globals_switch_tables_and_got_slots_are_relocated() {
    for name in ["ops.o", "ops_pic.o"] {
        let image = load_object(&object(name)).expect("load");
        let g = image.symbol("g_value").expect("g_value").value;
        assert!(image.sections.iter().any(|s| s.contains(g)), "{name}: g_value is placed");
        let cfg = RunConfig {
            entry: Some("switch_table".into()),
            sets: vec![("rdi".into(), "2".into()), ("rsi".into(), "0xf0".into()), ("rdx".into(), "0x0f".into())],
            ..RunConfig::default()
        };
        let report = run_object(&object(name), &cfg).expect("run");
        assert_eq!(report.snapshot.register("rax"), Some(&Value::Hex(0xff)), "{name}");
    }
    let pic = load_object(&object("ops_pic.o")).expect("load");
    assert!(pic.section(emu_core::elf::GOT_SECTION).is_some(), "-fPIC globals go through the GOT");
}

#[test]
fn setup_errors_name_the_problem() {
    let cfg = RunConfig { entry: Some("nope".into()), ..RunConfig::default() };
    let err = run_object(&object("ops.o"), &cfg).expect_err("no such entry");
    assert!(err.to_string().contains("`nope`"), "{err}");
    let cfg =
        RunConfig { entry: Some("div64".into()), sets: vec![("xmm0".into(), "1".into())], ..RunConfig::default() };
    let err = run_object(&object("ops.o"), &cfg).expect_err("bad register");
    assert!(err.to_string().contains("unknown register `xmm0`"), "{err}");
    assert!(load_object(b"not elf").is_err());
}
