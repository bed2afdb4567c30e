//! The general-register file as the CPU sees it, with the register stack engine (RSE) that
//! moves stacked registers between the physical file and the backing store.
//!
//! Facts from SDM rev 2.3 vol 1 §3.1.7-3.1.8 and §4.1, vol 2 ch. 6, as summarised in
//! `shared/reference/ia64-system.md` §5-7 and §10.
//!
//! Stacked registers live in a ring of [`STACKED_PHYS`] physical registers, split (going
//! down from the frame) into the current frame, the dirty partition (parent frames not yet
//! written to memory, backing-store addresses `[BSPSTORE, BSP)`), the clean partition
//! (registers that match memory just below BSPSTORE) and the invalid rest. Keeping dirty
//! registers out of memory matters: Linux moves BSPSTORE while registers are dirty, and they
//! must land at the new home (reference §5, "Emulator pitfall").
//!
//! Only mandatory RSE traffic is modelled: registers are spilled when a frame would not fit,
//! filled when a returning frame is not in the file, and by `flushrs`/`loadrs`. Eager modes
//! (RSC.mode ≠ 0) do nothing extra, which the architecture allows (vol 2 §6.1); the counters
//! therefore report the traffic a lazy RSE must do.

use crate::res::{Res, STACKED_PHYS};
use emu_core::memory::{MemFault, Memory};
use thiserror::Error;

#[cfg(test)]
mod tests;

/// Number of physical stacked registers, as an index bound.
const N: usize = STACKED_PHYS as usize;

/// Slot number whose backing-store doubleword holds a NaT collection.
const COLLECTION: u64 = 63;

/// Address bits that select the NaT collection of a 64-doubleword group.
const GROUP_TOP: u64 = 0x1F8;

/// RNAT bit 63 reads as zero and ignores writes (vol 1 §3.1.8.5).
const RNAT_MASK: u64 = !(1 << 63);

/// The part of RSC.loadrs the hardware uses (bits 13:3 of the byte count).
const LOADRS_MASK: u64 = 0x3FF8;

/// Failures of register accesses and RSE operations; the caller maps them to faults.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
pub enum RseError {
    /// r0 is read-only (Illegal Operation).
    #[error("write to r0")]
    WriteR0,
    /// A stacked register beyond the current frame was named.
    #[error("r{reg} is outside the current frame (sof {sof})")]
    OutsideFrame {
        /// The logical register named.
        reg: u8,
        /// Size of the current frame.
        sof: u8,
    },
    /// A register number above 127.
    #[error("no general register r{0}")]
    NoSuchRegister(u8),
    /// A frame larger than the physical stacked file.
    #[error("frame of {sof} registers exceeds the {max} stacked registers")]
    FrameTooLarge {
        /// Requested frame size.
        sof: u8,
        /// Physical stacked registers.
        max: u16,
    },
    /// More locals than frame registers.
    #[error("sol {sol} exceeds sof {sof}")]
    LocalsExceedFrame {
        /// Requested locals.
        sol: u8,
        /// Requested frame size.
        sof: u8,
    },
    /// A rotating region larger than the frame.
    #[error("rotating region of {rotating} registers exceeds sof {sof}")]
    RotatingExceedsFrame {
        /// Rotating registers (sor × 8).
        rotating: u16,
        /// Requested frame size.
        sof: u8,
    },
    /// `alloc` changing sor while a rename base is nonzero (Reserved Register/Field fault).
    #[error("alloc changes sor from {old} to {new} while a rename base is nonzero")]
    SorChangeWithRrb {
        /// sor before.
        old: u8,
        /// sor requested.
        new: u8,
    },
    /// `loadrs` with a nonzero byte count while the frame is not empty.
    #[error("loadrs of {bytes} bytes with a frame of {sof} registers")]
    LoadrsWithFrame {
        /// The byte count used.
        bytes: u64,
        /// Size of the current frame.
        sof: u8,
    },
    /// `loadrs` asking for more registers than the physical file holds.
    #[error("loadrs of {bytes} bytes needs {regs} registers, more than {max}")]
    LoadrsTooLarge {
        /// The byte count used.
        bytes: u64,
        /// Registers it covers.
        regs: u64,
        /// Physical stacked registers.
        max: u16,
    },
    /// A mandatory spill or fill faulted.
    #[error("RSE backing-store access: {0}")]
    Memory(#[from] MemFault),
}

/// Slot number of a backing-store address: bits 8:3.
pub const fn slot(addr: u64) -> u64 {
    (addr >> 3) & 63
}

/// Whether the backing-store doubleword at `addr` is a NaT collection (slot 63).
pub const fn is_collection(addr: u64) -> bool {
    slot(addr) == COLLECTION
}

/// BSP after `n` registers are pushed onto the stack at `bsp`, NaT collections skipped.
pub const fn bsp_after_push(bsp: u64, n: u64) -> u64 {
    let crossed = slot(bsp).wrapping_add(n) / 63;
    bsp.wrapping_add(n.wrapping_add(crossed).wrapping_mul(8))
}

/// BSP after `n` registers are popped from the stack at `bsp`, NaT collections skipped.
pub const fn bsp_after_pop(bsp: u64, n: u64) -> u64 {
    // A `bsp` on a collection slot (a BSPSTORE can be one) pops as if one slot higher.
    let crossed = n.saturating_add(62).saturating_sub(slot(bsp)) / 63;
    bsp.wrapping_sub(n.wrapping_add(crossed).wrapping_mul(8))
}

/// Registers (not collections) stored in `[bspstore, bsp)`; 0 if `bsp < bspstore`.
pub const fn regs_between(bspstore: u64, bsp: u64) -> u64 {
    if bsp < bspstore {
        return 0;
    }
    let s = (bsp - bspstore) / 8;
    s - (slot(bspstore) + s) / 64
}

/// The current frame marker: CFM, and the layout of PFS.pfm and IFS.ifm.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Cfm {
    /// Size of frame (registers).
    pub sof: u8,
    /// Size of locals (inputs + locals).
    pub sol: u8,
    /// Size of the rotating region in units of 8 registers (the field value).
    pub sor: u8,
    /// Rename base of the rotating general registers.
    pub rrb_gr: u8,
    /// Rename base of the rotating floating-point registers.
    pub rrb_fr: u8,
    /// Rename base of the rotating predicates.
    pub rrb_pr: u8,
}

