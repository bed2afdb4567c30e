//! Semantics the native differential tests cannot reach: privileged and clock instructions,
//! #DE, 128-bit dividends, high-byte registers, memory bit strings, unsupported forms.

use emu_core::cpu::{Cpu, Machine, StopReason, StopWhen};
use emu_core::memory::{Endian, Memory, Perms};
use emu_core::rng::Xorshift64;

use crate::cpu::{CpuConfig, ExecError, X86Cpu};
use crate::state::flags::{CF, IF, ZF};

const CODE: u64 = 0x1000;
const STACK_TOP: u64 = 0x9000;
const DATA: u64 = 0x10000;
const SENTINEL: u64 = 0xdead_0000;

/// Runs `code` (which must end in `ret`) after `setup`.
fn run(code: &[u8], setup: impl FnOnce(&mut X86Cpu)) -> (Machine<X86Cpu>, Result<StopReason, ExecError>) {
    let mut mem = Memory::new(Endian::Little);
    mem.map(CODE, 0x1000, Perms::RX, "code").unwrap();
    mem.load(CODE, code).unwrap();
    mem.map(0x8000, 0x1000, Perms::RW, "stack").unwrap();
    mem.map(DATA, 0x1000, Perms::RW, "data").unwrap();
    mem.write_u64(STACK_TOP - 8, SENTINEL).unwrap();
    let mut cpu = X86Cpu::new(CpuConfig { sentinel: SENTINEL, timing: None, tsc_ratio: Some((3, 2)) });
    cpu.add_code(CODE, code);
    cpu.state.set_reg(4, STACK_TOP - 8);
    cpu.set_entry(CODE);
    setup(&mut cpu);
    let mut m = Machine::new(cpu, mem);
    let r = m.run(&StopWhen::default()).map_err(|e| e.error);
    (m, r)
}

fn reg(m: &Machine<X86Cpu>, n: u8) -> u64 {
    m.cpu.state.reg(n)
}

#[test]
fn cli_sti_and_popf_control_if() {
    // pushfq; cli; pushfq; pop rax; popfq; ret
    let (m, r) = run(&[0x9c, 0xfa, 0x9c, 0x58, 0x9d, 0xc3], |_| {});
    assert_eq!(r, Ok(StopReason::Sentinel));
    assert_eq!(reg(&m, 0) & IF, 0, "cli cleared IF in the saved image");
    assert_ne!(m.cpu.state.rflags & IF, 0, "popf restored IF");
    // cli; sti; ret
    let (m, _) = run(&[0xfa, 0xfb, 0xc3], |c| c.state.rflags = 0x2);
    assert_ne!(m.cpu.state.rflags & IF, 0);
}

#[test]
fn rdtsc_and_rdtscp_scale_the_clock_and_add_the_offset() {
    // lfence; nop; rdtsc; rdtscp; ret
    let code = [0x0f, 0xae, 0xe8, 0x90, 0x0f, 0x31, 0x0f, 0x01, 0xf9, 0xc3];
    let (m, r) = run(&code, |c| {
        c.state.tsc_offset = 1 << 32;
        c.state.tsc_aux = 7;
    });
    assert_eq!(r, Ok(StopReason::Sentinel));
    // Without a model the clock is the instruction count: rdtscp is the 4th (cycle 3).
    assert_eq!(reg(&m, 2), 1, "edx holds the high half of offset + 3 * 3 / 2");
    assert_eq!(reg(&m, 0), 4);
    assert_eq!(reg(&m, 1), 7, "rdtscp returns TSC_AUX in ecx");
}

#[test]
fn divide_errors_are_typed_and_name_the_instruction() {
    // div rcx with rcx = 0
    let (_, r) = run(&[0x48, 0xf7, 0xf1, 0xc3], |_| {});
    match r {
        Err(ExecError::Divide { addr, text, bytes }) => {
            assert_eq!(addr, CODE);
            assert_eq!(bytes, "48 f7 f1");
            assert!(text.contains("div"), "{text}");
        }
        other => panic!("expected #DE, got {other:?}"),
    }
    // Quotient overflow: rdx:rax = 2^64, rcx = 1.
    let (_, r) = run(&[0x48, 0xf7, 0xf1, 0xc3], |c| {
        c.state.set_reg(2, 1);
        c.state.set_reg(1, 1);
    });
    assert!(matches!(r, Err(ExecError::Divide { .. })));
    // idiv: INT64_MIN / -1 overflows.
    let (_, r) = run(&[0x48, 0xf7, 0xf9, 0xc3], |c| {
        c.state.set_reg(0, i64::MIN as u64);
        c.state.set_reg(2, u64::MAX);
        c.state.set_reg(1, u64::MAX);
    });
    assert!(matches!(r, Err(ExecError::Divide { .. })));
}

