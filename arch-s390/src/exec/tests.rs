use emu_core::cpu::{Cpu, StepEvent};
use emu_core::memory::{Endian, Memory, Perms};

use super::alu::{alu, cc_tm, sel_mask, shift};
use crate::cpu::{CpuConfig, S390Cpu};
use crate::optable::{Alu, ShiftFn};
use crate::state::psw;

fn hex(h: &str) -> Vec<u8> {
    let h: String = h.chars().filter(|c| !c.is_whitespace()).collect();
    (0..h.len()).step_by(2).filter_map(|k| u8::from_str_radix(h.get(k..k + 2)?, 16).ok()).collect()
}

/// A CPU with `code` at 0x1000, a lowcore page at 0 and data at 0x2000.
fn machine(code: &str) -> (S390Cpu, Memory) {
    let mut mem = Memory::new(Endian::Big);
    assert!(mem.map(0, 0x1000, Perms::RW, "lowcore").is_ok());
    assert!(mem.map(0x1000, 0x1000, Perms::RWX, "code").is_ok());
    assert!(mem.map(0x2000, 0x1000, Perms::RW, "data").is_ok());
    let bytes = hex(code);
    assert!(mem.write_bytes(0x1000, &bytes).is_ok());
    let mut cpu = S390Cpu::new(CpuConfig { sentinel: 0xdead_0000, ..CpuConfig::default() });
    cpu.add_code(0x1000, &bytes);
    cpu.set_entry(0x1000);
    (cpu, mem)
}

fn steps(cpu: &mut S390Cpu, mem: &mut Memory, n: usize) -> StepEvent {
    let mut last = StepEvent::Continue;
    for _ in 0..n {
        last = cpu.step(mem).unwrap_or(StepEvent::Halt);
    }
    last
}

#[test]
fn arithmetic_condition_codes() {
    assert_eq!(alu(Alu::Add, i64::MAX as u64, 1, 8, 0), (1u64 << 63, Some(3)));
    assert_eq!(alu(Alu::Add, 5, (-5i64) as u64, 8, 0), (0, Some(0)));
    assert_eq!(alu(Alu::AddL, u64::MAX, 1, 8, 0), (0, Some(2)));
    assert_eq!(alu(Alu::AddL, u64::MAX, 2, 8, 0), (1, Some(3)));
    assert_eq!(alu(Alu::SubL, 5, 5, 8, 0), (0, Some(2)));
    assert_eq!(alu(Alu::SubL, 4, 5, 8, 0), (u64::MAX, Some(1)));
    assert_eq!(alu(Alu::SubL, 6, 5, 4, 0), (1, Some(3)));
    assert_eq!(alu(Alu::AddC, 1, 1, 8, 2), (3, Some(1)));
    assert_eq!(alu(Alu::SubB, 1, 1, 8, 1), (u64::MAX, Some(1)));
    assert_eq!(alu(Alu::Sub, 0x8000_0000, 1, 4, 0), (0x7fff_ffff, Some(3)));
    assert_eq!(alu(Alu::Mul, 3, 5, 8, 2), (15, None));
    assert_eq!(cc_tm(0x8000, 0x8001, true), 2);
    assert_eq!(cc_tm(0x0001, 0x8001, true), 1);
    assert_eq!(cc_tm(0x8001, 0x8001, true), 3);
    assert_eq!(cc_tm(0x80, 0x81, false), 1);
    assert_eq!(sel_mask(40, 63), 0x00ff_ffff);
    assert_eq!(sel_mask(63, 0), 0x8000_0000_0000_0001);
    assert_eq!(shift(ShiftFn::Sra, 0x8000_0000, 4, 4), (0xf800_0000, Some(1)));
    assert_eq!(shift(ShiftFn::Sla, 0x4000_0000, 1, 4), (0, Some(3)));
    assert_eq!(shift(ShiftFn::Rll, 0x8000_0001, 1, 4), (3, None));
    assert_eq!(shift(ShiftFn::Sll, 1, 40, 4), (0, None));
}

#[test]
fn risbg_dlgr_and_branches() {
    // lghi r3,-1; risbgz r2,r3,40,63,12 (wait: i5=12); lghi r4,7; lghi r2,0; lghi r3,100;
    // dlgr r2,r4; brctg r4,.+0 (loops 7 times)
    let (mut cpu, mut mem) = machine("a739ffff ec2328bf0c55 a7490007 a7290000 a7390064 b9870024");
    steps(&mut cpu, &mut mem, 2);
    assert_eq!(cpu.state.reg(2), 0x00ff_ffff);
    assert_eq!(cpu.state.cc, 2);
    steps(&mut cpu, &mut mem, 4);
    assert_eq!((cpu.state.reg(2), cpu.state.reg(3)), (2, 14));
}

#[test]
fn mvc_propagates_and_clc_compares() {
    // mvi 0(r2),0xaa ; mvc 1(7,r2),0(r2) ; clc 0(8,r2),8(r2)
    let (mut cpu, mut mem) = machine("922aa2000 d20620012000 d50720002008".replace("922aa2000", "92aa2000").as_str());
    cpu.state.set_reg(2, 0x2000);
    steps(&mut cpu, &mut mem, 3);
    assert_eq!(mem.read_u64(0x2000), Ok(0xaaaa_aaaa_aaaa_aaaa));
    assert_eq!(cpu.state.cc, 2);
}

