use super::*;
use crate::memory::{Endian, Perms};

fn sample() -> Snapshot {
    let mut s = Snapshot::new();
    s.push_hex("ip", 0xa000_0000_0001_0020);
    s.push_hex("r0", 0);
    s.push_hex("r16", 0x1234);
    s.push_nat("r16", true);
    s.push_nat("r17", false);
    s.push("p6", Value::Bool(false));
    s.push("f6", Value::Text("0x1003e:0x8000000000000000".into()));
    s.push("cfm", Value::Text("sof=8 sol=4 sor=0 rrb=0/0/0".into()));
    s.push("odd", Value::Text("true".into()));
    s.add_window("task", 0xa000_0000_0001_0000, (0u8..20).collect());
    s.add_window("one", 0x10, vec![0]);
    s.add_window("empty", 0x20, vec![]);
    s
}

const SAMPLE_YAML: &str = r#"registers:
  ip: "0xa000000000010020"
  r0: "0x0000000000000000"
  r16: "0x0000000000001234"
  r16.nat: true
  p6: false
  f6: "0x1003e:0x8000000000000000"
  cfm: sof=8 sol=4 sor=0 rrb=0/0/0
  odd: "true"
memory:
  task:
    addr: "0xa000000000010000"
    bytes:
      - 00 01 02 03 04 05 06 07 08 09 0a 0b 0c 0d 0e 0f
      - 10 11 12 13
  one:
    addr: "0x0000000000000010"
    bytes:
      - "00"
  empty:
    addr: "0x0000000000000020"
    bytes: []
"#;

#[test]
fn yaml_is_readable_and_ordered() {
    assert_eq!(sample().to_yaml(), SAMPLE_YAML);
}

#[test]
fn empty_snapshot_uses_flow_braces() {
    assert_eq!(Snapshot::new().to_yaml(), "registers: {}\nmemory: {}\n");
    assert_eq!(Snapshot::from_yaml("registers: {}\nmemory: {}\n"), Ok(Snapshot::new()));
}

#[test]
fn yaml_round_trips_with_and_without_header() {
    let s = sample();
    assert_eq!(Snapshot::from_yaml(&s.to_yaml()), Ok(s.clone()));
    let file = s.to_snap_file();
    assert!(file.starts_with("---\nsource: acctemu\nexpression: snapshot\n---\nregisters:\n"));
    assert_eq!(Snapshot::from_yaml(&file), Ok(s.clone()));
    assert_eq!(Snapshot::from_yaml(&format!("---\n{}", s.to_yaml())), Ok(s));
}

#[test]
fn odd_strings_are_quoted_and_read_back() {
    let mut s = Snapshot::new();
    for (i, text) in
        ["", " lead", "a: b", "-x", "say \"hi\"\\", "tab\there\n", "12", "1.5", "null", "\u{1}"].iter().enumerate()
    {
        s.push(format!("x{i}"), Value::Text(text.to_string()));
    }
    s.push("-key", Value::Text("plain".into()));
    let yaml = s.to_yaml();
    assert!(yaml.contains("  x2: \"a: b\"\n"), "{yaml}");
    assert!(yaml.contains("  x4: \"say \\\"hi\\\"\\\\\"\n"), "{yaml}");
    assert!(yaml.contains("  x9: \"\\u0001\"\n"), "{yaml}");
    assert!(yaml.contains("  \"-key\": plain\n"), "{yaml}");
    assert_eq!(Snapshot::from_yaml(&yaml), Ok(s));
}

#[test]
fn hand_written_yaml_is_accepted() {
    let text = "# state after entry\nregisters:\n  'r8': '0x0000000000000001'\n  r9: 0x0000000000000002\n\n\
                memory:\n  m:\n    addr: '0x1000'\n    bytes:\n      - ff 00\n";
    let s = Snapshot::from_yaml(text);
    let mut want = Snapshot::new();
    want.push_hex("r8", 1);
    want.push_hex("r9", 2);
    want.add_window("m", 0x1000, vec![0xff, 0]);
    assert_eq!(s, Ok(want));
}

