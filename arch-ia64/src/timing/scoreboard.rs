//! The scoreboard: for every register resource, the cycle its newest value can be used, in three
//! lanes because a value's latency depends on how it is consumed (reference section 2).

use super::params::Itanium2Params;
use super::{IssueInfo, Role};
use crate::regs::{ar, cr};
use crate::res::{Res, RES_COUNT};
use crate::table::TimingClass as T;

/// How a consumer uses a value; each lane has its own ready cycle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Lane {
    /// Operand of an ALU op, store data, qualifying predicate of a non-branch.
    Data = 0,
    /// Base address of a load or store.
    Address = 1,
    /// Read by a branch: its predicate, branch register or ar.pfs.
    Branch = 2,
}

/// Latency of one produced value, per lane.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Latency {
    data: u64,
    address: u64,
    branch: u64,
}

impl Latency {
    pub(crate) const fn all(n: u64) -> Latency {
        Latency { data: n, address: n, branch: n }
    }

    /// The latency through `lane` (issue 16: a wait names its producer's).
    pub(crate) fn of(self, lane: Lane) -> u64 {
        match lane {
            Lane::Data => self.data,
            Lane::Address => self.address,
            Lane::Branch => self.branch,
        }
    }
}

/// Whether a class is a branch (consumes branch registers, ar.pfs and predicates through the
/// branch lane).
pub(crate) fn is_branch(class: T) -> bool {
    matches!(class, T::Branch | T::BranchIndirect | T::Call | T::Return | T::Rfi)
}

/// The lane `src` of an instruction of `class` is read through.
pub(crate) fn lane(class: T, role: Role) -> Lane {
    match role {
        Role::Address => Lane::Address,
        Role::BranchPredicate => Lane::Branch,
        Role::Predicate | Role::StoreData => Lane::Data,
        Role::Data if is_branch(class) => Lane::Branch,
        Role::Data => Lane::Data,
    }
}

/// Ready cycles of every resource (compared whole by the group-issue differential test).
///
/// Issue 17 (w7-itime): a power-of-two table of four lanes per resource (the fourth, and every
/// resource past [`RES_COUNT`], is padding that stays 0), so that a masked index needs no bounds
/// check and a group's live-in check is one load per source ([`Scoreboard::flat`]).
#[derive(Debug, Clone)]
pub(crate) struct Scoreboard {
    ready: Box<[[u64; 4]; BOARD_LEN]>,
    /// Issue 17 (w8-itimed): no ready cycle is later than this (every write raises it), so a
    /// group or block that opens at or after it waits for nothing and need not look at its
    /// sources. An upper bound only: paths that write the same final board may leave different
    /// horizons, so it is not part of the board's equality.
    horizon: u64,
}

impl PartialEq for Scoreboard {
    fn eq(&self, other: &Scoreboard) -> bool {
        self.ready == other.ready
    }
}

impl Eq for Scoreboard {}

/// Resources the table has room for (at least [`RES_COUNT`]).
const BOARD_LEN: usize = 1024;
const _: () = assert!(RES_COUNT < BOARD_LEN);

/// The length of [`Scoreboard::flat`].
pub(crate) const FLAT_LEN: usize = 4 * BOARD_LEN;

/// A resource that is never written: its lanes stay 0 (padding for fixed-length live-in lists).
pub(crate) const NEVER_WRITTEN: usize = BOARD_LEN - 1;

impl Scoreboard {
    /// Everything ready at cycle 0.
    pub(crate) fn new() -> Scoreboard {
        Scoreboard { ready: Box::new([[0; 4]; BOARD_LEN]), horizon: 0 }
    }

    /// The cycle `res` can be read through `lane`.
    #[inline]
    pub(crate) fn ready(&self, res: Res, lane: Lane) -> u64 {
        self.ready[res.index() & (BOARD_LEN - 1)][lane as usize & 3]
    }

    /// Records that `res` gets a new value from an instruction issued at `cycle`.
    #[inline]
    pub(crate) fn write(&mut self, res: Res, cycle: u64, lat: Latency) {
        self.write_lanes(res.index(), cycle, lat.lanes());
    }
}

// timing once per issue group (issue 17, w7-itime)
impl Scoreboard {
    /// Every ready cycle in one slice of [`FLAT_LEN`] (a constant the compiler sees, so a
    /// masked index needs no check), at [`flat_index`].
    #[inline]
    pub(crate) fn flat(&self) -> &[u64] {
        self.ready.as_flattened()
    }

