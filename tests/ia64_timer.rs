//! The interval timer and external-interrupt controller on the CPU (kernel harness, issue
//! 14): cr.itm against ar.itc pends cr.itv's vector, PSR.i lets it in between instructions
//! through cr.iva + 0x3000, cr.ivr acknowledges, cr.eoi retires, cr.tpr and cr.itv.m mask.
//! A tiny vector table: the handler counts in r8, keeps the vector in r16, re-arms cr.itm
//! 500 ticks on and returns with rfi to the interrupted spin loop.

use arch_ia64::asm::assemble;
use arch_ia64::cpu::{CpuConfig, Ia64Cpu};
use arch_ia64::state::cr;
use arch_ia64::state::psr::Psr;
use emu_core::cpu::{Cpu, StepEvent};
use emu_core::memory::{Endian, Memory};
use emu_core::preprocess::{MemLoader, PreprocessOptions};

const SRC: &str = "\t.text\nstart:\n\tadds r9=1,r9\n\t;;\n\tbr.cond.sptk.many start\n\t;;\n\
    \t.org 0x8000 + 0x3000\nexternal:\n\tmov r16=cr.ivr\n\t;;\n\tsrlz.d\n\tadds r8=1,r8\n\tmov r17=cr.itm\n\t;;\n\
    \tadds r17=500,r17\n\t;;\n\tmov cr.itm=r17\n\t;;\n\tmov cr.eoi=r0\n\t;;\n\tsrlz.d\n\t;;\n\trfi\n\t;;\n";

fn machine(itv: u64, tpr: u64) -> (Ia64Cpu, Memory) {
    let asm = assemble("timer.s", SRC, &PreprocessOptions::new(), &MemLoader::new()).unwrap();
    let text = asm.object.iter().find(|s| s.name == ".text").unwrap();
    let mut cpu = Ia64Cpu::new(CpuConfig { timing: None, sentinel: 0x5e47_0000, ..CpuConfig::default() });
    cpu.add_code(0, &text.data);
    let st = &mut cpu.state;
    st.psr = Psr::IC | Psr::I | Psr::BN;
    st.gr.set_bank(1);
    st.cr[cr::IVA as usize] = 0x8000;
    st.cr[cr::ITV as usize] = itv;
    st.cr[cr::TPR as usize] = tpr;
    st.cr[cr::ITM as usize] = 500;
    st.interrupts.write_itm();
    cpu.set_entry(0);
    (cpu, Memory::new(Endian::Little))
}

fn gr(cpu: &Ia64Cpu, r: u8) -> u64 {
    cpu.state.gr.read(r).unwrap().0
}

#[test]
fn the_timer_interrupts_every_interval_and_returns() {
    let (mut cpu, mut mem) = machine(0xef, 0);
    let mut delivered = 0;
    for _ in 0..20_000 {
        if let StepEvent::Interruption { vector, .. } = cpu.step(&mut mem).unwrap() {
            assert_eq!(vector, 0x3000);
            delivered += 1;
        }
    }
    let ticks = gr(&cpu, 8);
    assert_eq!(ticks, delivered);
    assert_eq!(cpu.state.interrupts.timer_fired(), ticks);
    // One cycle per instruction group without the timing model: a tick every 500 cycles.
    let cycles = cpu.cycles();
    assert!(ticks >= cycles / 500 - 1 && ticks <= cycles / 500 + 1, "{ticks} ticks in {cycles} cycles");
    // Bank 0's r16 held the vector cr.ivr gave; bank 1 is the spin loop's again.
    cpu.state.gr.set_bank(0);
    assert_eq!(gr(&cpu, 16), 0xef);
    cpu.state.gr.set_bank(1);
    assert!(cpu.state.psr.contains(Psr::I) && cpu.state.psr.contains(Psr::BN), "rfi restored the PSR");
    assert!(gr(&cpu, 9) > 1000, "the loop ran between ticks");
}

#[test]
fn masked_vectors_are_not_taken() {
    // cr.itv.m discards the timer's event; cr.tpr.mic 15 holds the vector pending.
    for (itv, tpr, pending) in [(0xef | 1 << 16, 0, false), (0xef, 0xf0, true)] {
        let (mut cpu, mut mem) = machine(itv, tpr);
        for _ in 0..5_000 {
            assert_eq!(cpu.step(&mut mem).unwrap(), StepEvent::Continue);
        }
        assert_eq!(gr(&cpu, 8), 0);
        assert_eq!(cpu.state.interrupts.is_pending(0xef), pending, "itv {itv:#x} tpr {tpr:#x}");
    }
}
