//! Held-group ITC (issue 15): the cycle a slot used when it read or wrote `ar.itc`, kept until
//! its issue group is complete, so that a later slot of the same group that waits moves the
//! value too.
//!
//! The CPU executes a group's slots one at a time, and the model learns that a group waits only
//! when it sees the slot whose source is late; an earlier slot of the group has by then been
//! executed with the cycle the group had before the wait. In lockstep the whole group issues at
//! the later cycle, so an `ar.itc` access of an earlier slot happens then. Rather than guessing
//! the group's cycle before its first slot runs (which would need the outcome of branches and
//! the value of predicates that slots of the same group compute), the model keeps the accesses
//! of the open group and reports each wait that follows one, and the CPU moves the value by as
//! much. This is exact because nothing can observe the value before the group has issued: the
//! architecture forbids a slot to read a register an earlier slot of its instruction group wrote
//! (SDM vol. 1 section 3.4, RAW within an instruction group; an issue group lies inside one), so
//! the register `mov r=ar.itc` wrote is corrected before any legal reader runs.

use super::Itanium2;

/// How a slot used the cycle it issued in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClockUse {
    /// `mov r=ar.itc`: the counter's value went to general register r (logical number).
    Read(u8),
    /// `mov ar.itc=`: the counter was set, its offset taken against the issue cycle.
    Write,
}

/// The clock uses of the open issue group, each with the cycle it was given (at most one per
/// slot: six).
#[derive(Debug, Clone, Copy)]
pub(crate) struct ClockUses {
    uses: [(ClockUse, u64); ClockUses::CAP],
    len: usize,
}

impl ClockUses {
    const CAP: usize = 6;

    pub(crate) fn new() -> ClockUses {
        ClockUses { uses: [(ClockUse::Write, 0); ClockUses::CAP], len: 0 }
    }

    /// Forgets the uses of the group that ended.
    pub(crate) fn clear(&mut self) {
        self.len = 0;
    }

    /// The uses noted, each with its cycle.
    #[cfg(test)]
    pub(crate) fn noted(&self) -> &[(ClockUse, u64)] {
        self.uses.get(..self.len).unwrap_or(&[])
    }
}

impl Itanium2 {
    /// Notes that the slot just issued used the cycle [`Itanium2::issue_prepared`] (or
    /// [`Itanium2::issue`]) returned for it as `what`. Allocation-free.
    pub fn note_clock_use(&mut self, what: ClockUse) {
        let cycle = self.cycle;
        let uses = &mut self.clock_uses;
        if let Some(slot) = uses.uses.get_mut(uses.len) {
            *slot = (what, cycle);
            uses.len += 1;
        }
    }

    /// For each use noted in the open issue group whose group has waited since, calls
    /// `fix(use, cycles)` with the cycles the group was held by, and takes them as applied.
    /// Call after every slot's issue.
    #[inline(always)]
    pub fn settle_clock_uses(&mut self, mut fix: impl FnMut(ClockUse, u64)) {
        // issue 17 (w6-block2): most groups read no clock; skip the loop set-up for them.
        if self.clock_uses.len == 0 {
            return;
        }
        let now = self.cycle;
        let uses = &mut self.clock_uses;
        for (what, cycle) in uses.uses.iter_mut().take(uses.len) {
            if *cycle < now {
                fix(*what, now - *cycle);
                *cycle = now;
            }
        }
    }
}