#[test]
fn wide_dividends_use_rdx() {
    // div rcx: (5 << 64 | 7) / 16
    let (m, r) = run(&[0x48, 0xf7, 0xf1, 0xc3], |c| {
        c.state.set_reg(2, 5);
        c.state.set_reg(0, 7);
        c.state.set_reg(1, 16);
    });
    assert_eq!(r, Ok(StopReason::Sentinel));
    assert_eq!(reg(&m, 0), 0x5000_0000_0000_0000);
    assert_eq!(reg(&m, 2), 7);
    // idiv ecx: -7 / 2 = -3 rem -1, edx:eax sign-extended by cdq.
    let (m, _) = run(&[0x99, 0xf7, 0xf9, 0xc3], |c| {
        c.state.set_reg(0, (-7i32) as u32 as u64);
        c.state.set_reg(1, 2);
    });
    assert_eq!(reg(&m, 0), (-3i32) as u32 as u64);
    assert_eq!(reg(&m, 2), (-1i32) as u32 as u64);
}

#[test]
fn accumulator_extensions() {
    // cbw; ret  (al = 0x80 -> ax = 0xff80)
    let (m, _) = run(&[0x66, 0x98, 0xc3], |c| c.state.set_reg(0, 0x1234_5680));
    assert_eq!(reg(&m, 0), 0x1234_ff80);
    // cdqe; cqo; ret
    let (m, _) = run(&[0x48, 0x98, 0x48, 0x99, 0xc3], |c| c.state.set_reg(0, 0xffff_ffff_8000_0000 & 0xffff_ffff));
    assert_eq!(reg(&m, 0), 0xffff_ffff_8000_0000);
    assert_eq!(reg(&m, 2), u64::MAX);
    // cwde; cwd; ret
    let (m, _) = run(&[0x98, 0x66, 0x99, 0xc3], |c| {
        c.state.set_reg(0, 0x7fff);
        c.state.set_reg(2, 0xaaaa_ffff);
    });
    assert_eq!(reg(&m, 0), 0x7fff);
    assert_eq!(reg(&m, 2), 0xaaaa_0000);
}

#[test]
fn high_byte_registers_and_partial_writes() {
    // mov ah, 0x12; mov cl, 0x34; mov dx, 0x5678; ret
    let (m, _) = run(&[0xb4, 0x12, 0xb1, 0x34, 0x66, 0xba, 0x78, 0x56, 0xc3], |c| {
        c.state.set_reg(0, u64::MAX);
        c.state.set_reg(1, u64::MAX);
        c.state.set_reg(2, u64::MAX);
    });
    assert_eq!(reg(&m, 0), 0xffff_ffff_ffff_12ff);
    assert_eq!(reg(&m, 1), 0xffff_ffff_ffff_ff34);
    assert_eq!(reg(&m, 2), 0xffff_ffff_ffff_5678);
}

#[test]
fn locked_exchanges() {
    // lock cmpxchg [rdi], rsi; lock xadd [rdi], rcx; xchg rax, rbx; ret
    let code = [0xf0, 0x48, 0x0f, 0xb1, 0x37, 0xf0, 0x48, 0x0f, 0xc1, 0x0f, 0x48, 0x93, 0xc3];
    let (m, r) = run(&code, |c| {
        c.state.set_reg(7, DATA);
        c.state.set_reg(0, 0);
        c.state.set_reg(6, 40);
        c.state.set_reg(1, 2);
        c.state.set_reg(3, 99);
    });
    assert_eq!(r, Ok(StopReason::Sentinel));
    assert_eq!(m.mem.read_u64(DATA).unwrap(), 42);
    assert_eq!(reg(&m, 1), 40, "xadd returns the old value");
    assert_eq!((reg(&m, 0), reg(&m, 3)), (99, 0));
    assert_eq!(m.cpu.insn_at(CODE).map(|i| i.lock), Some(true));
    // A failing cmpxchg loads the accumulator and clears ZF.
    let (m, _) = run(&[0xf0, 0x48, 0x0f, 0xb1, 0x37, 0xc3], |c| {
        c.state.set_reg(7, DATA);
        c.state.set_reg(0, 5);
    });
    assert_eq!(reg(&m, 0), 0);
    assert_eq!(m.cpu.state.rflags & ZF, 0);
}

#[test]
fn bit_strings_in_memory_take_signed_register_offsets() {
    // bts [rdi], rsi; bt [rdi], rsi; ret  with rsi = 70 -> bit 6 of the second qword
    let (m, _) = run(&[0x48, 0x0f, 0xab, 0x37, 0x48, 0x0f, 0xa3, 0x37, 0xc3], |c| {
        c.state.set_reg(7, DATA + 8);
        c.state.set_reg(6, 70);
    });
    assert_eq!(m.mem.read_u64(DATA + 16).unwrap(), 1 << 6);
    assert_ne!(m.cpu.state.rflags & CF, 0);
    // rsi = -1: bit 63 of the qword below.
    let (m, _) = run(&[0x48, 0x0f, 0xab, 0x37, 0xc3], |c| {
        c.state.set_reg(7, DATA + 8);
        c.state.set_reg(6, u64::MAX);
    });
    assert_eq!(m.mem.read_u64(DATA).unwrap(), 1 << 63);
}

