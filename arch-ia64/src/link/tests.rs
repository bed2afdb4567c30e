use super::*;
use crate::run::RunConfig;
use emu_core::stub::{StubCtx, StubError, StubReturn};
use std::any::Any;

fn object(name: &str) -> Vec<u8> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/link").join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

const HARNESS: &str = r#"
[[region]]
name = "stack"
base = "0x0000000070000000"
size = "0x10000"
perms = "rw"

[[region]]
name = "rbs"
base = "0x0000000071000000"
size = "0x10000"
perms = "rw"

[[region]]
name = "kdata"
base = "0x0000000073000000"
size = "0x1000"
perms = "rw"
fill = [ { at = "0x8", u64 = ["1234"] } ]

[registers]
r12 = "stack.top-16"
r1 = "__gp"
b0 = "sentinel"
"ar.bspstore" = "rbs"

[data]
jiffies = "kdata+8"

[[stub]]
name = "schedule"
returns = "42"
cycles = 120
writes = [ { address = "kdata+0x10", width = 8, value = "0x77" } ]
"#;

fn linked(harness: &Harness) -> Linked {
    let (a, b) = (object("call_a.o"), object("call_b.o"));
    let bindings = bindings(Some(harness), &[]).expect("bindings");
    link(&[("call_a.o", &a), ("call_b.o", &b)], &bindings).expect("links")
}

#[test]
fn two_objects_call_each_other_and_a_stub() {
    let harness = Harness::parse("h.toml", HARNESS).expect("harness");
    let linked = linked(&harness);
    let cfg = RunConfig { entry: Some("caller".into()), harness: Some(harness), ..RunConfig::default() };
    let (mut machine, _) = prepare_linked(&linked, &cfg, Vec::new()).expect("prepares");
    let stop = emu_core::cpu::StopWhen { max_insns: 1000, ..Default::default() };
    let reason = machine.run(&stop).expect("runs");
    assert!(matches!(reason, emu_core::cpu::StopReason::Sentinel), "{reason:?}");
    let gr = |n: u8| machine.cpu.state.gr.read_or_zero(n).0;
    // callee: in0 + 10; callee2: bvar (100) + in0; the stub: 42; jiffies through the GOT.
    assert_eq!((gr(9), gr(10), gr(11), gr(16)), (15, 107, 42, 1234));
    assert_eq!(machine.mem.read_u64(0x7300_0010).ok(), Some(0x77));
    let calls = machine.cpu.stubs().map(|t| t.borrow().calls()).unwrap_or_default();
    assert_eq!(calls, vec![("schedule".to_string(), 1)]);
}

#[derive(Debug, Default)]
struct Recorder {
    args: Vec<u64>,
    seen_now: u64,
}

impl Stub for Recorder {
    fn name(&self) -> &str {
        "schedule"
    }
    fn call(&mut self, ctx: &mut dyn StubCtx) -> Result<StubReturn, StubError> {
        self.args.push(ctx.arg(0));
        self.seen_now = ctx.now();
        let jiffies = ctx.symbol("jiffies").ok_or_else(|| StubError("no jiffies".into()))?;
        let j = ctx.read(jiffies, 8)?;
        Ok(StubReturn { value: j + 1, cycles: 50 })
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

use emu_core::stub::Stub;

#[test]
fn a_rust_stub_sees_its_arguments_memory_and_clock() {
    let text = HARNESS.split("[[stub]]").next().unwrap_or_default();
    let harness = Harness::parse("h.toml", text).expect("harness");
    let (a, b) = (object("call_a.o"), object("call_b.o"));
    let bindings = bindings(Some(&harness), &["schedule"]).expect("bindings");
    let linked = link(&[("call_a.o", &a), ("call_b.o", &b)], &bindings).expect("links");
    let cfg = RunConfig { entry: Some("caller".into()), harness: Some(harness), ..RunConfig::default() };
    let (mut machine, _) = prepare_linked(&linked, &cfg, vec![Box::new(Recorder::default())]).expect("prepares");
    let before = machine.cpu.itc();
    machine.run(&emu_core::cpu::StopWhen { max_insns: 1000, ..Default::default() }).expect("runs");
    assert_eq!(machine.cpu.state.gr.read_or_zero(11).0, 1235);
    let table = machine.cpu.stubs().expect("stubs").borrow();
    let rec = table.stubs()[0].as_any().downcast_ref::<Recorder>().expect("recorder");
    assert_eq!(rec.args, vec![3]);
    assert!(rec.seen_now > before);
}

#[test]
fn unbound_symbols_are_all_named_with_their_object() {
    let (a, b) = (object("call_a.o"), object("call_b.o"));
    let err = link(&[("call_a.o", &a), ("call_b.o", &b)], &Bindings::default()).expect_err("unbound");
    let msg = err.to_string();
    assert!(msg.contains("`schedule` (needed by call_a.o)") && msg.contains("`jiffies` (needed by call_a.o)"), "{msg}");
    let err = link(&[("call_a.o", &a)], &Bindings::default()).expect_err("unbound");
    assert!(err.to_string().contains("`callee` (needed by call_a.o)"), "{err}");
}

#[test]
fn a_symbol_defined_twice_names_both_objects() {
    let b = object("call_b.o");
    let err = link(&[("one.o", &b), ("two.o", &b)], &Bindings::default()).expect_err("duplicate");
    assert!(
        matches!(&err, LinkError::Duplicate { first, second, .. } if first == "one.o" && second == "two.o"),
        "{err}"
    );
}