impl Cfm {
    /// Decode the architected layout: sof 6:0, sol 13:7, sor 17:14, rrb.gr 24:18,
    /// rrb.fr 31:25, rrb.pr 37:32; higher bits are ignored.
    pub const fn from_bits(bits: u64) -> Cfm {
        Cfm {
            sof: (bits & 0x7F) as u8,
            sol: ((bits >> 7) & 0x7F) as u8,
            sor: ((bits >> 14) & 0xF) as u8,
            rrb_gr: ((bits >> 18) & 0x7F) as u8,
            rrb_fr: ((bits >> 25) & 0x7F) as u8,
            rrb_pr: ((bits >> 32) & 0x3F) as u8,
        }
    }

    /// Encode in the architected layout (fields truncated to their widths).
    pub const fn to_bits(self) -> u64 {
        (self.sof as u64 & 0x7F)
            | (self.sol as u64 & 0x7F) << 7
            | (self.sor as u64 & 0xF) << 14
            | (self.rrb_gr as u64 & 0x7F) << 18
            | (self.rrb_fr as u64 & 0x7F) << 25
            | (self.rrb_pr as u64 & 0x3F) << 32
    }

    /// The frame-shape rules of `alloc` (sof ≤ physical file, sol ≤ sof, sor·8 ≤ sof).
    ///
    /// # Errors
    /// The first rule broken.
    pub fn check(self) -> Result<(), RseError> {
        if u16::from(self.sof) > STACKED_PHYS {
            return Err(RseError::FrameTooLarge { sof: self.sof, max: STACKED_PHYS });
        }
        if self.sol > self.sof {
            return Err(RseError::LocalsExceedFrame { sol: self.sol, sof: self.sof });
        }
        let rotating = u16::from(self.sor) * 8;
        if rotating > u16::from(self.sof) {
            return Err(RseError::RotatingExceedsFrame { rotating, sof: self.sof });
        }
        Ok(())
    }
}

/// Physical general registers, laid out as the scoreboard's [`Res`] numbers them: r0-r15,
/// r16-r31 of bank 1, of bank 0, then the stacked ring; one more slot stands for a stacked
/// name outside the current frame.
const BANK1: usize = 16;
const BANK0: usize = 32;
const STACKED: usize = 48;
const OUTSIDE: usize = STACKED + N;
const PHYS: usize = OUTSIDE + 1;
// Every physical index fits the register arrays.
const _: () = assert!(PHYS <= 256);

