//! Decoding into own records: operands, sizes, conditions, timing classes, register use.

use super::*;

fn one(bytes: &[u8]) -> Insn {
    X86Decoder::new().decode_one(0x1000, bytes)
}

#[test]
fn maps_operands_sizes_and_rip_relative_addresses() {
    // mov rax, [rip + 0x10]
    let i = one(&[0x48, 0x8b, 0x05, 0x10, 0, 0, 0]);
    assert_eq!(i.op, Op::Mov);
    assert_eq!(i.size, 8);
    assert_eq!(i.ops[0], Operand::Reg(Gpr { num: 0, size: 8, high8: false }));
    assert_eq!(
        i.ops[1],
        Operand::Mem(MemRef { base: None, index: None, scale: 1, disp: 0x1017, seg: Seg::Flat, size: 8 })
    );
    assert_eq!(i.class, TimingClass::Load);
    assert!(i.dsts.contains(&XReg::Gpr(0)));
    // mov bh, [gs:rdi + rcx*4 - 8]
    let i = one(&[0x65, 0x8a, 0x7c, 0x8f, 0xf8]);
    assert_eq!(i.ops[0], Operand::Reg(Gpr { num: 3, size: 1, high8: true }));
    assert_eq!(
        i.ops[1],
        Operand::Mem(MemRef { base: Some(7), index: Some(1), scale: 4, disp: -8, seg: Seg::Gs, size: 1 })
    );
}

#[test]
fn assigns_conditions_and_classes() {
    let i = one(&[0x0f, 0x4c, 0xc1]); // cmovl eax, ecx
    assert_eq!((i.op, i.cond, i.class), (Op::Cmovcc, Some(Cond::L), TimingClass::Cmov));
    assert!(i.srcs.contains(&XReg::Flags));
    let i = one(&[0x48, 0xf7, 0xf9]); // idiv rcx
    assert_eq!(i.class, TimingClass::Div { bytes: 8, signed: true });
    let i = one(&[0xf0, 0x48, 0x01, 0x37]); // lock add [rdi], rsi
    assert_eq!((i.op, i.lock, i.class), (Op::Add, true, TimingClass::LockedRmw));
    let i = one(&[0x48, 0xd3, 0xe0]); // shl rax, cl
    assert_eq!(i.class, TimingClass::ShiftCl);
    let i = one(&[0xff, 0x24, 0xc5, 0, 0, 0x40, 0]); // jmp [rax*8 + 0x400000]
    assert_eq!((i.op, i.class), (Op::Jmp, TimingClass::JmpIndirect));
    let i = one(&[0x74, 0x02]); // je +2
    assert_eq!(i.ops[0], Operand::Imm(0x1004));
    assert_eq!(i.class, TimingClass::Jcc);
    assert_eq!(one(&[0x48, 0x99]).class, TimingClass::Cqo);
    assert_eq!(one(&[0xf3, 0x0f, 0x1e, 0xfa]).op, Op::Endbr64);
}

#[test]
fn undecodable_bytes_become_unsupported_records() {
    let i = one(&[0x0f, 0xff]);
    assert_eq!(i.op, Op::Unsupported);
    assert_eq!(i.len, 1);
    let i = one(&[0x48]); // truncated
    assert_eq!(i.op, Op::Unsupported);
    let all = X86Decoder::new().decode_all(0, &[0x90, 0xc3, 0x0f]);
    assert_eq!(all.iter().map(|i| i.op).collect::<Vec<_>>(), vec![Op::Nop, Op::Ret, Op::Unsupported]);
}
