//! No two modules of the workspace import each other, directly or in a circle, and no crate
//! depends on one of its own layer or above: `scripts/module-cycles.sh` decides (see its header
//! for what counts as an edge), this test runs it so `cargo test` enforces it.

use std::path::Path;
use std::process::Command;

#[test]
fn no_module_cycles_and_no_upward_crate_dependencies() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = Command::new("bash")
        .arg(root.join("scripts/module-cycles.sh"))
        .current_dir(root)
        .output()
        .unwrap_or_else(|e| panic!("cannot run scripts/module-cycles.sh (bash and python3 are needed): {e}"));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "scripts/module-cycles.sh failed ({}):\n{stdout}\n{stderr}", out.status);
    assert!(stdout.contains("cycles: 0, layering violations: 0"), "unexpected output:\n{stdout}");
}