/// All general registers with their NaT bits, and the RSE state.
#[derive(Debug, Clone)]
pub struct RegFile {
    /// Every physical register's value and NaT bit (index 0 is r0, never written). Sized
    /// for any `u8` index so the fast engine's accesses need no bounds checks (issue 17);
    /// entries from [`PHYS`] on are never used.
    values: [u64; 256],
    nats: [bool; 256],
    /// Where each logical register lives now, kept in step with PSR.bn, the CFM and BOF so a
    /// register access is one lookup (registers are read and written by almost every
    /// instruction; the frame changes on calls and returns only).
    map: [u8; 128],
    /// What `map` depends on (BOF, sof, sor, rrb.gr, PSR.bn) packed into one word, set by
    /// every remap: the block engine's resolved operands are valid while it is unchanged
    /// (issue 17).
    rename_key: u64,
    /// PSR.bn as last set by the CPU.
    bank: usize,
    cfm: Cfm,
    /// Physical index of GR32.
    bof: usize,
    ndirty: usize,
    nclean: usize,
    bsp: u64,
    bspstore: u64,
    /// Lowest backing-store address of the clean partition (`bspstore` when it is empty).
    bspload: u64,
    rnat: u64,
    /// The last NaT collection read from memory by a fill (address, bits), so each
    /// collection costs one load while filling through its group.
    load_coll: Option<(u64, u64)>,
    stores: u64,
    loads: u64,
}

impl Default for RegFile {
    fn default() -> Self {
        RegFile::new()
    }
}

impl RegFile {
    /// All registers zero and NaT-free, bank 0, an empty frame, nothing dirty or clean, all
    /// RSE pointers 0 (a harness sets BSPSTORE with [`RegFile::set_bspstore`]).
    pub fn new() -> RegFile {
        let mut file = RegFile {
            values: [0; 256],
            nats: [false; 256],
            map: [OUTSIDE as u8; 128],
            // No renaming yet: the first remap writes every moving name.
            rename_key: u64::MAX,
            bank: 0,
            cfm: Cfm::default(),
            bof: 0,
            ndirty: 0,
            nclean: 0,
            bsp: 0,
            bspstore: 0,
            bspload: 0,
            rnat: 0,
            load_coll: None,
            stores: 0,
            loads: 0,
        };
        for (r, slot) in (0u8..).zip(&mut file.map[..16]) {
            *slot = r;
        }
        file.remap();
        file
    }

    /// Select the r16-r31 bank (PSR.bn; nonzero means bank 1). The CPU calls this whenever
    /// PSR.bn changes (interruption, `bsw`, `rfi`).
    #[inline]
    pub fn set_bank(&mut self, bank: u8) {
        let bank = usize::from(bank != 0);
        if bank != self.bank {
            self.bank = bank;
            self.remap();
        }
    }

    /// Recomputes where every logical register lives (after PSR.bn, the CFM or BOF moved).
    /// Calls and returns remap (issue 17): only what moved is rewritten (r0-r15 never move; the
    /// bank's names only when PSR.bn changed; the stacked names of the frame, and the names the
    /// last frame had beyond this one's).
    fn remap(&mut self) {
        let c = self.cfm;
        let key = self.bof as u64
            | u64::from(c.sof) << 8
            | u64::from(c.sor) << 16
            | u64::from(c.rrb_gr) << 24
            | (self.bank as u64) << 32;
        if key == self.rename_key {
            return;
        }
        if key >> 32 != self.rename_key >> 32 {
            let banked = if self.bank == 0 { BANK0 } else { BANK1 };
            for (i, slot) in (0..).zip(&mut self.map[16..32]) {
                *slot = (banked + i) as u8;
            }
            // Only PSR.bn moved (bsw, an interruption, rfi: w9-iv2): the frame's names stand.
            if (key ^ self.rename_key) & 0xFFFF_FFFF == 0 {
                self.rename_key = key;
                return;
            }
        }
        // Names beyond the frame point at the out-of-frame slot; the frame's at the ring.
        let sof = usize::from(c.sof).min(96);
        let old = ((self.rename_key >> 8) & 0x7F) as usize;
        // (Only when the frame shrank: a call or return that grows it fills nothing.)
        if old > sof {
            if let Some(beyond) = self.map.get_mut(32 + sof..32 + old.min(96)) {
                beyond.fill(OUTSIDE as u8);
            }
        }
        let rotating = usize::from(c.sor) * 8;
        let rrb = usize::from(c.rrb_gr);
        if rotating == 0 {
            // No rotating region (w9-iv2): the frame's names are a run of the ring from BOF,
            // wrapping at most once, written as two ascending runs (what the loop below
            // computes with `renamed == offset`; an alloc's remap was ~165 host instructions).
            let bof = self.bof;
            let frame = &mut self.map[32..32 + sof];
            let (low, high) = frame.split_at_mut(N.saturating_sub(bof).min(sof));
            for (i, slot) in low.iter_mut().enumerate() {
                *slot = (STACKED + bof + i) as u8;
            }
            for (i, slot) in high.iter_mut().enumerate() {
                *slot = (STACKED + i) as u8;
            }
            self.rename_key = key;
            return;
        }
        for (offset, slot) in self.map[32..32 + sof].iter_mut().enumerate() {
            let renamed = if offset >= rotating {
                offset
            } else if rrb < rotating {
                let r = offset + rrb;
                if r >= rotating {
                    r - rotating
                } else {
                    r
                }
            } else {
                (offset + rrb) % rotating
            };
            let p = self.bof + renamed;
            *slot = (STACKED + if p >= N { p - N } else { p }) as u8;
        }
        self.rename_key = key;
    }

