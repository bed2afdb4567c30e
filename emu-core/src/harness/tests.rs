use super::*;

const GOOD: &str = r#"entry = "account_sys_enter"
itc = 1000
cpl = 0
psr = "0x0000101008026038"

[[region]]
name = "stack"
base = "0x90_0000_0000"
size = "0x10000"
perms = "rw"
fill = [ { at = "0x100", u64 = ["0x1", "task+8"] }, { at = 0x200, bytes = "de ad be ef" }, { u8 = [1, 255] } ]

[[region]]
name = "percpu"
base = "task-0x10000"
size = 4096
perms = "r"

[registers]
r12 = "stack.top-16"
r13 = "task"
b0 = "sentinel"
"ar.k6" = "percpu"
p6 = 1
r8 = -1

[symbols]
task = "0xa0000000_00010000"
task_end = "task + 0x2000"

[[counter]]
name = "ac_stime"
address = "task+0x1078"
width = 8
unit = "cycles"

[[counter]]
name = "flag"
address = "stack+0x200"
width = 2
unit = "ticks"
"#;

fn outer(name: &str) -> Option<u64> {
    match name {
        "sentinel" => Some(0xdead_0000),
        "account_sys_enter" => Some(0xa000_0000_0000_1000),
        _ => None,
    }
}

fn parse(text: &str) -> Result<Harness, String> {
    Harness::parse("harness.toml", text).map_err(|d| d.to_string())
}

fn parse_err(text: &str) -> String {
    match parse(text) {
        Ok(h) => format!("parsed: {h:?}"),
        Err(e) => e,
    }
}

#[test]
fn parses_every_section_in_file_order() {
    let h = match parse(GOOD) {
        Ok(h) => h,
        Err(e) => panic!("{e}"),
    };
    assert_eq!(h.entry.as_deref(), Some("account_sys_enter"));
    assert_eq!((h.itc, h.cpl), (Some(1000), Some(0)));
    let regs: Vec<&str> = h.registers.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(regs, ["r12", "r13", "b0", "ar.k6", "p6", "r8"]);
    let env = match h.env(&outer) {
        Ok(env) => env,
        Err(e) => panic!("{e}"),
    };
    let values: Vec<u64> = h.registers.iter().filter_map(|(_, e)| env.eval(e).ok()).collect();
    assert_eq!(values, [0x90_0000_fff0, 0xa000_0000_0001_0000, 0xdead_0000, 0xa000_0000_0000_0000, 1, u64::MAX]);
    assert_eq!(env.lookup("task_end"), Some(0xa000_0000_0001_2000));
    assert_eq!(h.psr.as_ref().and_then(|p| env.eval(p).ok()), Some(0x0000_1010_0802_6038));
    assert_eq!(h.regions.get(1).map(|r| r.perms), Some(Perms::READ));
    assert_eq!(h.counters.get(1).map(|c| (c.width, c.unit.as_str())), Some((2, "ticks")));
}

#[test]
fn apply_memory_maps_fills_and_counters_read_back() {
    let h = match parse(GOOD) {
        Ok(h) => h,
        Err(e) => panic!("{e}"),
    };
    let mut mem = Memory::new(Endian::Little);
    assert_eq!(h.apply_memory(&mut mem, &outer), Ok(()));
    assert_eq!(mem.read_u64(0x90_0000_0100).ok(), Some(1));
    assert_eq!(mem.read_u64(0x90_0000_0108).ok(), Some(0xa000_0000_0001_0008));
    assert_eq!(mem.read_u32(0x90_0000_0200).ok(), Some(0xefbe_adde));
    assert_eq!(mem.read_u16(0x90_0000_0000).ok(), Some(0xff01));
    assert!(mem.write_u8(0xa000_0000_0000_0000, 0).is_err(), "percpu is read-only");
    // The task area is not mapped: the first counter faults with its location.
    let err = h.read_counters(&mem, &outer).map_err(|d| d.to_string());
    assert_eq!(
        err.err().as_deref().and_then(|e| e.lines().next()),
        Some(
            "harness.toml:33:11: error: counter.ac_stime.address: memory fault: 8-byte access at \
             0xa000000000011078: unmapped address"
        )
    );
    assert!(mem.map(0xa000_0000_0001_0000, 0x2000, Perms::RW, "task").is_ok());
    assert!(mem.write_u64(0xa000_0000_0001_1078, 77).is_ok());
    let counters = h.read_counters(&mem, &outer);
    let values: Vec<(String, u64, u64)> =
        counters.unwrap_or_default().into_iter().map(|c| (c.name, c.address, c.value)).collect();
    assert_eq!(
        values,
        [("ac_stime".to_string(), 0xa000_0000_0001_1078, 77), ("flag".to_string(), 0x90_0000_0200, 0xadde)]
    );
}