#[test]
fn unsupported_instructions_name_text_bytes_and_address() {
    // nop; ud2
    let (m, r) = run(&[0x90, 0x0f, 0x0b], |_| {});
    match r {
        Err(ExecError::Unsupported { addr, text, bytes }) => {
            assert_eq!(addr, CODE + 1);
            assert_eq!(bytes, "0f 0b");
            assert_eq!(text, "ud2");
        }
        other => panic!("expected unsupported, got {other:?}"),
    }
    assert_eq!(m.cpu.instructions(), 1);
    let msg = ExecError::Unsupported { addr: 0x10, text: "ud2".into(), bytes: "0f 0b".into() }.to_string();
    assert_eq!(msg, "unsupported instruction `ud2` (bytes 0f 0b) at 0x10");
}

#[test]
fn hlt_halts_and_faults_are_typed() {
    let (_, r) = run(&[0xf4], |_| {});
    assert_eq!(r, Ok(StopReason::Halt));
    // mov rax, [0]: unmapped
    let (_, r) = run(&[0x48, 0x8b, 0x04, 0x25, 0, 0, 0, 0, 0xc3], |_| {});
    assert!(matches!(r, Err(ExecError::Memory { addr: CODE, .. })), "{r:?}");
}

#[test]
fn calls_and_returns_through_registers() {
    // lea rax, [rip+2]; call rax; ret; (target:) mov ecx, 5; ret
    let code = [0x48, 0x8d, 0x05, 0x03, 0, 0, 0, 0xff, 0xd0, 0xc3, 0xb9, 5, 0, 0, 0, 0xc3];
    let (m, r) = run(&code, |_| {});
    assert_eq!(r, Ok(StopReason::Sentinel));
    assert_eq!(reg(&m, 1), 5);
    assert_eq!(reg(&m, 4), STACK_TOP);
}

#[test]
fn odd_operand_sizes_are_refused_not_panics() {
    use crate::decode::{Insn, Op, Operand};
    use crate::exec::{execute, Ctx, Trap};
    use crate::timing::TimingClass;
    let insn = Insn {
        addr: 0,
        len: 1,
        op: Op::Neg,
        size: 0,
        ops: [Operand::None; 3],
        cond: None,
        lock: false,
        class: TimingClass::Alu,
        srcs: Vec::new(),
        dsts: Vec::new(),
        bytes: [0; 15],
    };
    let mut st = crate::state::X86State::default();
    let mut mem = Memory::new(Endian::Little);
    assert_eq!(execute(&insn, &mut Ctx::new(&mut st, &mut mem, 0)), Err(Trap::Unsupported));
}

#[test]
fn random_code_never_panics() {
    let mut rng = Xorshift64::new(0x9e37_79b9_7f4a_7c15);
    for _ in 0..3000 {
        let mut code = [0u8; 48];
        let mut seed = 0;
        for b in code.iter_mut() {
            seed = rng.next_u64();
            *b = seed as u8;
        }
        let (_, _) = run(&code, |c| {
            for r in 0..16u8 {
                c.state.set_reg(r, seed.rotate_left(u32::from(r) * 5));
            }
            c.state.set_reg(4, STACK_TOP - 8);
            c.state.set_reg(7, DATA);
        });
    }
}

/// The flag arithmetic without widening (issue 17) agrees with the 128-bit definition.
#[test]
fn add_and_sub_flags_match_their_wide_definition() {
    use super::flags::{add, sub};
    use crate::state::flags::{CF, PF};
    let mut rng = emu_core::rng::Xorshift64::new(0x000f_1a65);
    let edges = [0u64, 1, 0x7f, 0x80, 0xff, 0x7fff, 0x8000, 0xffff, 0x7fff_ffff, 0x8000_0000, u64::MAX, u64::MAX >> 1];
    for n in 0..20_000u64 {
        let pick = |r: &mut emu_core::rng::Xorshift64| {
            if n % 3 == 0 {
                edges[(r.next_u64() % edges.len() as u64) as usize]
            } else {
                r.next_u64()
            }
        };
        let (a, b) = (pick(&mut rng), pick(&mut rng));
        for size in [1u8, 2, 4, 8] {
            let m = crate::state::mask(size);
            for c in [false, true] {
                let (am, bm) = (a & m, b & m);
                let wide = u128::from(am) + u128::from(bm) + u128::from(c);
                let (res, f) = add(a, b, c, size);
                assert_eq!(res, wide as u64 & m);
                assert_eq!(f & CF != 0, wide > u128::from(m), "add {a:#x} {b:#x} {c} {size}");
                assert_eq!(f & PF != 0, (res as u8).count_ones().is_multiple_of(2));
                let (res, f) = sub(a, b, c, size);
                assert_eq!(res, am.wrapping_sub(bm).wrapping_sub(u64::from(c)) & m);
                assert_eq!(
                    f & CF != 0,
                    u128::from(am) < u128::from(bm) + u128::from(c),
                    "sub {a:#x} {b:#x} {c} {size}"
                );
            }
        }
    }
}