    // block engine (issue 17): physical access with operands resolved once per renaming.

    /// The renaming now in force, as one word: equal keys mean equal logical-to-physical maps.
    #[inline(always)]
    pub(crate) fn rename_key(&self) -> u64 {
        self.rename_key
    }

    /// The physical index logical register `r` (bit 7 ignored) lives at now; a stacked name
    /// outside the frame gives the out-of-frame slot, which reads as zero without NaT.
    #[inline(always)]
    pub(crate) fn physical(&self, r: u8) -> u8 {
        self.map[usize::from(r & 127)]
    }

    /// Whether physical index `p` is an ordinary write target (not r0, not outside the frame).
    #[inline]
    pub(crate) fn writable(p: u8) -> bool {
        p != 0 && usize::from(p) != OUTSIDE
    }

    /// Value and NaT bit of physical register `p`.
    #[inline(always)]
    pub(crate) fn get_physical(&self, p: u8) -> (u64, bool) {
        (self.values[usize::from(p)], self.nats[usize::from(p)])
    }

    /// Writes physical register `p`; the caller resolved it with [`RegFile::writable`] true.
    #[inline(always)]
    pub(crate) fn set_physical(&mut self, p: u8, value: u64, nat: bool) {
        self.values[usize::from(p)] = value;
        self.nats[usize::from(p)] = nat;
    }

    /// The selected r16-r31 bank (0 or 1).
    pub fn bank(&self) -> u8 {
        self.bank as u8
    }

    /// Frame offset of a stacked register to physical index, with rotation.
    #[inline]
    fn phys(&self, offset: usize) -> usize {
        let rotating = usize::from(self.cfm.sor) * 8;
        let renamed = if offset < rotating { (offset + usize::from(self.cfm.rrb_gr)) % rotating } else { offset };
        (self.bof + renamed) % N
    }

    /// The physical index of logical register `r`.
    #[inline]
    fn locate(&self, r: u8) -> Result<usize, RseError> {
        match self.map.get(usize::from(r)) {
            Some(&at) if usize::from(at) != OUTSIDE => Ok(usize::from(at)),
            Some(_) => Err(RseError::OutsideFrame { reg: r, sof: self.cfm.sof }),
            None => Err(RseError::NoSuchRegister(r)),
        }
    }

    /// Value and NaT bit of logical register `r` (current bank, current frame), reading a
    /// stacked register outside the frame (or a number above 127) as zero without NaT: the
    /// out-of-frame slot is never written.
    #[inline]
    pub fn read_or_zero(&self, r: u8) -> (u64, bool) {
        let at = self.map.get(usize::from(r)).map_or(OUTSIDE, |&at| usize::from(at));
        (self.values.get(at).copied().unwrap_or(0), self.nats.get(at).copied().unwrap_or(false))
    }

    /// Value and NaT bit of logical register `r` (current bank, current frame).
    ///
    /// # Errors
    /// [`RseError::OutsideFrame`] for a stacked register beyond sof (architecturally the
    /// data is undefined; the caller decides), [`RseError::NoSuchRegister`] above r127.
    #[inline]
    pub fn read(&self, r: u8) -> Result<(u64, bool), RseError> {
        let at = self.locate(r)?;
        self.values.get(at).copied().zip(self.nats.get(at).copied()).ok_or(RseError::NoSuchRegister(r))
    }

