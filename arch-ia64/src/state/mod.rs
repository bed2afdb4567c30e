//! IA-64 architectural state: general registers and the register stack (`rse`), floating-
//! point registers (`fr`), the PSR (`psr`), predicates, branch, application and control
//! registers, and the instruction pointer.

// ALAT (memory forms, issue 12)
pub mod alat;
pub mod fr;
pub mod indirect;
pub mod psr;
pub mod rse;
pub mod tlb;
// Interval timer and interrupt controller (kernel harness, issue 14).
pub mod timer;

use fr::Fr;
use psr::Psr;
use rse::RegFile;

/// Application and control register numbers: the one set in [`crate::regs`].
pub use crate::regs::{ar, cr};

/// The whole architectural state of one CPU.
#[derive(Debug, Clone)]
pub struct State {
    /// General registers, NaT bits, banks and the register stack.
    pub gr: RegFile,
    /// f0-f127 (f0 = +0.0 and f1 = +1.0 always).
    pub fr: Vec<Fr>,
    /// p0-p63 as bits (p0 always 1).
    pub pr: u64,
    /// b0-b7.
    pub br: [u64; 8],
    /// Application registers except those the register stack owns (bsp, bspstore, rnat)
    /// and ar.itc, which derives from the cycle clock.
    pub ar: [u64; 128],
    /// Control registers.
    pub cr: [u64; 128],
    /// Processor status register.
    pub psr: Psr,
    /// Address of the bundle holding the next instruction.
    pub ip: u64,
    /// ar.itc = cycles * ratio + `itc_offset` (wrapping), so writes to ar.itc need no clock.
    pub itc_offset: u64,
    /// The indirect register files (rr, pkr, dbr, ibr, pmc, pmd).
    pub ind: indirect::IndirectRegs,
    /// The ALAT (memory forms, issue 12).
    pub alat: alat::Alat,
    /// The translation lookaside buffers and whether translation is modelled (TLB, issue 12).
    pub tlb: tlb::Tlb,
    /// The interval timer and external-interrupt controller (kernel harness, issue 14).
    pub interrupts: timer::Interrupts,
}

impl State {
    /// A CPU after reset as far as these paths care: everything zero, f1 = 1.0, p0 = 1,
    /// PSR.bn = 1, cpl 0.
    pub fn new() -> State {
        let mut fr = vec![Fr::ZERO; 128];
        fr[1] = Fr::ONE;
        State {
            gr: RegFile::new(),
            fr,
            pr: 1,
            br: [0; 8],
            ar: [0; 128],
            cr: [0; 128],
            psr: Psr::BN,
            ip: 0,
            itc_offset: 0,
            ind: indirect::IndirectRegs::default(),
            alat: alat::Alat::default(),
            tlb: tlb::Tlb::default(),
            interrupts: timer::Interrupts::default(),
        }
    }

    /// Predicate `p`.
    pub fn p(&self, p: u8) -> bool {
        p == 0 || self.pr & (1u64 << (p & 63)) != 0
    }

    /// Sets predicate `p` (writes to p0 are ignored, as the architecture specifies).
    pub fn set_p(&mut self, p: u8, v: bool) {
        if p != 0 {
            let bit = 1u64 << (p & 63);
            if v {
                self.pr |= bit;
            } else {
                self.pr &= !bit;
            }
        }
    }

    /// Restart slot of the next instruction (PSR.ri).
    pub fn slot(&self) -> u8 {
        self.psr.ri()
    }
}

impl Default for State {
    fn default() -> Self {
        State::new()
    }
}