#[test]
fn big_endian_fills_and_counters() {
    let text = "[[region]]\nname = \"m\"\nbase = 0x1000\nsize = 0x100\nperms = \"rw\"\n\
                fill = [ { u32 = [\"0x11223344\"] } ]\n\
                [[counter]]\nname = \"c\"\naddress = \"m\"\nwidth = 4\nunit = \"ns\"\n";
    let h = parse(text);
    let mut mem = Memory::new(Endian::Big);
    assert_eq!(h.as_ref().map(|h| h.apply_memory(&mut mem, &outer)), Ok(Ok(())));
    assert_eq!(mem.read_u8(0x1000).ok(), Some(0x11));
    let value = h.ok().and_then(|h| h.read_counters(&mem, &outer).ok()).and_then(|c| c.first().map(|c| c.value));
    assert_eq!(value, Some(0x1122_3344));
}

#[test]
fn unknown_symbols_point_at_the_value() {
    let h = parse("[registers]\nr12 = \"stak+0x10\"\n");
    let err = h.and_then(|h| h.env(&outer).and_then(|env| env.eval(&h.registers[0].1)).map_err(|d| d.to_string()));
    assert_eq!(
        err,
        Err("harness.toml:2:7: error: registers.r12: unknown symbol 'stak'\n    r12 = \"stak+0x10\"\n          ^"
            .to_string())
    );
    let h = parse("[registers]\nr12 = \"stack.top\"\n");
    let err = h.and_then(|h| h.env(&outer).and_then(|env| env.eval(&h.registers[0].1)).map_err(|d| d.to_string()));
    assert!(err.is_err_and(|e| e.contains("registers.r12: unknown region 'stack' in 'stack.top'")));
}

#[test]
fn toml_errors_are_located() {
    let cases = [
        ("itc = 1\nbogus = 2\n", "harness.toml:2:1: error: unknown field `bogus`"),
        ("[[region]]\nname = \"s\"\nbase = 0\nsize = 1\nperms = \"rw\"\ncolor = 1\n", "harness.toml:6:1: error: unknown field `color`"),
        ("itc = \"soon\"\n", "harness.toml:1:7: error: invalid type: string \"soon\", expected u64"),
        ("[registers]\nr1 = 1.5\n", "harness.toml:2:6: error: invalid type: floating point `1.5`, expected an integer or a string such as \"task+0x40\""),
        ("[registers]\nr1 = \"task+\"\n", "harness.toml:2:6: error: registers.r1: 'task+' is not a value (expected a number, a name, name+offset, name-offset or region.top)"),
        ("[registers]\nr1 = \"0x1g\"\n", "harness.toml:2:6: error: registers.r1: '0x1g' is not a value"),
        ("[[region]]\nname = \"s\"\nbase = 0\nsize = 1\nperms = \"rwz\"\n", "harness.toml:5:9: error: region.s.perms: bad permissions 'rwz'"),
        ("[[region]]\nname = \"s\"\nbase = 0\nsize = 1\nperms = \"r\"\nfill = [ { at = 0 } ]\n", "harness.toml:6:10: error: region.s.fill[0]: give exactly one of u64, u32, u8 or bytes"),
        ("[[region]]\nname = \"s\"\nbase = 0\nsize = 1\nperms = \"r\"\nfill = [ { bytes = \"abc\" } ]\n", "harness.toml:6:20: error: region.s.fill[0].bytes: 'abc' is not hex bytes"),
        ("[[counter]]\nname = \"c\"\naddress = 0\nwidth = 3\nunit = \"ns\"\n", "harness.toml:4:9: error: counter.c.width: width 3 is not 1, 2, 4 or 8"),
        ("[symbols]\nstack = 1\n[[region]]\nname = \"stack\"\nbase = 0\nsize = 1\nperms = \"r\"\n", "harness.toml:4:8: error: region.stack: 'stack' is defined twice"),
        ("[[counter]]\nname = \"x\"\naddress = 0\nwidth = 1\n", "harness.toml:1:1: error: missing field `unit`"),
    ];
    for (text, want) in cases {
        let got = parse_err(text);
        assert!(got.starts_with(want), "for {text:?}\n got: {got}\nwant: {want}");
    }
}