    /// Write `value` and `nat` to logical register `r`.
    ///
    /// # Errors
    /// [`RseError::WriteR0`], [`RseError::OutsideFrame`] (Illegal Operation), or
    /// [`RseError::NoSuchRegister`].
    #[inline]
    pub fn write(&mut self, r: u8, value: u64, nat: bool) -> Result<(), RseError> {
        if r == 0 {
            return Err(RseError::WriteR0);
        }
        let at = self.locate(r)?;
        match (self.values.get_mut(at), self.nats.get_mut(at)) {
            (Some(v), Some(n)) => {
                *v = value;
                *n = nat;
                Ok(())
            }
            _ => Err(RseError::NoSuchRegister(r)),
        }
    }

    /// Value and NaT bit of logical register `r` (0-127; bit 7 is ignored), reading a stacked
    /// register outside the frame as zero without NaT, as [`RegFile::read_or_zero`] does: the
    /// fast engine's read (issue 17), one lookup and no bounds checks.
    #[inline(always)]
    pub fn read_fast(&self, r: u8) -> (u64, bool) {
        let at = usize::from(self.map[usize::from(r & 127)]);
        (self.values[at], self.nats[at])
    }

    /// Writes `value` and `nat` to logical register `r` when that is an ordinary write,
    /// returning whether it was done: `false` (nothing changed) for r0, a stacked register
    /// outside the frame or a number above 127, the cases [`RegFile::write`] reports as
    /// errors. The fast engine's hot path (issue 17): no `Result` to build.
    #[inline]
    pub fn try_write(&mut self, r: u8, value: u64, nat: bool) -> bool {
        let at = match self.map.get(usize::from(r)) {
            Some(&at) if r != 0 && usize::from(at) != OUTSIDE => usize::from(at),
            _ => return false,
        };
        self.values[at] = value;
        self.nats[at] = nat;
        true
    }

    /// Scoreboard resource of the physical register behind logical `r` (bit 7 ignored).
    /// Stacked names beyond the frame still map to the register they would rename to.
    #[inline]
    pub fn res(&self, r: u8) -> Res {
        let r = r & 127;
        match self.map.get(usize::from(r)).map(|&at| usize::from(at)) {
            Some(at) if at != OUTSIDE => Res::gr_physical(at as u16),
            // Outside the frame the name still renames to a ring register.
            _ => Res::gr_stacked(self.phys(usize::from(r.saturating_sub(32))) as u16),
        }
    }

    /// Physical stacked register `p` (value, NaT) whatever partition it is in, for
    /// snapshots and debuggers; `None` if `p` ≥ [`STACKED_PHYS`].
    pub fn stacked_phys(&self, p: u16) -> Option<(u64, bool)> {
        let p = usize::from(p);
        let at = STACKED + p;
        (p < N).then(|| self.values.get(at).copied().zip(self.nats.get(at).copied())).flatten()
    }

    /// r16-r31 of a given bank regardless of PSR.bn, for snapshots (`r` 16..=31).
    pub fn read_banked(&self, r: u8, bank: u8) -> Option<(u64, bool)> {
        let i = usize::from(r.checked_sub(16)?);
        let b = usize::from(bank != 0);
        let at = if b == 0 { BANK0 } else { BANK1 } + i;
        (i < 16).then(|| self.values.get(at).copied().zip(self.nats.get(at).copied())).flatten()
    }

    /// The current frame marker.
    pub fn cfm(&self) -> Cfm {
        self.cfm
    }

    /// Set the rotating rename bases (`clrrrb`, modulo-scheduled branches); fields are
    /// truncated to their CFM widths.
    pub fn set_rrb(&mut self, gr: u8, fr: u8, pr: u8) {
        self.cfm.rrb_gr = gr & 0x7F;
        self.cfm.rrb_fr = fr & 0x7F;
        self.cfm.rrb_pr = pr & 0x3F;
        self.remap();
    }

    /// AR.BSP: backing-store address of GR32.
    pub fn bsp(&self) -> u64 {
        self.bsp
    }

    /// AR.BSPSTORE: where the next spill goes.
    pub fn bspstore(&self) -> u64 {
        self.bspstore
    }

    /// AR.RNAT (bit 63 reads 0).
    pub fn rnat(&self) -> u64 {
        self.rnat & RNAT_MASK
    }

    /// `mov ar.rnat=`: bit 63 is ignored. (The RSC.mode=0 check is the executor's.)
    pub fn set_rnat(&mut self, value: u64) {
        self.rnat = value & RNAT_MASK;
    }

