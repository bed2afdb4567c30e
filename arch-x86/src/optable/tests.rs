//! The operation table against iced-x86: every row is reached by a real encoding, decodes to its
//! operation and class, no two rows claim one form, and every operation has a row.

use super::*;
use crate::decode::X86Decoder;
use emu_core::rng::Xorshift64;
use iced_x86::{Decoder, DecoderOptions};

/// One encoding per row (several for rows whose class depends on the form), with the operation
/// and class the decoder must give it. Bytes assembled by hand for 64-bit mode; iced's mnemonic
/// is checked against the row each one reaches.
fn samples() -> Vec<(Vec<u8>, Op, TimingClass)> {
    use TimingClass as T;
    let mut v: Vec<(Vec<u8>, Op, TimingClass)> = vec![
        (vec![0x48, 0x89, 0xc8], Op::Mov, T::Mov),                    // mov rax, rcx
        (vec![0x48, 0x89, 0x07], Op::Mov, T::Store),                  // mov [rdi], rax
        (vec![0x48, 0x8b, 0x07], Op::Mov, T::Load),                   // mov rax, [rdi]
        (vec![0xb8, 1, 0, 0, 0], Op::Mov, T::MovImm),                 // mov eax, 1
        (vec![0x0f, 0xb6, 0xc1], Op::Movzx, T::Movzx),                // movzx eax, cl
        (vec![0x0f, 0xb6, 0x07], Op::Movzx, T::Load),                 // movzx eax, byte [rdi]
        (vec![0x0f, 0xbe, 0xc1], Op::Movsx, T::Movzx),                // movsx eax, cl
        (vec![0x48, 0x63, 0xc1], Op::Movsx, T::Movzx),                // movsxd rax, ecx
        (vec![0x48, 0x8d, 0x04, 0x08], Op::Lea, T::Lea),              // lea rax, [rax+rcx]
        (vec![0x48, 0x87, 0xc8], Op::Xchg, T::Xchg),                  // xchg rax, rcx
        (vec![0x48, 0x87, 0x07], Op::Xchg, T::LockedRmw),             // xchg [rdi], rax
        (vec![0x48, 0x0f, 0xc1, 0xc8], Op::Xadd, T::Alu),             // xadd rax, rcx
        (vec![0xf0, 0x48, 0x0f, 0xc1, 0x07], Op::Xadd, T::LockedRmw), // lock xadd [rdi], rax
        (vec![0x48, 0x0f, 0xb1, 0x0f], Op::Cmpxchg, T::Cmpxchg),      // cmpxchg [rdi], rcx
        (vec![0x48, 0x01, 0xc8], Op::Add, T::Alu),                    // add rax, rcx
        (vec![0x48, 0x01, 0x07], Op::Add, T::Rmw),                    // add [rdi], rax
        (vec![0x48, 0x03, 0x07], Op::Add, T::LoadAlu),                // add rax, [rdi]
        (vec![0xf0, 0x48, 0x01, 0x37], Op::Add, T::LockedRmw),        // lock add [rdi], rsi
        (vec![0x48, 0x11, 0xc8], Op::Adc, T::Alu),
        (vec![0x48, 0x29, 0xc8], Op::Sub, T::Alu),
        (vec![0x48, 0x19, 0xc8], Op::Sbb, T::Alu),
        (vec![0x48, 0x21, 0xc8], Op::And, T::Alu),
        (vec![0x48, 0x09, 0xc8], Op::Or, T::Alu),
        (vec![0x48, 0x31, 0xc8], Op::Xor, T::Alu),
        (vec![0x48, 0x39, 0xc8], Op::Cmp, T::Alu),
        (vec![0x48, 0x39, 0x07], Op::Cmp, T::LoadAlu), // cmp [rdi], rax: no write
        (vec![0x48, 0x85, 0xc8], Op::Test, T::Alu),
        (vec![0x48, 0xff, 0xc0], Op::Inc, T::Alu),
        (vec![0x48, 0xff, 0x07], Op::Inc, T::Rmw), // inc qword [rdi]
        (vec![0x48, 0xff, 0xc8], Op::Dec, T::Alu),
        (vec![0x48, 0xf7, 0xd8], Op::Neg, T::Alu),
        (vec![0x48, 0xf7, 0xd0], Op::Not, T::Alu),
        (vec![0xf8], Op::Clc, T::Alu),
        (vec![0xf9], Op::Stc, T::Alu),
        (vec![0xf5], Op::Cmc, T::Alu),
        (vec![0x48, 0xd3, 0xe0], Op::Shl, T::ShiftCl),  // shl rax, cl
        (vec![0x48, 0xd1, 0xf0], Op::Shl, T::Shift),    // sal rax, 1 (d1 /6)
        (vec![0x48, 0xc1, 0xe8, 3], Op::Shr, T::Shift), // shr rax, 3
        (vec![0x48, 0xd1, 0x27], Op::Shl, T::Rmw),      // shl qword [rdi], 1
        (vec![0x48, 0xd1, 0xf8], Op::Sar, T::Shift),
        (vec![0x48, 0xd1, 0xc0], Op::Rol, T::Rotate),
        (vec![0x48, 0xd1, 0xc8], Op::Ror, T::Rotate),
        (vec![0x48, 0xd1, 0xd0], Op::Rcl, T::Rotate),
        (vec![0x48, 0xd1, 0xd8], Op::Rcr, T::Rotate),
        (vec![0x48, 0xd1, 0x07], Op::Rol, T::Rmw), // rol qword [rdi], 1
        (vec![0x48, 0x0f, 0xa4, 0xc8, 3], Op::Shld, T::Shift), // shld rax, rcx, 3
        (vec![0x48, 0x0f, 0xad, 0xc8], Op::Shrd, T::ShiftCl), // shrd rax, rcx, cl
        (vec![0x48, 0x0f, 0xa3, 0xc8], Op::Bt, T::Alu),
        (vec![0x48, 0x0f, 0xab, 0xc8], Op::Bts, T::Bit),
        (vec![0x48, 0x0f, 0xab, 0x07], Op::Bts, T::Rmw), // bts [rdi], rax
        (vec![0x48, 0x0f, 0xb3, 0xc8], Op::Btr, T::Bit),
        (vec![0x48, 0x0f, 0xbb, 0xc8], Op::Btc, T::Bit),
        (vec![0x48, 0x0f, 0xbc, 0xc1], Op::Bsf, T::BitScan),
        (vec![0x48, 0x0f, 0xbd, 0xc1], Op::Bsr, T::BitScan),
        (vec![0xf3, 0x48, 0x0f, 0xbc, 0xc1], Op::Tzcnt, T::BitScan),
        (vec![0xf3, 0x48, 0x0f, 0xbd, 0xc1], Op::Lzcnt, T::BitScan),
        (vec![0xf3, 0x48, 0x0f, 0xb8, 0xc1], Op::Popcnt, T::Popcnt),
        (vec![0x48, 0xf7, 0xe9], Op::Imul1, T::Mul),       // imul rcx
        (vec![0x48, 0x0f, 0xaf, 0xc1], Op::Imul, T::Imul), // imul rax, rcx
        (vec![0x48, 0x6b, 0xc1, 5], Op::Imul, T::Imul),    // imul rax, rcx, 5
        (vec![0x48, 0xf7, 0xe1], Op::Mul, T::Mul),
        (vec![0xf7, 0xf1], Op::Div, T::Div { bytes: 4, signed: false }),
        (vec![0x48, 0xf7, 0xf9], Op::Idiv, T::Div { bytes: 8, signed: true }),
        (vec![0x66, 0x98], Op::Cbw, T::Cqo),
        (vec![0x98], Op::Cbw, T::Cqo),
        (vec![0x48, 0x98], Op::Cbw, T::Cqo),
        (vec![0x66, 0x99], Op::Cwd, T::Cqo),
        (vec![0x99], Op::Cwd, T::Cqo),
        (vec![0x48, 0x99], Op::Cwd, T::Cqo),
        (vec![0xe9, 0, 0, 0, 0], Op::Jmp, T::Jmp),
        (vec![0xff, 0xe0], Op::Jmp, T::JmpIndirect), // jmp rax
        (vec![0xe8, 0, 0, 0, 0], Op::Call, T::Call),
        (vec![0xff, 0xd0], Op::Call, T::CallIndirect), // call rax
        (vec![0xc3], Op::Ret, T::Ret),
        (vec![0x50], Op::Push, T::Push),
        (vec![0x6a, 1], Op::Push, T::Push),
        (vec![0x58], Op::Pop, T::Pop),
        (vec![0xc9], Op::Leave, T::Pop),
        (vec![0x66, 0x9c], Op::Pushf, T::Pushf),
        (vec![0x9c], Op::Pushf, T::Pushf),
        (vec![0x66, 0x9d], Op::Popf, T::Popf),
        (vec![0x9d], Op::Popf, T::Popf),
        (vec![0xfa], Op::Cli, T::Cli),
        (vec![0xfb], Op::Sti, T::Sti),
        (vec![0x0f, 0x31], Op::Rdtsc, T::Rdtsc),
        (vec![0x0f, 0x01, 0xf9], Op::Rdtscp, T::Rdtscp),
        (vec![0xf4], Op::Hlt, T::Nop),
        (vec![0x0f, 0xae, 0xe8], Op::Lfence, T::Lfence),
        (vec![0x0f, 0xae, 0xf0], Op::Mfence, T::Mfence),
        (vec![0x0f, 0xae, 0xf8], Op::Sfence, T::Mfence),
        (vec![0xf3, 0x90], Op::Pause, T::Pause),
        (vec![0x90], Op::Nop, T::Nop),
        (vec![0x66, 0x0f, 0x1f, 0x44, 0, 0], Op::Nop, T::Nop), // nopw [rax+rax]
        (vec![0xf3, 0x0f, 0x1e, 0xfa], Op::Endbr64, T::Nop),
    ];
    // The 16 conditions of setcc (register and memory), cmovcc and jcc, in encoding order.
    for cc in 0..16u8 {
        v.push((vec![0x0f, 0x90 + cc, 0xc0], Op::Setcc, T::Setcc));
        v.push((vec![0x0f, 0x40 + cc, 0xc1], Op::Cmovcc, T::Cmov));
        v.push((vec![0x70 + cc, 0], Op::Jcc, T::Jcc));
    }
    v.push((vec![0x0f, 0x94, 0x07], Op::Setcc, T::Store)); // sete [rdi]
    v
}