#[test]
fn memory_errors_are_located() {
    let run = |text: &str| {
        parse(text).and_then(|h| h.apply_memory(&mut Memory::new(Endian::Little), &outer).map_err(|d| d.to_string()))
    };
    let overlap = "[[region]]\nname = \"a\"\nbase = 0x1000\nsize = 0x1000\nperms = \"rw\"\n\
                   [[region]]\nname = \"b\"\nbase = \"a+0x800\"\nsize = 0x1000\nperms = \"rw\"\n";
    assert!(
        run(overlap).is_err_and(|e| e.starts_with("harness.toml:7:8: error: region.b: cannot map: ")),
        "{:?}",
        run(overlap)
    );
    let spill = "[[region]]\nname = \"a\"\nbase = 0x1000\nsize = 4\nperms = \"rw\"\nfill = [ { at = 2, u32 = [1] } ]\n";
    assert!(
        run(spill).is_err_and(|e| e.contains("region.a.fill[0]: 4 bytes at offset 0x2 leave the region (0x4 bytes)"))
    );
    let wide = "[[region]]\nname = \"a\"\nbase = 0x1000\nsize = 4\nperms = \"rw\"\nfill = [ { u8 = [256] } ]\n";
    assert!(run(wide).is_err_and(|e| e.contains("region.a.fill[0].u8[0]: 0x100 does not fit in 1 byte(s)")));
}

#[test]
fn value_expressions() {
    let origin = Origin { path: "x".into(), loc: SourceLoc::new(Arc::from("t"), 1, 1), source_line: None };
    let eval = |text: &str| {
        ValueExpr::parse(text, origin.clone())
            .and_then(|e| e.eval(&|n| (n == "base").then_some(0x100)))
            .map_err(|d| d.message)
    };
    assert_eq!(eval("4_096"), Ok(4096));
    assert_eq!(eval("0xFF"), Ok(255));
    assert_eq!(eval("-2"), Ok(u64::MAX - 1));
    assert_eq!(eval("base"), Ok(0x100));
    assert_eq!(eval(" base - 0x10 "), Ok(0xf0));
    assert_eq!(eval("base+1_0"), Ok(0x10a));
    assert_eq!(eval("base-0x101"), Err("x: 'base-0x101' leaves the 64-bit address range".into()));
    assert!(eval("").is_err());
    assert!(eval("1+2").is_err());
    assert!(eval("a b").is_err());
    assert!(eval("0x1_0000_0000_0000_0000").is_err());
}

#[test]
fn values_on_one_long_line_share_its_text() {
    // One copy of the line per value made a 40 KB fill take 1.5 GB.
    let values = vec!["1"; 2000].join(", ");
    let text =
        format!("[[region]]\nname = \"d\"\nbase = 0\nsize = 4096\nperms = \"rw\"\nfill = [ {{ u8 = [{values}] }} ]\n");
    let h = match parse(&text) {
        Ok(h) => h,
        Err(e) => panic!("{e}"),
    };
    let Some(FillData::U8(exprs)) = h.regions.first().and_then(|r| r.fill.first()).map(|f| &f.data) else {
        panic!("no u8 fill in {h:?}")
    };
    let lines: Vec<&Arc<str>> = exprs.iter().filter_map(|e| e.origin.source_line.as_ref()).collect();
    assert_eq!(lines.len(), 2000);
    assert!(lines.iter().all(|l| Arc::ptr_eq(l, lines[0])), "every value holds its own copy of the line");
    let last = exprs.last().map(|e| (e.origin.loc.line, e.origin.loc.col));
    assert_eq!(last, Some((6, (17 + values.len()) as u32)));
}

#[test]
fn cpl_past_3_is_refused_at_its_value() {
    assert_eq!(parse("cpl = 3\n").ok().and_then(|h| h.cpl), Some(3));
    assert!(parse_err("cpl = 7\n").starts_with("harness.toml:1:7: error: cpl: 7 is not a privilege level (0 to 3)"));
    assert!(parse_err("\ncpl = 256\n").starts_with("harness.toml:2:7: error: cpl: 256 is not a privilege level"));
}

#[test]
fn a_region_ending_at_2_64_maps_and_only_its_top_is_refused() {
    let text = "[[region]]\nname = \"hi\"\nbase = \"0xffff_ffff_ffff_f000\"\nsize = \"0x1000\"\nperms = \"rw\"\n\
                fill = [ { at = \"0xff8\", u64 = [7] } ]\n[registers]\nr8 = \"hi.top\"\nr9 = \"hi+0xfff\"\n";
    let h = match parse(text) {
        Ok(h) => h,
        Err(e) => panic!("{e}"),
    };
    let mut mem = Memory::new(Endian::Little);
    assert_eq!(h.apply_memory(&mut mem, &outer).map_err(|d| d.to_string()), Ok(()));
    let env = match h.env(&outer) {
        Ok(env) => env,
        Err(e) => panic!("{e}"),
    };
    let top = env.eval(&h.registers[0].1).map_err(|d| d.to_string());
    assert!(
        top.as_ref().is_err_and(|e| e.contains("harness.toml:8:6: error: registers.r8: 'hi.top' is 2^64")),
        "{top:?}"
    );
    assert_eq!(env.eval(&h.registers[1].1).ok(), Some(u64::MAX));
    let past = "[[region]]\nname = \"p\"\nbase = \"0xffff_ffff_ffff_f001\"\nsize = \"0x1000\"\nperms = \"rw\"\n";
    let err = parse(past).and_then(|h| h.env(&outer).map(|_| ()).map_err(|d| d.to_string()));
    assert!(err.is_err_and(|e| e.contains("region.p.size: region ends past 2^64")));
}