    /// Physical index of GR32 (RSE.BOF).
    pub fn bof(&self) -> u16 {
        self.bof as u16
    }

    /// Registers in the dirty partition.
    pub fn ndirty(&self) -> u16 {
        self.ndirty as u16
    }

    /// Registers in the clean partition.
    pub fn nclean(&self) -> u16 {
        self.nclean as u16
    }

    /// Registers in the invalid partition.
    pub fn ninvalid(&self) -> u16 {
        N.saturating_sub(self.ndirty + self.nclean + usize::from(self.cfm.sof)) as u16
    }

    /// Mandatory RSE stores done so far (registers and NaT collections), for the timing model.
    pub fn rse_stores(&self) -> u64 {
        self.stores
    }

    /// Mandatory RSE loads done so far (registers and NaT collections), for the timing model.
    pub fn rse_loads(&self) -> u64 {
        self.loads
    }

    /// `alloc`: resize the current frame to `sof` registers with `sol` locals and a rotating
    /// region of `sor` × 8 registers (`sor` is the CFM field, the instruction's r / 8),
    /// spilling dirty registers if the new frame would overlap them. Writing PFS into the
    /// target register is the executor's job.
    ///
    /// # Errors
    /// Frame-shape errors (sof > 96, sol > sof, sor·8 > sof: Illegal Operation),
    /// [`RseError::SorChangeWithRrb`], or a fault of a mandatory spill (the frame is then
    /// unchanged; spills already done stay done).
    pub fn alloc(&mut self, sof: u8, sol: u8, sor: u8, mem: &mut Memory) -> Result<(), RseError> {
        let new = Cfm { sof, sol, sor, ..self.cfm };
        new.check()?;
        let c = self.cfm;
        if sor != c.sor && (c.rrb_gr | c.rrb_fr | c.rrb_pr) != 0 {
            return Err(RseError::SorChangeWithRrb { old: c.sor, new: sor });
        }
        self.make_room(usize::from(sof), mem)?;
        self.cfm = new;
        self.remap();
        Ok(())
    }

    /// `br.call`: the caller's locals join the dirty partition and its outputs become the
    /// callee's frame. Returns the caller's CFM for PFS.pfm. No memory traffic: the frame
    /// only shrinks.
    pub fn call(&mut self) -> Cfm {
        let old = self.cfm;
        self.push_frame(usize::from(old.sol));
        self.cfm = Cfm { sof: old.sof.saturating_sub(old.sol), ..Cfm::default() };
        self.remap();
        old
    }

    /// `cover`: the whole frame joins the dirty partition and CFM becomes empty. Returns
    /// the old CFM for IFS.ifm (the executor writes IFS only when PSR.ic = 0).
    pub fn cover(&mut self) -> Cfm {
        let old = self.cfm;
        self.push_frame(usize::from(old.sof));
        self.cfm = Cfm::default();
        self.remap();
        old
    }

    /// `br.ret`: restore the frame from PFS.pfm (`pfm_bits`, higher bits ignored), popping
    /// its sol registers off the stack; registers no longer in the file are filled.
    ///
    /// # Errors
    /// A malformed pfm (frame-shape errors), or a fault of a mandatory fill or spill.
    pub fn ret(&mut self, pfm_bits: u64, mem: &mut Memory) -> Result<(), RseError> {
        let new = Cfm::from_bits(pfm_bits);
        self.restore_frame(new, usize::from(new.sol), mem)
    }

    /// Whether [`RegFile::ret`] to `pfm_bits` can neither fail nor touch memory (issue 17: the
    /// block engine's return): a well-formed frame whose sol registers are all dirty in the
    /// file, leaving room for its sof, so no fill, spill or BSPSTORE move happens.
    #[inline]
    pub(crate) fn returns_in_file(&self, pfm_bits: u64) -> bool {
        let new = Cfm::from_bits(pfm_bits);
        let n = usize::from(new.sol);
        new.check().is_ok() && n <= self.ndirty && self.ndirty - n + self.nclean + usize::from(new.sof) <= N
    }

    /// The frame part of `rfi` with IFS.v = 1: restore CFM from IFS.ifm (`ifm_bits`),
    /// popping its sof registers; registers no longer in the file are filled. (With
    /// IFS.v = 0 the executor does not call this.)
    ///
    /// # Errors
    /// As for [`RegFile::ret`].
    pub fn rfi_restore(&mut self, ifm_bits: u64, mem: &mut Memory) -> Result<(), RseError> {
        let new = Cfm::from_bits(ifm_bits);
        self.restore_frame(new, usize::from(new.sof), mem)
    }

