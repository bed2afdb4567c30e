//! V.1 of Linux 6.1's ia64 accounting: seed 004's patch applied in reverse to the 6.1 tree by
//! acctemu's own patch code (`acctemu::cli::seed004_v1`), every hunk placed (with the offset
//! and fuzz it needed, printed), the result V.1's code, and each of its three assembly files
//! assembling with GNU as 2.40 (`-x -mconstant-gp`) and with acctemu, from the same
//! preprocessed text, to identical objects.
//!
//! Needs the Linux 6.1 tree (`tests/common` `kernel_source`) and GNU as; without them the test
//! is skipped, or fails under `ACCTEMU_REQUIRE_ORACLES=1`.

mod common;

use acctemu::cli::seed004_v1;
use arch_ia64::asm::assemble;
use emu_core::kernel::{KernelConfig, KernelTree};
use emu_core::preprocess::{preprocess, FsLoader, OverlayLoader, PreprocessOptions};
use std::path::Path;
use std::process::Command;

fn config() -> KernelConfig {
    let text = std::fs::read_to_string(common::root().join("tests/data/kernel/ia64-6.1.config")).expect("config");
    let mut config = KernelConfig::parse("ia64-6.1.config", &text).expect("config parses");
    config.set("VIRT_CPU_ACCOUNTING_NATIVE", "y");
    // A granule size (arch/ia64/include/asm/pgtable.h:487-492 needs one; the minimal config
    // leaves the choice out), as tests/ia64_kernel_files.rs sets it.
    config.set("IA64_GRANULE_16MB", "y");
    config
}

#[test]
fn seed_004_reversed_gives_v1_and_it_assembles_as_gnu_as_does() {
    let Some(tree) = common::kernel_source() else { return };
    let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join("linux-6.1-v1");
    let _ = std::fs::remove_dir_all(&out);
    let v1 = seed004_v1::write_v1_tree(&tree, &out).unwrap_or_else(|e| panic!("{e}"));
    eprintln!("{}", v1.report());

    // Every one of the 14 hunks applied; V.1's shape is there and V.2's is gone.
    let hunks: usize = v1.files.iter().map(|f| f.hunks.len()).sum();
    assert_eq!(hunks, 14);
    assert!(v1.files.iter().flat_map(|f| &f.hunks).all(|h| h.fuzz <= seed004_v1::MAX_FUZZ));
    let file = |p: &str| v1.files.iter().find(|f| f.path == p).map(|f| f.text.as_str()).unwrap_or_default();
    let entry = file("arch/ia64/kernel/entry.S");
    assert!(entry.contains("account_sys_leave:"), "V.1 sums system time on the way out");
    for p in [
        "arch/ia64/kernel/entry.S",
        "arch/ia64/kernel/ivt.S",
        "arch/ia64/kernel/fsys.S",
        "arch/ia64/kernel/asm-offsets.c",
    ] {
        assert!(!file(p).contains("TI_AC_LEAVE"), "{p} still has V.2's ac_leave");
        assert!(
            std::fs::read_to_string(out.join(p)).is_ok_and(|t| t == file(p)),
            "{p} written under {}",
            out.display()
        );
    }
    assert!(!file("arch/ia64/include/asm/thread_info.h").contains("ac_leave"));
    for f in &v1.files {
        let shipped = std::fs::read_to_string(tree.join(&f.path)).expect("6.1 file");
        assert_ne!(shipped, f.text, "{} unchanged", f.path);
    }

    let Some(gas) = common::oracle("ia64-linux-gnu-as") else { return };
    let config = config();
    let fs = FsLoader;
    let v1_files = seed004_v1::overlay(&tree, &v1);
    let v1_loader = OverlayLoader::new(v1_files.clone(), &fs);
    let offsets = arch_ia64::asm_offsets::generate(&tree, &config, &v1_loader).unwrap_or_else(|e| panic!("{e}"));
    assert!(offsets.contains("#define TI_AC_STAMP ") && !offsets.contains("TI_AC_LEAVE"), "{offsets}");
    let build = KernelTree::new(&tree)
        .build(&PreprocessOptions::new(), &config, Some(&offsets), &v1_loader)
        .unwrap_or_else(|e| panic!("{e}"));
    let mut mem = build.generated.clone();
    for f in &v1.files {
        mem.insert(tree.join(&f.path), f.text.clone());
    }
    let loader = OverlayLoader::new(mem, &fs);
    let work = out.join("objects");
    std::fs::create_dir_all(&work).expect("scratch");
    let mut report = Vec::new();
    for f in v1.files.iter().filter(|f| f.path.ends_with(".S")) {
        let path = tree.join(&f.path);
        let text = preprocess(&path.display().to_string(), &f.text, &build.options, &loader)
            .unwrap_or_else(|d| panic!("{}: {d}", f.path))
            .text;
        let stem = f.path.replace('/', "_");
        let src = work.join(format!("{stem}.s"));
        let obj = work.join(format!("{stem}.o"));
        std::fs::write(&src, &text).expect("preprocessed text");
        let o = Command::new(&gas).args(["-x", "-mconstant-gp", "-o"]).arg(&obj).arg(&src).output().expect("runs gas");
        assert!(o.status.success(), "GNU as on V.1 {}: {}", f.path, String::from_utf8_lossy(&o.stderr));
        let mut ours = assemble(&format!("{stem}.s"), &text, &PreprocessOptions::new(), &FsLoader)
            .unwrap_or_else(|d| panic!("acctemu on V.1 {}: {} errors, first {:?}", f.path, d.0.len(), d.0.first()));
        ours.elf.e_flags |= arch_ia64::asm::object::EF_IA_64_CONS_GP;
        let bytes = ours.object_file().unwrap_or_else(|e| panic!("{}: {e}", f.path));
        let theirs = std::fs::read(&obj).expect("GNU as object");
        if bytes != theirs {
            std::fs::write(work.join(format!("{stem}.ours.o")), &bytes).expect("our object");
        }
        assert!(bytes == theirs, "V.1 {}: our object differs from GNU as's ({})", f.path, work.display());
        report.push(format!("{}: {} bytes, identical to GNU as's", f.path, bytes.len()));
    }
    assert_eq!(report.len(), 3);
    eprintln!("{}", report.join("\n"));
}
