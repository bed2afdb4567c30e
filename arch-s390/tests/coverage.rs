//! Every instruction gcc -O2 -march=z196 emitted into the committed test objects (and the
//! hand-written reference-list functions) decodes to a supported operation. Set
//! ACCTEMU_S390_COVERAGE=obj.o to check another object the same way.

use arch_s390::decode::S390Decoder;
use arch_s390::optable::Op;
use arch_s390::run::load_object;
use emu_core::image::SectionKind;

fn unsupported(bytes: &[u8]) -> Vec<String> {
    let image = load_object(bytes).unwrap_or_else(|e| panic!("load: {e}"));
    let dec = S390Decoder::new();
    let mut out = Vec::new();
    for s in image.sections.iter().filter(|s| s.kind == SectionKind::Code) {
        for i in dec.decode_all(s.addr, &s.data) {
            if i.op == Op::Unsupported {
                out.push(format!("{:#x} {} ({})", i.addr, i.name, i.hex()));
            }
        }
    }
    out
}

#[test]
fn committed_objects_decode_completely() {
    for name in ["ops.o", "refops.o", "ops.elf"] {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data").join(name);
        let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let bad = unsupported(&bytes);
        assert!(bad.is_empty(), "{name}: {bad:?}");
    }
    if let Some(extra) = std::env::var_os("ACCTEMU_S390_COVERAGE") {
        let bytes = std::fs::read(&extra).unwrap_or_default();
        let bad = unsupported(&bytes);
        assert!(bad.is_empty(), "{}: {bad:?}", extra.to_string_lossy());
    }
}