    /// [`Scoreboard::write`] with the resource as its index and the latencies as lanes
    /// ([`Latency::lanes`]).
    #[inline]
    pub(crate) fn write_lanes(&mut self, index: usize, cycle: u64, lanes: [u64; 4]) {
        self.put_lanes(index, cycle, lanes);
        let [d, a, b, _] = lanes;
        self.raise(cycle + d.max(a).max(b));
    }

    /// [`Scoreboard::write_lanes`] leaving the horizon to the caller ([`Scoreboard::raise`]
    /// once for many writes whose latest ready cycle it knows).
    #[inline]
    pub(crate) fn put_lanes(&mut self, index: usize, cycle: u64, lanes: [u64; 4]) {
        self.ready[index & (BOARD_LEN - 1)] = lanes.map(|l| cycle + l);
    }

    /// Notes that some entry may now be ready as late as `ready`.
    #[inline]
    pub(crate) fn raise(&mut self, ready: u64) {
        self.horizon = self.horizon.max(ready);
    }

    /// Whether `other` holds the same ready cycles as far as any wait from cycle `now` on can
    /// tell (an entry ready by `now` counts as `now`; the block step leaves some out).
    #[cfg(test)]
    pub(crate) fn same_from(&self, other: &Scoreboard, now: u64) -> bool {
        let seen = |r: &[u64; 4]| [r[0].max(now), r[1].max(now), r[2].max(now)];
        self.ready.iter().zip(other.ready.iter()).all(|(a, b)| seen(a) == seen(b))
    }

    /// The latest ready cycle on the board (the horizon must be at least this).
    #[cfg(test)]
    pub(crate) fn latest(&self) -> u64 {
        self.ready.iter().flat_map(|r| r.iter().take(3)).copied().max().unwrap_or(0)
    }

    /// No entry is ready later than this.
    #[inline]
    pub(crate) fn horizon(&self) -> u64 {
        self.horizon
    }
}

impl Latency {
    /// The latencies as scoreboard lanes (data, address, branch, padding 0).
    #[inline]
    pub(crate) const fn lanes(self) -> [u64; 4] {
        [self.data, self.address, self.branch, 0]
    }

    /// The latencies [`Latency::lanes`] gave.
    pub(crate) const fn from_lanes(l: [u64; 4]) -> Latency {
        Latency { data: l[0], address: l[1], branch: l[2] }
    }
}

/// Where [`Scoreboard::flat`] keeps the ready cycle of `res` read through `lane`.
pub(crate) fn flat_index(res: Res, lane: Lane) -> usize {
    (res.index() & (BOARD_LEN - 1)) * 4 + lane as usize
}