fn iced(bytes: &[u8]) -> iced_x86::Instruction {
    Decoder::with_ip(64, bytes, 0x1000, DecoderOptions::NONE).decode()
}

#[test]
fn every_row_is_reached_and_decodes_to_its_operation_and_class() {
    let mut decoder = X86Decoder::new();
    let mut reached = vec![false; ROWS.len()];
    for (bytes, op, class) in samples() {
        let i = iced(&bytes);
        assert!(!i.is_invalid() && i.len() == bytes.len(), "{bytes:02x?} is not one instruction");
        let row = lookup(i.mnemonic(), i.op_count()).unwrap_or_else(|| panic!("{bytes:02x?}: no row"));
        let k = rows().iter().position(|r| std::ptr::eq(r, row)).unwrap_or(usize::MAX);
        if let Some(r) = reached.get_mut(k) {
            *r = true;
        }
        let insn = decoder.decode_one(0x1000, &bytes);
        assert_eq!((insn.op, insn.class), (op, class), "{bytes:02x?} ({:?})", i.mnemonic());
        assert_eq!(row.op, op, "{bytes:02x?}");
    }
    let missed: Vec<Mnemonic> =
        rows().iter().zip(&reached).filter(|(_, hit)| !**hit).map(|(r, _)| r.mnemonic).collect();
    assert!(missed.is_empty(), "rows no sample reaches: {missed:?}");
}

