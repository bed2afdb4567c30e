//! What the model does with an instruction of each timing class, resolved against the
//! parameters once when the model is built (issue 17): [`super::X86Model::issue`] looks one
//! [`Plan`] up by class instead of matching the class again for every rule.

use super::{pipe_group, Group, Microcode, Serialise, TimingClass, X86Model};

/// The class-only facts [`X86Model::issue`] needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Plan {
    /// The stack engine handles its rsp update (push, pop, call, ret, pushf, popf).
    pub(super) stack_engine: bool,
    /// The serialisation it waits for before executing.
    pub(super) serialising: Option<Serialise>,
    /// A microcode-sequencer instruction: its stall kind and how long it keeps the sequencer.
    pub(super) sequenced: Option<(Microcode, u64)>,
    /// The pipe group it executes on, with the group's pipe count.
    pub(super) pipe: Option<(Group, u64)>,
    /// Register result latency; `None` for div/idiv, whose latency depends on the operand.
    pub(super) latency: Option<u64>,
}

/// One class per plan slot, in slot order (div/idiv stand for every size and signedness).
const CLASSES: [TimingClass; 42] = {
    use TimingClass as T;
    [
        T::Alu,
        T::Lea,
        T::Mov,
        T::MovImm,
        T::Movzx,
        T::Shift,
        T::ShiftCl,
        T::Rotate,
        T::Bit,
        T::BitScan,
        T::Popcnt,
        T::Imul,
        T::Mul,
        T::Div { bytes: 8, signed: false },
        T::Cmov,
        T::Setcc,
        T::Load,
        T::Store,
        T::LoadAlu,
        T::Rmw,
        T::Push,
        T::Pop,
        T::Call,
        T::CallIndirect,
        T::Ret,
        T::Jmp,
        T::JmpIndirect,
        T::Jcc,
        T::Xchg,
        T::LockedRmw,
        T::Cmpxchg,
        T::Pushf,
        T::Popf,
        T::Cli,
        T::Sti,
        T::Rdtsc,
        T::Rdtscp,
        T::Lfence,
        T::Mfence,
        T::Pause,
        T::Nop,
        T::Cqo,
    ]
};

/// The plans of every class, indexed by [`slot`].
pub(super) type Plans = [Plan; CLASSES.len()];

/// A placeholder table, replaced by [`plans`] as soon as the model exists.
pub(super) const EMPTY: Plans =
    [Plan { stack_engine: false, serialising: None, sequenced: None, pipe: None, latency: None }; CLASSES.len()];

/// The plan slot of `class` (its position in [`CLASSES`]).
#[inline]
pub(super) fn slot(class: TimingClass) -> usize {
    use TimingClass as T;
    match class {
        T::Alu => 0,
        T::Lea => 1,
        T::Mov => 2,
        T::MovImm => 3,
        T::Movzx => 4,
        T::Shift => 5,
        T::ShiftCl => 6,
        T::Rotate => 7,
        T::Bit => 8,
        T::BitScan => 9,
        T::Popcnt => 10,
        T::Imul => 11,
        T::Mul => 12,
        T::Div { .. } => 13,
        T::Cmov => 14,
        T::Setcc => 15,
        T::Load => 16,
        T::Store => 17,
        T::LoadAlu => 18,
        T::Rmw => 19,
        T::Push => 20,
        T::Pop => 21,
        T::Call => 22,
        T::CallIndirect => 23,
        T::Ret => 24,
        T::Jmp => 25,
        T::JmpIndirect => 26,
        T::Jcc => 27,
        T::Xchg => 28,
        T::LockedRmw => 29,
        T::Cmpxchg => 30,
        T::Pushf => 31,
        T::Popf => 32,
        T::Cli => 33,
        T::Sti => 34,
        T::Rdtsc => 35,
        T::Rdtscp => 36,
        T::Lfence => 37,
        T::Mfence => 38,
        T::Pause => 39,
        T::Nop => 40,
        T::Cqo => 41,
    }
}

/// Every class's plan under the model's parameters.
pub(super) fn plans(model: &X86Model) -> Plans {
    use TimingClass as T;
    CLASSES.map(|class| Plan {
        stack_engine: matches!(class, T::Push | T::Pop | T::Call | T::CallIndirect | T::Ret | T::Pushf | T::Popf),
        serialising: class.serialises(),
        sequenced: model.sequenced(class),
        pipe: pipe_group(class).map(|g| (g, model.pipe_count(g))),
        latency: (!matches!(class, T::Div { .. })).then(|| model.latency(class)),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_class_has_its_own_slot() {
        for (k, class) in CLASSES.iter().enumerate() {
            assert_eq!(slot(*class), k, "{class:?}");
        }
        assert_eq!(slot(TimingClass::Div { bytes: 1, signed: true }), slot(CLASSES[13]));
    }
}