/// The latency of `dst`, the `index`th destination of `info` (reference section 2).
pub(crate) fn latency(p: &Itanium2Params, info: &IssueInfo, index: usize, dst: Res) -> Latency {
    let all = Latency::all;
    match info.class {
        T::Alu | T::Extend | T::Movl => all(p.alu),
        T::Compare | T::Tbit => Latency { data: p.cmp_to_other, address: p.cmp_to_other, branch: p.cmp_to_branch },
        T::Shift => all(p.shift),
        // The first destination is the loaded value; any other is the post-increment base.
        T::Load if index == 0 => Latency { data: p.load, address: p.load_to_address, branch: p.load },
        // Every FR destination of an FP load is loaded data (ldfp has two); its only GR one is
        // the post-increment base.
        T::FpLoad if index == 0 || !dst.is_gr() => all(p.fp_load),
        // lfetch has no register result but the post-increment base (reference section 2:
        // "Post-increment base register update (ld/st/lfetch) 1"; its own [GCC] 0 / [KAPI] 5
        // figures are for the prefetch, which nothing reads).
        T::Load | T::FpLoad | T::Store | T::FpStore | T::Lfetch => all(p.base_update),
        T::Atomic => all(p.atomic),
        T::GetF => all(p.getf),
        T::SetF => all(p.setf),
        T::Fma | T::FpMerge => all(p.fp_op),
        // F unit (issue 12).
        T::FpCompare => Latency { data: p.fp_cmp, address: p.fp_cmp, branch: p.fp_cmp_to_branch },
        T::FpStatus => all(p.fp_status),
        T::MovFromPr => all(p.mov_from_pr),
        T::MovToPr => all(p.mov_to_pr),
        T::MovFromBr => all(p.mov_from_br),
        T::MovToBr => Latency { data: p.mov_to_br, address: p.mov_to_br, branch: p.mov_to_br_to_branch },
        T::MovFromIp => all(p.mov_from_ip),
        T::MovFromArI => all(p.mov_from_ar_i),
        T::MovToArI => Latency { data: p.mov_to_ar_i, address: p.mov_to_ar_i, branch: p.mov_to_ar_i_to_branch },
        T::MovFromArM => all(from_ar(p, info)),
        T::MovToArM => all(to_ar(p, info, dst)),
        T::MovFromCr => all(from_cr(p, info)),
        T::MovToCr => all(to_cr(p, dst)),
        T::MovFromPsr => all(p.from_psr),
        T::MovToPsr => all(p.to_psr),
        T::PsrMask => all(p.psr_mask),
        T::Alloc => all(p.alloc),
        T::Probe => all(p.probe),
        T::Tlb => all(p.tlb),
        // multimedia (issue 12): the integer-consumer figure (see `mm_to_integer`).
        T::MmAlu => all(p.mm_alu + p.mm_to_integer),
        T::MmShift => all(p.mm_shift + p.mm_to_integer),
        T::MmShiftImm => all(p.mm_shift_imm + p.mm_to_integer),
        T::MmMul => all(p.mm_mul + p.mm_to_integer),
        _ => all(p.other),
    }
}

/// The AR a `mov r=ar` reads (its AR source).
fn ar_source(info: &IssueInfo) -> Option<u8> {
    info.srcs.iter().find_map(|s| s.res.as_ar())
}

fn from_ar(p: &Itanium2Params, info: &IssueInfo) -> u64 {
    match ar_source(info) {
        Some(ar::K0..=ar::K7) => p.from_ar_k,
        Some(ar::RSC..=ar::BSPSTORE | ar::FPSR) => p.from_ar_rse,
        Some(ar::RNAT | ar::CCV | ar::UNAT) => p.from_ar_unat,
        Some(ar::ITC) => p.from_ar_itc,
        _ => p.from_ar_other,
    }
}

fn to_ar(p: &Itanium2Params, info: &IssueInfo, dst: Res) -> u64 {
    match dst.as_ar() {
        // The immediate form has no general-register source.
        Some(ar::RSC) if !info.srcs.iter().any(|s| s.res.is_gr()) => p.to_ar_rsc_imm,
        Some(ar::RSC) => p.to_ar_rsc,
        Some(ar::BSPSTORE) => p.to_ar_bspstore,
        Some(ar::CCV | ar::UNAT) => p.to_ar_unat,
        Some(ar::FPSR) => p.to_ar_fpsr,
        Some(ar::RNAT) => p.to_ar_rnat,
        Some(ar::K0..=ar::K7) => p.to_ar_k,
        Some(ar::ITC) => p.to_ar_itc,
        _ => p.to_ar_other,
    }
}

fn from_cr(p: &Itanium2Params, info: &IssueInfo) -> u64 {
    match info.srcs.iter().find_map(|s| s.res.as_cr()) {
        Some(cr::IVA | cr::ISR | cr::IIP | cr::IIPA | cr::IIM) => p.from_cr_fast,
        Some(cr::DCR | cr::PTA | cr::IPSR | cr::IFA | cr::ITIR | cr::IFS | cr::IHA) => p.from_cr_slow,
        Some(cr::ITM | cr::LID..=cr::ITV | cr::LRR0 | cr::LRR1) => p.from_cr_interrupt,
        _ => p.from_cr_other,
    }
}

fn to_cr(p: &Itanium2Params, dst: Res) -> u64 {
    match dst.as_cr() {
        Some(cr::ISR | cr::IIP | cr::IFA | cr::ITIR) => p.to_cr_fast,
        Some(cr::IPSR | cr::IFS | cr::IIM | cr::IHA) => p.to_cr_slow,
        Some(cr::ITM | cr::TPR | cr::EOI | cr::ITV | cr::LRR0 | cr::LRR1) => p.to_cr_interrupt,
        _ => p.to_cr_other,
    }
}
