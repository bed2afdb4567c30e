//! [`S390Params::cost`] worked out once per class (and storage operand or not) when the model
//! is built (issue 17); only the SS classes, whose cost grows with the bytes they process, are
//! costed per instruction.

use super::params::{Class, Cost, S390Params, TimerKind};

/// One class per slot (each timer kind has its own), in slot order.
const CLASSES: [Class; 24] = [
    Class::Simple,
    Class::Load,
    Class::LoadOp,
    Class::Store,
    Class::Rmw,
    Class::SsMove,
    Class::SsOp,
    Class::LoadMultiple,
    Class::StoreMultiple,
    Class::Branch,
    Class::BranchCount,
    Class::Call,
    Class::Mul,
    Class::MulImm,
    Class::MulPair,
    Class::Div,
    Class::Carry,
    Class::Timer(TimerKind::Stpt),
    Class::Timer(TimerKind::Spt),
    Class::Timer(TimerKind::Stck),
    Class::Timer(TimerKind::Stckf),
    Class::Timer(TimerKind::Ectg),
    Class::SysMask,
    Class::Serial,
];

/// The slot of `class` in [`CLASSES`].
#[inline]
fn slot(class: Class) -> usize {
    match class {
        Class::Simple => 0,
        Class::Load => 1,
        Class::LoadOp => 2,
        Class::Store => 3,
        Class::Rmw => 4,
        Class::SsMove => 5,
        Class::SsOp => 6,
        Class::LoadMultiple => 7,
        Class::StoreMultiple => 8,
        Class::Branch => 9,
        Class::BranchCount => 10,
        Class::Call => 11,
        Class::Mul => 12,
        Class::MulImm => 13,
        Class::MulPair => 14,
        Class::Div => 15,
        Class::Carry => 16,
        Class::Timer(TimerKind::Stpt) => 17,
        Class::Timer(TimerKind::Spt) => 18,
        Class::Timer(TimerKind::Stck) => 19,
        Class::Timer(TimerKind::Stckf) => 20,
        Class::Timer(TimerKind::Ectg) => 21,
        Class::SysMask => 22,
        Class::Serial => 23,
    }
}

/// The cost of every class without and with a storage operand.
#[derive(Debug, Clone)]
pub(super) struct Costs {
    by_slot: [[Cost; 2]; CLASSES.len()],
}

impl Costs {
    /// The table for `params`.
    pub(super) fn new(params: &S390Params) -> Costs {
        Costs { by_slot: CLASSES.map(|c| [params.cost(c, 0, false), params.cost(c, 0, true)]) }
    }

    /// The cost of one instruction, as [`S390Params::cost`] gives it.
    #[inline]
    pub(super) fn cost(&self, params: &S390Params, class: Class, ss_len: u64, storage: bool) -> Cost {
        if matches!(class, Class::SsMove | Class::SsOp) {
            return params.cost(class, ss_len, storage);
        }
        match self.by_slot.get(slot(class)) {
            Some(pair) => pair[usize::from(storage)],
            None => params.cost(class, ss_len, storage),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_agrees_with_the_parameters_for_every_class() {
        for params in super::super::PRESETS.iter().filter_map(|p| S390Params::preset(p)) {
            let costs = Costs::new(&params);
            for (k, class) in CLASSES.iter().enumerate() {
                assert_eq!(slot(*class), k);
                for storage in [false, true] {
                    for ss_len in [0, 1, 8, 9, 256] {
                        assert_eq!(costs.cost(&params, *class, ss_len, storage), params.cost(*class, ss_len, storage));
                    }
                }
            }
        }
    }
}