#[test]
fn bad_yaml_names_the_line() {
    let cases = [
        ("registers:\n  r8: \"0x1\n", 2, "unterminated \"-quoted string"),
        ("registers:\nstate: {}\n", 2, "unknown key 'state' (expected 'registers' or 'memory')"),
        ("registers:\n  r8: 1\n  r8: 2\n", 3, "register 'r8' is listed twice"),
        ("memory:\n  m:\n    addr: \"0x10\"\n    bytes:\n      - 0g\n", 5, "'0g' is not a two-digit hex byte"),
        ("memory:\n  m:\n    size: 3\n", 3, "unknown key 'size' in memory window (expected 'addr' or 'bytes')"),
        ("registers:\n   r8: 1\n", 2, "unexpected indentation of 3 spaces here"),
        ("---\nsource: x\n---\nregisters:\n  r8\n", 5, "expected 'key: value', found 'r8'"),
    ];
    for (text, line, message) in cases {
        assert_eq!(Snapshot::from_yaml(text), Err(SnapshotError { line, message: message.into() }), "{text}");
    }
}

#[test]
fn values_from_text_only_take_the_canonical_hex_form() {
    assert_eq!(Value::from_text("0x00000000000000ff"), Value::Hex(0xff));
    assert_eq!(Value::from_text("0xff"), Value::Text("0xff".into()));
    assert_eq!(Value::from_text("0x00000000000000FF"), Value::Text("0x00000000000000FF".into()));
    assert_eq!(Value::from_text("0x+000000000000ff"), Value::Text("0x+000000000000ff".into()));
}

#[test]
fn capture_window_peeks_memory() {
    let mut mem = Memory::new(Endian::Little);
    assert!(mem.map(0x1000, 0x100, Perms::NONE, "guard").is_ok());
    assert!(mem.load(0x1008, &[1, 2, 3]).is_ok());
    let mut s = Snapshot::new();
    assert!(s.capture_window(&mem, "g", 0x1008, 4).is_ok());
    assert_eq!(s.window("g").map(|w| w.bytes.clone()), Some(vec![1, 2, 3, 0]));
    assert!(s.capture_window(&mem, "bad", 0x10f0, 0x20).is_err());
    assert!(s.window("bad").is_none());
}

#[test]
fn diff_lists_registers_windows_and_lines() {
    let a = sample();
    assert!(diff(&a, &a).is_empty());
    assert_eq!(diff(&a, &a).to_string(), "");
    let mut b = a.clone();
    b.push_hex("r16", 0x1235);
    b.registers.retain(|(n, _)| n != "r16.nat");
    b.push_hex("r17", 7);
    let mut task: Vec<u8> = (0u8..20).collect();
    if let Some(byte) = task.get_mut(18) {
        *byte = 0xee;
    }
    b.add_window("task", 0xa000_0000_0001_0000, task);
    b.add_window("one", 0x18, vec![0]);
    b.memory.retain(|w| w.name != "empty");
    b.add_window("new", 0x30, vec![1]);
    assert_eq!(
        diff(&a, &b).to_string(),
        "r16: 0x0000000000001234 -> 0x0000000000001235\n\
         r16.nat: true -> (absent)\n\
         r17: (absent) -> 0x0000000000000007\n\
         memory task+0x10: 10 11 12 13 -> 10 11 ee 13\n\
         memory one: 0x0000000000000010 -> 0x0000000000000018\n\
         memory empty: 0x0000000000000020 -> (absent)\n\
         memory new: (absent) -> 0x0000000000000030\n\
         memory new+0x0: (absent) -> 01\n"
    );
}

#[test]
fn serde_json_round_trip_keeps_order() {
    let s = sample();
    let json = serde_json::to_string(&s).unwrap_or_default();
    assert!(json.starts_with(r#"{"registers":{"ip":"0xa000000000010020","r0":"#), "{json}");
    let back: Result<Snapshot, _> = serde_json::from_str(&json);
    assert_eq!(back.ok(), Some(s));
}

/// insta's own YAML for a snapshot must be exactly our `to_yaml` body: we write our
/// file where insta looks for it, then let `assert_yaml_snapshot!` compare.
#[test]
fn insta_yaml_equals_to_yaml() {
    let snap = sample();
    let dir = std::env::temp_dir().join(format!("emu-core-snapshot-{}", std::process::id()));
    assert!(std::fs::create_dir_all(&dir).is_ok());
    assert!(std::fs::write(dir.join("sample.snap"), snap.to_snap_file()).is_ok());
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path(&dir);
    settings.set_prepend_module_to_snapshot(false);
    settings.bind(|| insta::assert_yaml_snapshot!("sample", snap));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn located_reading_gives_each_register_its_line() {
    let text = "---\nsource: x\n---\nregisters:\n  ip: \"0x0000000000001000\"\n\n  p6: false\nmemory: {}\n";
    let (snap, lines) = Snapshot::from_yaml_located(text).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(snap.registers.len(), 2);
    assert_eq!(lines, [5, 7]);
}
