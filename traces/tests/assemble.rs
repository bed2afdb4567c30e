//! Every catalogued ia64 version assembles, and to the bytes GNU as produces from the same source
//! run through the C preprocessor with the same defines (live when the tools are installed;
//! required when `ACCTEMU_REQUIRE_ORACLES=1`).

use std::process::Command;

mod oracles;
use oracles::oracle;

/// The catalogue's ia64 versions (the x86 ones are compiled objects: tests/x86_objects.rs).
fn ia64() -> impl Iterator<Item = &'static traces::Trace> {
    traces::catalogue().iter().filter(|t| t.arch == traces::Arch::Ia64)
}

#[test]
fn catalogue_names_the_three_versions() {
    let names: Vec<&str> = ia64().map(|t| t.name).collect();
    assert_eq!(names, ["ia64/syscall/none", "ia64/syscall/v1", "ia64/syscall/v2"]);
    for t in ia64() {
        assert!(traces::find(t.name).is_some());
        for kind in [traces::PathKind::SyscallEnter, traces::PathKind::SyscallExit, traces::PathKind::Tick] {
            assert!(t.binding(kind).is_some(), "{} binds {kind:?}", t.name);
        }
    }
    assert!(traces::find("ia64/syscall/v3").is_none());
}

#[test]
fn every_version_assembles_and_binds_defined_symbols() {
    for t in ia64() {
        let asm = t.assemble().unwrap_or_else(|d| panic!("{}: {d}", t.name));
        for b in t.bindings {
            assert!(asm.image.symbol(b.start).is_some(), "{}: {} undefined", t.name, b.start);
            if let traces::PathEnd::Symbol(s) = b.end {
                assert!(asm.image.symbol(s).is_some(), "{}: {s} undefined", t.name);
            }
        }
        let ivt = asm.image.symbol("ivt").map(|s| s.value).unwrap_or(0);
        assert_eq!(asm.image.symbol("break_fault").map(|s| s.value), Some(ivt + 0x2c00), "{}", t.name);
        assert_eq!(asm.image.symbol("ext_interrupt").map(|s| s.value), Some(ivt + 0x3000), "{}", t.name);
    }
}

#[test]
fn versions_match_gnu_as_bytes() {
    let (Some(cpp), Some(gas), Some(objcopy)) =
        (oracle("cpp"), oracle("ia64-linux-gnu-as"), oracle("ia64-linux-gnu-objcopy"))
    else {
        return;
    };
    let dir = std::env::temp_dir().join(format!("traces-oracle-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let src = dir.join("syscall.S");
    for t in ia64() {
        std::fs::write(&src, t.source).expect("write source");
        let stem = t.name.replace('/', "_");
        let (pre, obj, bin) =
            (dir.join(format!("{stem}.s")), dir.join(format!("{stem}.o")), dir.join(format!("{stem}.bin")));
        let mut c = Command::new(&cpp);
        c.args(["-P", "-undef", "-x", "assembler-with-cpp"]);
        for (n, v) in t.defines {
            c.arg(format!("-D{n}={v}"));
        }
        let out = c.arg(&src).output().expect("run cpp");
        assert!(out.status.success(), "cpp failed on {}", t.name);
        std::fs::write(&pre, &out.stdout).expect("write preprocessed");
        let st = Command::new(&gas).arg("-x").arg(&pre).arg("-o").arg(&obj).output().expect("run gas");
        assert!(st.status.success(), "gas failed on {}: {}", t.name, String::from_utf8_lossy(&st.stderr));
        let st =
            Command::new(&objcopy).args(["-O", "binary", "-j", ".text"]).arg(&obj).arg(&bin).status().expect("objcopy");
        assert!(st.success());
        let theirs = std::fs::read(&bin).expect("read bin");
        let asm = t.assemble().unwrap_or_else(|d| panic!("{}: {d}", t.name));
        let ours = asm.object.iter().find(|s| s.name == ".text").map(|s| s.data.clone()).unwrap_or_default();
        assert_eq!(ours.len(), theirs.len(), "{}: .text size", t.name);
        assert!(ours == theirs, "{}: bytes differ from GNU as", t.name);
    }
    let _ = std::fs::remove_dir_all(&dir);
}