#[test]
fn privileged_instructions_check_in_problem_state() {
    // stpt 0x2b0 with the program new PSW pointing at 0x1800.
    let (mut cpu, mut mem) = machine("b20902b0");
    assert!(mem.write_u64(0x1d8, 0x1800).is_ok());
    cpu.state.psw_mask |= psw::PROBLEM;
    let ev = steps(&mut cpu, &mut mem, 1);
    assert_eq!(ev, StepEvent::Interruption { vector: 0x1d0, name: "privileged-operation" });
    assert_eq!(mem.read_u16(0x8e), Ok(2));
    assert_eq!(mem.read_u64(0x158), Ok(0x1004));
    assert_eq!(cpu.state.psw_addr, 0x1800);
    assert!(!cpu.state.problem_state());
}

#[test]
fn timers_count_at_4096_units_per_microsecond() {
    // stpt 0x2b0 ; stckf 0x2f8 ; spt 0x300 ; svc 5
    let (mut cpu, mut mem) = machine("b20902b0 b27c02f8 b20803000 a05".replace("03000 a05", "0300 0a05").as_str());
    cpu.state.cpu_timer_base = 1 << 40;
    cpu.state.tod_base = 1000;
    cpu.advance(5000);
    assert!(mem.write_u64(0x300, 77).is_ok());
    steps(&mut cpu, &mut mem, 3);
    assert_eq!(mem.read_u64(0x2b0), Ok((1 << 40) - 4096));
    assert_eq!(mem.read_u64(0x2f8), Ok(1000 + 4096));
    // Set at SPT's issue; one instruction later it has counted down below 77.
    assert_eq!(cpu.cpu_timer(), 76);
    let ev = steps(&mut cpu, &mut mem, 1);
    assert_eq!(ev, StepEvent::Interruption { vector: 0x1c0, name: "svc" });
    assert_eq!(mem.read_u16(0x8a), Ok(5));
}

#[test]
fn lpswe_loads_the_psw_and_reports_rfi() {
    let (mut cpu, mut mem) = machine("b2b20200");
    assert!(mem.write_u64(0x200, psw::PROBLEM | psw::EA | psw::BA | (2 << psw::CC_SHIFT)).is_ok());
    assert!(mem.write_u64(0x208, 0x1234).is_ok());
    assert_eq!(steps(&mut cpu, &mut mem, 1), StepEvent::Rfi);
    assert_eq!((cpu.state.psw_addr, cpu.state.cc, cpu.state.problem_state()), (0x1234, 2, true));
}

#[test]
fn unsupported_instructions_name_themselves() {
    // An opcode outside the decoder's table is named by its bytes, not as `?`.
    let (mut cpu, mut mem) = machine("b2000000");
    let err = cpu.step(&mut mem).err().map(|e| e.to_string()).unwrap_or_default();
    assert!(
        err.contains("invalid instruction at 0x1000: bytes b2 00 00 00 are not an s390x opcode acctemu knows"),
        "{err}"
    );
    let (mut cpu, mut mem) = machine("b20d0000");
    let err = cpu.step(&mut mem).err().map(|e| e.to_string()).unwrap_or_default();
    assert!(err.contains("`ptlb`"), "{err}");
}

#[test]
fn undefined_opcodes_are_invalid_instructions_named_by_their_bytes() {
    // Before: "unsupported instruction `?` (bytes 00 00) at 0x1000".
    let (mut cpu, mut mem) = machine("0000");
    let err = cpu.step(&mut mem).err().map(|e| e.to_string()).unwrap_or_default();
    assert!(
        err.starts_with(
            "invalid instruction at 0x1000: bytes 00 00 are an undefined s390x opcode (0x00 is not assigned)"
        ),
        "{err}"
    );
    assert!(err.contains("operation exception") && !err.contains('?'), "{err}");
}

#[test]
fn ectg_extracts_the_cpu_time_in_problem_state() {
    // ectg 0(%r5),8(%r5),%r4: r0 = 0(%r5) - CPU timer, r1 = 8(%r5), r4 = the doubleword at r4.
    let (mut cpu, mut mem) = machine("c8415000 5008");
    cpu.state.psw_mask |= psw::PROBLEM;
    cpu.state.set_reg(5, 0x2000);
    cpu.state.set_reg(4, 0x2010);
    cpu.state.cpu_timer_base = 1 << 30;
    cpu.advance(5000);
    for (at, v) in [(0x2000, 1u64 << 40), (0x2008, 123), (0x2010, 456)] {
        assert!(mem.write_u64(at, v).is_ok());
    }
    assert_eq!(steps(&mut cpu, &mut mem, 1), StepEvent::Continue);
    let timer = (1u64 << 30) - 4096;
    assert_eq!(cpu.state.reg(0), (1 << 40) - timer);
    assert_eq!((cpu.state.reg(1), cpu.state.reg(4)), (123, 456));
}
