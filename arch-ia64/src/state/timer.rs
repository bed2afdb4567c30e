//! The interval timer and the processor's external-interrupt controller (kernel harness,
//! issue 14): ITM against ITC pending the vector cr.itv names, the pending (IRR) and
//! in-service sets, and what `mov r=cr.ivr`, `mov cr.eoi=` and cr.tpr do to them (SDM vol. 2
//! section 5.8.3; reference `ia64-system.md` sections 2 and 8).
//!
//! - A write to cr.itm arms the timer; when ar.itc reaches cr.itm (passes it, as an emulator
//!   stepping whole instructions sees it) the timer fires once and pends cr.itv.vector,
//!   unless cr.itv.m (bit 16) masks it, in which case the event is discarded.
//! - A pending vector is delivered (vector 0x3000) when PSR.i is set and it is not masked:
//!   cr.tpr.mmi (bit 16) masks all; cr.tpr.mic (bits 7:4) masks every vector whose priority
//!   class (vector >> 4) is at or below it; a vector at or below the highest one in service
//!   is masked too.
//! - Reading cr.ivr returns the highest unmasked pending vector, moves it from pending to in
//!   service, or returns 15 (spurious) when there is none; writing cr.eoi retires the highest
//!   vector in service. cr.irr0-3 read the pending set and cannot be written.

use super::cr;

/// The spurious vector cr.ivr returns when nothing unmasked is pending.
pub const SPURIOUS: u8 = 15;

/// The interval timer and interrupt controller state.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Interrupts {
    /// Pending vectors (cr.irr0-3 as one 256-bit set).
    pending: [u64; 4],
    /// Vectors in service (read from cr.ivr, not yet retired by cr.eoi).
    in_service: [u64; 4],
    /// cr.itm was written since the timer last fired.
    armed: bool,
    /// Timer interrupts raised so far.
    fired: u64,
}

fn has(set: &[u64; 4], v: u8) -> bool {
    set[usize::from(v >> 6)] & (1 << (v & 63)) != 0
}

fn put(set: &mut [u64; 4], v: u8, on: bool) {
    let w = &mut set[usize::from(v >> 6)];
    if on {
        *w |= 1 << (v & 63);
    } else {
        *w &= !(1 << (v & 63));
    }
}

fn highest(set: &[u64; 4]) -> Option<u8> {
    (0..4usize).rev().find(|&i| set[i] != 0).map(|i| (i as u8) * 64 + (63 - set[i].leading_zeros() as u8))
}

impl Interrupts {
    /// Whether the timer is armed (cr.itm written and not yet reached).
    pub fn armed(&self) -> bool {
        self.armed
    }

    /// Timer interrupts raised so far (discarded ones, masked by cr.itv.m, not counted).
    pub fn timer_fired(&self) -> u64 {
        self.fired
    }

    /// Pends vector `v` as an external source would.
    pub fn raise(&mut self, v: u8) {
        put(&mut self.pending, v, true);
    }

    /// Whether nothing is pending and the timer is idle: the per-instruction check is free.
    pub fn idle(&self) -> bool {
        !self.armed && self.pending == [0; 4]
    }

    /// Checks the timer against `itc` (the counter before the next instruction).
    pub fn tick(&mut self, itc: u64, crs: &[u64; 128]) {
        if self.armed && itc.wrapping_sub(crs[cr::ITM as usize]) as i64 >= 0 {
            self.armed = false;
            let itv = crs[cr::ITV as usize];
            if itv & (1 << 16) == 0 {
                self.fired += 1;
                self.raise((itv & 0xff) as u8);
            }
        }
    }

    fn masked(&self, v: u8, tpr: u64) -> bool {
        let mmi = tpr & (1 << 16) != 0;
        let mic = ((tpr >> 4) & 0xf) as u8;
        mmi || highest(&self.in_service).is_some_and(|s| v <= s) || (v != 0 && (v >> 4) <= mic)
    }

    /// The highest pending vector that cr.tpr and the in-service set let through.
    pub fn deliverable(&self, crs: &[u64; 128]) -> Option<u8> {
        let v = highest(&self.pending)?;
        (!self.masked(v, crs[cr::TPR as usize])).then_some(v)
    }

    /// `mov r=cr.ivr`: acknowledges the highest deliverable vector.
    pub fn read_ivr(&mut self, crs: &[u64; 128]) -> u64 {
        match self.deliverable(crs) {
            Some(v) => {
                put(&mut self.pending, v, false);
                put(&mut self.in_service, v, true);
                u64::from(v)
            }
            None => u64::from(SPURIOUS),
        }
    }

    /// `mov cr.eoi=r`: retires the highest vector in service.
    pub fn write_eoi(&mut self) {
        if let Some(v) = highest(&self.in_service) {
            put(&mut self.in_service, v, false);
        }
    }

    /// `mov cr.itm=r`: arms the timer (the value itself lives in cr.itm).
    pub fn write_itm(&mut self) {
        self.armed = true;
    }

    /// cr.irr`i` (0 to 3).
    pub fn irr(&self, i: usize) -> u64 {
        self.pending.get(i).copied().unwrap_or(0)
    }

    /// Whether vector `v` is in service.
    pub fn in_service(&self, v: u8) -> bool {
        has(&self.in_service, v)
    }

    /// Whether vector `v` is pending.
    pub fn is_pending(&self, v: u8) -> bool {
        has(&self.pending, v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn crs(itm: u64, itv: u64, tpr: u64) -> [u64; 128] {
        let mut c = [0; 128];
        c[cr::ITM as usize] = itm;
        c[cr::ITV as usize] = itv;
        c[cr::TPR as usize] = tpr;
        c
    }

    #[test]
    fn the_timer_fires_once_when_itc_reaches_itm() {
        let c = crs(1000, 0xef, 0);
        let mut t = Interrupts::default();
        t.tick(2000, &c);
        assert!(!t.is_pending(0xef), "not armed: no cr.itm write yet");
        t.write_itm();
        t.tick(999, &c);
        assert!(!t.is_pending(0xef));
        t.tick(1003, &c);
        assert!(t.is_pending(0xef) && !t.armed());
        assert_eq!(t.deliverable(&c), Some(0xef));
        assert_eq!(t.read_ivr(&c), 0xef);
        assert!(t.in_service(0xef) && !t.is_pending(0xef));
        assert_eq!(t.read_ivr(&c), u64::from(SPURIOUS));
        t.write_eoi();
        assert!(!t.in_service(0xef));
        assert_eq!(t.timer_fired(), 1);
    }

    #[test]
    fn masks_discard_or_hold_the_vector() {
        let mut t = Interrupts::default();
        t.write_itm();
        t.tick(5, &crs(0, 0xef | 1 << 16, 0));
        assert!(t.idle(), "itv.m discards the event");
        t.raise(0xef);
        assert_eq!(t.deliverable(&crs(0, 0xef, 1 << 16)), None, "tpr.mmi");
        assert_eq!(t.deliverable(&crs(0, 0xef, 0xd0)), Some(0xef), "class 14 is above mic 13");
        assert_eq!(t.deliverable(&crs(0, 0xef, 0xe0)), None, "mic 14 masks class 14");
        t.raise(0x30);
        let c = crs(0, 0xef, 0);
        assert_eq!(t.read_ivr(&c), 0xef);
        assert_eq!(t.deliverable(&c), None, "0x30 is below the vector in service");
        t.write_eoi();
        assert_eq!(t.read_ivr(&c), 0x30);
        assert_eq!(t.irr(0), 0);
    }
}