#[test]
fn no_two_rows_claim_one_form() {
    for (a, ra) in ROWS.iter().enumerate() {
        for rb in ROWS.iter().skip(a + 1) {
            if ra.mnemonic == rb.mnemonic {
                let overlap = (0..=5).find(|&n| ra.arity.covers(n) && rb.arity.covers(n));
                assert_eq!(overlap, None, "{:?}: two rows cover {overlap:?} operands", ra.mnemonic);
            }
        }
    }
}

#[test]
fn every_operation_has_a_row_and_one_semantics_family() {
    for k in 0..OP_COUNT {
        let rows: Vec<&Row> = ROWS.iter().filter(|r| r.op as usize == k).collect();
        let Some(first) = rows.first() else {
            assert_eq!(k, Op::Unsupported as usize, "operation #{k} has no row");
            continue;
        };
        assert_ne!(first.sem, Sem::None, "{:?}", first.op);
        for r in &rows {
            assert_eq!((r.sem, r.size.sized()), (first.sem, first.size.sized()), "{:?}", r.mnemonic);
        }
        assert_eq!(op_info(first.op), OpInfo { sem: first.sem, sized: first.size.sized() });
    }
    assert_eq!(op_info(Op::Unsupported), UNSUPPORTED);
}

/// Random bytes through iced: every decoded form gets the operation of the one row that covers
/// it, or `Unsupported` when none does, and the records' sizes follow the rows' rules.
#[test]
fn random_encodings_agree_with_the_rows() {
    let mut decoder = X86Decoder::new();
    let mut rng = Xorshift64::new(0x2545_f491_4f6c_dd1d);
    let mut supported = 0;
    for _ in 0..20_000 {
        let mut code = [0u8; 15];
        for b in code.iter_mut() {
            *b = rng.next_u64() as u8;
        }
        let i = iced(&code);
        if i.is_invalid() {
            continue;
        }
        let covering = ROWS.iter().filter(|r| r.mnemonic == i.mnemonic() && r.arity.covers(i.op_count())).count();
        assert!(covering <= 1, "{:?}", i.mnemonic());
        let insn = decoder.decode_one(0x1000, &code);
        match lookup(i.mnemonic(), i.op_count()) {
            Some(row) => {
                supported += 1;
                assert_eq!(insn.op, row.op, "{:?}", i.mnemonic());
                assert_eq!(insn.size, row.size.size(&insn.ops));
                if !row.size.sized() {
                    assert_eq!(insn.size, 0);
                }
            }
            None => assert_eq!(insn.op, Op::Unsupported, "{:?}", i.mnemonic()),
        }
    }
    assert!(supported > 1000, "only {supported} random forms hit a row");
}

#[test]
fn sizes_follow_the_mnemonic_not_the_operands() {
    let mut d = X86Decoder::new();
    let size = |d: &mut X86Decoder, b: &[u8]| d.decode_one(0, b).size;
    assert_eq!(size(&mut d, &[0x98]), 4); // cwde
    assert_eq!(size(&mut d, &[0x48, 0x99]), 8); // cqo
    assert_eq!(size(&mut d, &[0x66, 0x9c]), 2); // pushf
    assert_eq!(size(&mut d, &[0x6a, 1]), 8); // push imm8
    assert_eq!(size(&mut d, &[0x66, 0x50]), 2); // push ax
    assert_eq!(size(&mut d, &[0xc3]), 8); // ret
    assert_eq!(size(&mut d, &[0x74, 0]), 0); // je: unsized
}
