//! Linking the objects into one image.
//!
//! INTERIM (until the i14-link linker is merged): GNU ld links acctemu's objects into an
//! executable, which the current loader places at its section addresses.

use emu_core::image::Image;
use std::path::Path;
use std::process::Command;

/// Links `objects` (name, ELF bytes) with `data` symbols bound to addresses.
pub fn link(dir: &Path, label: &str, objects: &[(String, Vec<u8>)], data: &[(&str, u64)]) -> Image {
    std::fs::create_dir_all(dir).expect("scratch directory");
    let mut cmd = Command::new("ia64-linux-gnu-ld");
    cmd.args(["-nostdlib", "-static", "-e", "0", "-Ttext=0x4000000"]);
    for (name, addr) in data {
        cmd.arg(format!("--defsym={name}={addr:#x}"));
    }
    for (name, bytes) in objects {
        let p = dir.join(format!("{name}.o"));
        std::fs::write(&p, bytes).expect("object");
        cmd.arg(p);
    }
    let out = dir.join(format!("{label}.exe"));
    cmd.arg("-o").arg(&out);
    let res = cmd.output().expect("runs ld");
    assert!(res.status.success(), "ld: {}", String::from_utf8_lossy(&res.stderr));
    arch_ia64::elf::load(&std::fs::read(&out).expect("exe")).unwrap_or_else(|e| panic!("loading {label}: {e}"))
}