    /// `flushrs`: spill every dirty register and the NaT collections among them, so that
    /// BSPSTORE = BSP. Spilled registers stay in the file as clean.
    ///
    /// # Errors
    /// A fault of a spill (the registers spilled before it stay spilled).
    pub fn flushrs(&mut self, mem: &mut Memory) -> Result<(), RseError> {
        while self.ndirty > 0 {
            self.spill_one(mem)?;
        }
        // The last register may end just below a collection slot, which BSP skips.
        if self.bspstore != self.bsp && is_collection(self.bspstore) {
            self.store_collection(mem)?;
        }
        Ok(())
    }

    /// `loadrs` with RSC.loadrs = `loadrs_bytes` (only bits 13:3 count): afterwards exactly
    /// the registers of `[BSP − bytes, BSP)` are in the file and dirty (filled from memory
    /// where they are not), BSPSTORE is that tear point and everything else outside the
    /// frame is invalid. RNAT is architecturally undefined afterwards; here it holds the NaT
    /// bits of the tear point's group as memory has them. (The RSC.mode = 0 check is the
    /// executor's.)
    ///
    /// # Errors
    /// [`RseError::LoadrsWithFrame`], [`RseError::LoadrsTooLarge`], or a fault of a fill
    /// (fills already done stay as clean registers).
    pub fn loadrs(&mut self, loadrs_bytes: u64, mem: &Memory) -> Result<(), RseError> {
        let bytes = loadrs_bytes & LOADRS_MASK;
        if bytes != 0 && self.cfm.sof != 0 {
            return Err(RseError::LoadrsWithFrame { bytes, sof: self.cfm.sof });
        }
        let tear = self.bsp.wrapping_sub(bytes);
        let regs = regs_between(tear, self.bsp);
        let need = usize::try_from(regs).unwrap_or(usize::MAX);
        if need.saturating_add(usize::from(self.cfm.sof)) > N {
            return Err(RseError::LoadrsTooLarge { bytes, regs, max: STACKED_PHYS });
        }
        // Software may have rewritten the backing store since the last fill.
        self.load_coll = None;
        if tear < self.bspstore {
            while self.ndirty + self.nclean < need {
                self.fill_one(mem)?;
            }
            self.lower_store(tear, mem)?;
        } else {
            self.bspstore = tear;
        }
        self.ndirty = need;
        self.nclean = 0;
        self.bspload = tear;
        Ok(())
    }

    /// `mov ar.bspstore=`: the dirty registers are re-homed at `value & ~7` (ndirty kept),
    /// BSP is recomputed with the NaT slots from there, clean registers become invalid.
    /// RNAT is left as it is (architecturally undefined; software writes it next).
    pub fn set_bspstore(&mut self, value: u64) {
        self.bspstore = value & !7;
        self.bsp = bsp_after_push(self.bspstore, self.ndirty as u64);
        self.nclean = 0;
        self.bspload = self.bspstore;
        self.load_coll = None;
    }

    /// Move BOF up over `n` frame registers, which become dirty.
    fn push_frame(&mut self, n: usize) {
        self.bof = (self.bof + n) % N;
        self.bsp = bsp_after_push(self.bsp, n as u64);
        self.ndirty += n;
    }

    /// Pop `n` registers below BOF into the frame `new` (ret: sol, rfi: sof).
    fn restore_frame(&mut self, new: Cfm, n: usize, mem: &mut Memory) -> Result<(), RseError> {
        new.check()?;
        let new_bsp = bsp_after_pop(self.bsp, n as u64);
        if n <= self.ndirty {
            self.ndirty -= n;
        } else {
            // The frame reaches below BSPSTORE: clean registers first, then mandatory loads
            // into invalid ones (the old frame's registers are dead once the frame goes).
            while self.ndirty + self.nclean < n {
                self.fill_one(mem)?;
            }
            self.nclean -= n - self.ndirty;
            self.ndirty = 0;
            self.lower_store(new_bsp, mem)?;
            if self.nclean == 0 {
                self.bspload = self.bspstore;
            }
        }
        self.bof = (self.bof + N - n) % N;
        self.bsp = new_bsp;
        self.cfm = new;
        self.remap();
        self.make_room(usize::from(new.sof), mem)
    }

