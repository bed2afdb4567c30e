//! A slot's timing facts worked out once, when its code is loaded: the lanes its sources are
//! read through, its destinations' latencies and the issue group it opens. What is left for run
//! time is renaming the general registers it names (the RSE frame and PSR.bn move).

use super::group::Plan;
use super::scoreboard::{lane, latency, Lane, Latency};
use super::{IssueInfo, Itanium2, Role};
use crate::res::Res;

/// A register an instruction names, as known before it runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RegOperand {
    /// A resource that never moves (r0-r15, FR, PR, BR, AR, CR).
    Fixed(Res),
    /// A general register by logical number: banked or stacked, renamed at issue.
    Gr(u8),
}

impl RegOperand {
    /// The physical resource, given the renaming of logical general registers now in force.
    #[inline]
    pub(crate) fn resolve(self, rename: &impl Fn(u8) -> Res) -> Res {
        match self {
            RegOperand::Fixed(res) => res,
            RegOperand::Gr(n) => rename(n),
        }
    }
}

/// A source register with the lane it is read through.
#[derive(Debug, Clone, Copy)]
pub(crate) struct PreSrc {
    pub(crate) reg: RegOperand,
    pub(crate) lane: Lane,
    /// A qualifying predicate: waited for even when the instruction is predicated off.
    pub(crate) predicate: bool,
    /// The logical GR number, for stall texts.
    pub(crate) logical: Option<u8>,
}

/// A destination register with its latencies.
#[derive(Debug, Clone, Copy)]
pub(crate) struct PreDst {
    pub(crate) reg: RegOperand,
    pub(crate) lat: Latency,
}

const NO_SRC: PreSrc =
    PreSrc { reg: RegOperand::Fixed(Res::gr_static(0)), lane: Lane::Data, predicate: false, logical: None };
const NO_DST: PreDst = PreDst { reg: RegOperand::Fixed(Res::gr_static(0)), lat: Latency::all(0) };

/// Everything the model needs about one slot that does not change while the code runs
/// ([`Itanium2::prepare`]); [`Itanium2::issue_prepared`] takes it in place of an [`IssueInfo`].
#[derive(Debug, Clone, Copy)]
pub struct SlotTiming {
    srcs: [PreSrc; 6],
    n_srcs: u8,
    dsts: [PreDst; 3],
    n_dsts: u8,
    /// Compares and tbit/tnat write their targets even when predicated off.
    pub(crate) always_writes: bool,
    pub(crate) nop: bool,
    pub(crate) plan: Plan,
    /// The port it needs as the first bundle of a group, for the timeline (issue 18).
    pub(crate) need: Option<super::ports::Need>,
    /// Timing once per group (issue 17, w7-itime): its class can change how general registers
    /// rename (`group_issue::changes_renaming`).
    pub(crate) renames: bool,
}

impl Default for SlotTiming {
    fn default() -> Self {
        SlotTiming {
            srcs: [NO_SRC; 6],
            n_srcs: 0,
            dsts: [NO_DST; 3],
            n_dsts: 0,
            always_writes: false,
            nop: false,
            plan: Plan::default(),
            need: None,
            renames: false,
        }
    }
}

impl SlotTiming {
    pub(crate) fn srcs(&self) -> &[PreSrc] {
        &self.srcs[..usize::from(self.n_srcs).min(self.srcs.len())]
    }

    pub(crate) fn dsts(&self) -> &[PreDst] {
        &self.dsts[..usize::from(self.n_dsts).min(self.dsts.len())]
    }
}

impl Itanium2 {
    /// Works out a slot's timing facts once. `info` describes the slot with any fixed resource
    /// standing in for renamed general registers (latencies depend only on the class and on AR/CR
    /// numbers); `src_regs` and `dst_regs` name the same registers, in the same order, as they
    /// are to be resolved at issue; `plan` is the group the slot opens ([`super::plan`]).
    pub fn prepare(
        &self,
        info: &IssueInfo,
        src_regs: &[RegOperand],
        dst_regs: &[RegOperand],
        plan: Plan,
    ) -> SlotTiming {
        let mut t = SlotTiming {
            always_writes: super::writes_when_predicated_off(info.class),
            nop: info.nop,
            plan,
            need: Some(super::ports::need(info.template, info.slot, info.unit, info.class, 0)),
            renames: changes_renaming(info.class),
            ..SlotTiming::default()
        };
        for ((src, &reg), slot) in info.srcs.iter().zip(src_regs).zip(t.srcs.iter_mut()) {
            *slot = PreSrc {
                reg,
                lane: lane(info.class, src.role),
                predicate: matches!(src.role, Role::Predicate | Role::BranchPredicate),
                logical: src.logical,
            };
            t.n_srcs += 1;
        }
        for (i, ((&dst, &reg), slot)) in info.dsts.iter().zip(dst_regs).zip(t.dsts.iter_mut()).enumerate() {
            *slot = PreDst { reg, lat: latency(self.params(), info, i, dst) };
            t.n_dsts += 1;
        }
        t
    }
}

// timing once per issue group (issue 17, w7-itime)

/// Whether an instruction of `class` can change how logical general registers rename (see
/// `group_issue`'s module doc): such an instruction may only be the last slot of a group that
/// takes the group step.
pub(crate) fn changes_renaming(class: crate::table::TimingClass) -> bool {
    use crate::table::TimingClass as T;
    super::scoreboard::is_branch(class) || matches!(class, T::Cover | T::Clrrrb | T::Bsw)
}