#[test]
fn a_symbol_named_like_a_regions_top_wins_over_it() {
    let text = "[symbols]\n\"a.top\" = 5\n[[region]]\nname = \"a\"\nbase = 0x1000\nsize = 16\nperms = \"r\"\n";
    let env = parse(text).and_then(|h| h.env(&outer).map_err(|d| d.to_string()));
    assert_eq!(env.ok().and_then(|e| e.lookup("a.top")), Some(5));
}

#[test]
fn regions_listed_downwards_map_and_fill() {
    let mut text = String::new();
    for i in (0..200u64).rev() {
        text.push_str(&format!(
            "[[region]]\nname = \"r{i}\"\nbase = {}\nsize = 4096\nperms = \"rw\"\nfill = [ {{ u8 = [{}] }} ]\n",
            0x10_0000 + i * 0x1000,
            i % 256
        ));
    }
    let mut mem = Memory::new(Endian::Little);
    let applied = parse(&text).and_then(|h| h.apply_memory(&mut mem, &outer).map_err(|d| d.to_string()));
    assert_eq!(applied, Ok(()));
    assert_eq!(mem.regions().count(), 200);
    let mut byte = [0u8; 1];
    assert!(mem.peek_bytes(0x10_0000 + 199 * 0x1000, &mut byte).is_ok());
    assert_eq!(byte, [199]);
}

#[test]
fn an_overlap_is_reported_at_the_higher_region_whatever_the_file_order() {
    let run = |text: &str| {
        parse(text).and_then(|h| h.apply_memory(&mut Memory::new(Endian::Little), &outer).map_err(|d| d.to_string()))
    };
    let downwards = "[[region]]\nname = \"hi\"\nbase = 0x1800\nsize = 0x1000\nperms = \"rw\"\n\
                     [[region]]\nname = \"lo\"\nbase = 0x1000\nsize = 0x1000\nperms = \"rw\"\n";
    let got = run(downwards);
    assert!(
        got.as_ref().is_err_and(|e| e.starts_with("harness.toml:2:8: error: region.hi: cannot map: region `hi`")),
        "{got:?}"
    );
}

// linking (issue 14, i14-link): [data] and [[stub]]
#[test]
fn data_bindings_and_stubs_parse_and_evaluate() {
    let h = parse(
        r#"
[symbols]
kbase = "0x1000"

[data]
jiffies = "kbase+8"

[[stub]]
name = "schedule"
returns = "7"
cycles = 120
writes = [ { address = "kbase+0x10", width = 4, value = "3" } ]

[[stub]]
name = "do_nothing"
"#,
    )
    .expect("parses");
    let env = h.env(&outer).expect("env");
    assert_eq!(h.data_bindings(&env).expect("data").get("jiffies"), Some(&0x1008));
    let specs = h.stub_specs(&env).expect("stubs");
    assert_eq!(specs.len(), 2);
    assert_eq!((specs[0].name.as_str(), specs[0].returns, specs[0].cycles), ("schedule", 7, 120));
    assert_eq!(specs[0].writes, vec![crate::stub::StubWrite { address: 0x1010, width: 4, value: 3 }]);
    assert_eq!((specs[1].returns, specs[1].cycles, specs[1].writes.len()), (0, 0, 0));
}

#[test]
fn a_symbol_bound_twice_or_a_bad_stub_write_is_refused_where_written() {
    let e = parse_err("[data]\nx = \"1\"\n\n[[stub]]\nname = \"x\"\n");
    assert!(e.contains("'x' is bound twice"), "{e}");
    let e = parse_err("[[stub]]\nname = \"s\"\nwrites = [ { address = \"1\", width = 3, value = \"0\" } ]\n");
    assert!(e.contains("width 3 is not 1, 2, 4 or 8"), "{e}");
    let h = parse("[[stub]]\nname = \"s\"\nwrites = [ { address = \"1\", width = 1, value = \"0x100\" } ]\n")
        .expect("parses");
    let env = h.env(&outer).expect("env");
    let e = h.stub_specs(&env).expect_err("too wide").to_string();
    assert!(e.contains("0x100 does not fit in 1 byte(s)"), "{e}");
    let e = parse_err("[[stub]]\nname = \"s\"\nreturn = \"0\"\n");
    assert!(e.contains("unknown field `return`"), "{e}");
}