    /// Make dirty + clean + `sof` fit the physical file: clean registers are dropped first
    /// (they match memory), then dirty ones spilled.
    fn make_room(&mut self, sof: usize, mem: &mut Memory) -> Result<(), RseError> {
        while self.ndirty + self.nclean + sof > N {
            if self.nclean > 0 {
                let excess = self.ndirty + self.nclean + sof - N;
                self.nclean -= excess.min(self.nclean);
                self.bspload = bsp_after_pop(self.bspstore, self.nclean as u64);
            } else {
                self.spill_one(mem)?;
            }
        }
        Ok(())
    }

    /// BSPSTORE moves down to `new` (never a rise): RNAT must then describe the group of
    /// `new`, whose collection is already in memory unless it is still at or above the old
    /// BSPSTORE (then RNAT already holds it).
    fn lower_store(&mut self, new: u64, mem: &Memory) -> Result<(), RseError> {
        let coll = new | GROUP_TOP;
        if coll < self.bspstore {
            self.rnat = self.collection_bits(coll, mem)? & RNAT_MASK;
        }
        self.bspstore = new;
        Ok(())
    }

    /// Bits of the NaT collection at `addr` as memory has it, read once per group.
    fn collection_bits(&mut self, addr: u64, mem: &Memory) -> Result<u64, RseError> {
        if let Some((a, bits)) = self.load_coll {
            if a == addr {
                return Ok(bits);
            }
        }
        let bits = read_u64(mem, addr)?;
        self.loads += 1;
        self.load_coll = Some((addr, bits));
        Ok(bits)
    }

    /// Mandatory store of RNAT at the collection slot BSPSTORE points to.
    fn store_collection(&mut self, mem: &mut Memory) -> Result<(), RseError> {
        let at = self.bspstore;
        write_u64(mem, at, self.rnat)?;
        if let Some((a, bits)) = self.load_coll.as_mut() {
            if *a == at {
                *bits = self.rnat;
            }
        }
        self.stores += 1;
        self.bspstore = at.wrapping_add(8);
        Ok(())
    }

    /// Mandatory store of the lowest dirty register (after the collection, if BSPSTORE is
    /// on one); the register becomes clean.
    fn spill_one(&mut self, mem: &mut Memory) -> Result<(), RseError> {
        if self.ndirty == 0 {
            return Ok(());
        }
        if is_collection(self.bspstore) {
            self.store_collection(mem)?;
        }
        let p = (self.bof + N - self.ndirty) % N;
        let value = self.values.get(STACKED + p).copied().unwrap_or(0);
        let nat = self.nats.get(STACKED + p).copied().unwrap_or(false);
        let at = self.bspstore;
        write_u64(mem, at, value)?;
        let bit = 1u64 << slot(at);
        if nat {
            self.rnat |= bit;
        } else {
            self.rnat &= !bit;
        }
        if self.nclean == 0 {
            self.bspload = at;
        }
        self.bspstore = at.wrapping_add(8);
        self.ndirty -= 1;
        self.nclean += 1;
        self.stores += 1;
        Ok(())
    }

    /// Mandatory load of the register just below the clean partition into the invalid
    /// register below it; the register becomes clean. Its NaT comes from RNAT while its
    /// group's collection has not been stored (at or above BSPSTORE), else from memory.
    fn fill_one(&mut self, mem: &Memory) -> Result<(), RseError> {
        let mut at = self.bspload.wrapping_sub(8);
        if is_collection(at) {
            at = at.wrapping_sub(8);
        }
        let value = read_u64(mem, at)?;
        let coll = at | GROUP_TOP;
        let bits = if coll >= self.bspstore { self.rnat } else { self.collection_bits(coll, mem)? };
        let nat = bits >> slot(at) & 1 != 0;
        let p = (self.bof + 2 * N - self.ndirty - self.nclean - 1) % N;
        if let (Some(v), Some(n)) = (self.values.get_mut(STACKED + p), self.nats.get_mut(STACKED + p)) {
            *v = value;
            *n = nat;
        }
        self.bspload = at;
        self.nclean += 1;
        self.loads += 1;
        Ok(())
    }
}

/// RSE traffic is 8-byte little-endian whatever the memory's default order.
fn read_u64(mem: &Memory, addr: u64) -> Result<u64, MemFault> {
    let mut buf = [0u8; 8];
    mem.read_bytes(addr, &mut buf)?;
    Ok(u64::from_le_bytes(buf))
}

fn write_u64(mem: &mut Memory, addr: u64, value: u64) -> Result<(), MemFault> {
    mem.write_bytes(addr, &value.to_le_bytes())
}
