use super::*;
use crate::optable::{Alu, Op};

fn one(hex: &str) -> Insn {
    let bytes: Vec<u8> =
        (0..hex.len()).step_by(2).filter_map(|k| u8::from_str_radix(hex.get(k..k + 2)?, 16).ok()).collect();
    S390Decoder::new().decode_one(0x1000, &bytes)
}

#[test]
fn operands_come_from_capstone_detail() {
    let lg = one("e31230080004");
    assert_eq!(lg.op, Op::Load { w: 8, sx: false, g: true });
    assert_eq!(lg.r(0), 1);
    assert_eq!(lg.m(0), MemRef { base: Some(3), index: Some(2), disp: 8, len: 0 });
    let je = one("a7840004");
    assert_eq!((je.op, je.mask, je.i(0)), (Op::Brc, 8, 0x1008));
    let brc = one("a7340006");
    assert_eq!((brc.mask, brc.i(0)), (3, 0x100c));
    let cgij = one("ec2800100 57c".replace(' ', "").as_str());
    assert_eq!((cgij.r(0), cgij.i(0), cgij.i(1), cgij.mask), (2, 5, 0x1020, 8));
    let risbg = one("ec2328bf0c55");
    assert_eq!((risbg.r(0), risbg.r(1), risbg.i(0), risbg.i(1), risbg.i(2)), (2, 3, 40, 0xbf, 12));
    let locgr = one("b9e23023");
    assert_eq!((locgr.mask, locgr.r(0), locgr.r(1)), (3, 2, 3));
    let mvc = one("d20f20083000");
    assert_eq!((mvc.m(0).base, mvc.m(0).disp, mvc.m(1).base), (Some(2), 8, Some(3)));
    let stpt = one("b20902b0");
    assert!(stpt.privileged);
    assert_eq!(stpt.m(0), MemRef { base: None, index: None, disp: 0x2b0, len: 0 });
    let aghik = one("ec23fff900d9");
    assert_eq!(aghik.op, Op::Arith { f: Alu::Add, w: 2, sx: true, g: true, three: true });
    assert_eq!(aghik.i(0), -7);
    let nopr = one("0700");
    assert_eq!((nopr.op, nopr.mask, nopr.r(0)), (Op::Bcr, 0, 0));
}

#[test]
fn unknown_opcodes_decode_as_unsupported_with_their_length() {
    let csst = one("c8020000000000");
    assert_eq!(csst.op, Op::Unsupported);
    assert_eq!(csst.len, 6);
    let all = S390Decoder::new().decode_all(0, &[0x07, 0xfe, 0xb9, 0x04, 0x00, 0x23]);
    assert_eq!(all.len(), 2);
    assert_eq!(all.get(1).map(|i| i.next()), Some(6));
}
