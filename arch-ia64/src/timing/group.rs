//! Issue-group formation: which slots issue together, from the template, the dispersal window,
//! the ports and the split rules alone. None of that depends on register values, so the group
//! an instruction opens is fixed by the code that follows it: [`plan`] works it out once per
//! slot at load time, and the model then only counts slots down at run time.

use super::ports::{self, PortBusy, Ports, Split};
use crate::bundle::{SlotUnit, Template};
use crate::table::TimingClass;

/// The static shape of one slot: all that group formation looks at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SlotShape {
    /// Address of the bundle.
    pub bundle: u64,
    /// Its template.
    pub template: Template,
    /// Slot index (an MLX long instruction is slot 1).
    pub slot: u8,
    /// Unit of the slot.
    pub unit: SlotUnit,
    /// Timing class of the instruction.
    pub class: TimingClass,
}

/// Why the open issue group ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Close {
    /// A stop bit after the last slot.
    Stop,
    /// A split rule after the last slot's class or place.
    Split(Split),
    /// A taken branch.
    Branch,
    /// An interruption, rfi, epc or time outside instructions.
    Event,
    /// A planned group is complete: its fall-through successor could not join it.
    Full(Full),
}

/// Why the fall-through successor of a planned group's last slot could not join it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Full {
    /// It is in a third bundle (or past the code).
    Window,
    /// A template-pair rule refuses its bundle.
    Pair(Split),
    /// The port it needs is taken.
    Port(PortBusy),
}

/// Why an instruction could not join the open issue group.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Block {
    NoGroup,
    Closed(Close),
    Window,
    Split(Split),
    Port(PortBusy),
}

/// The open issue group: the bundles it spans, the ports it holds, and whether it is closed.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Group {
    pub(crate) open: bool,
    pub(crate) bundles: [u64; 2],
    pub(crate) n_bundles: u8,
    first_template: Template,
    ports: Ports,
    pub(crate) closed: Option<Close>,
}

impl Default for Group {
    fn default() -> Self {
        Group {
            open: false,
            bundles: [0; 2],
            n_bundles: 0,
            first_template: Template::MII,
            ports: Ports::default(),
            closed: None,
        }
    }
}

impl Group {
    /// Joins the open group if the window (`bundles_per_cycle`), split rules and ports allow.
    pub(crate) fn try_join(&mut self, s: &SlotShape, bundles_per_cycle: u8) -> Result<(), Block> {
        if !self.open {
            return Err(Block::NoGroup);
        }
        if let Some(close) = self.closed {
            return Err(Block::Closed(close));
        }
        let (position, new_bundle) = if self.bundles[0] == s.bundle {
            (0, false)
        } else if self.n_bundles == 2 && self.bundles[1] == s.bundle {
            (1, false)
        } else if self.n_bundles == 1 && bundles_per_cycle >= 2 {
            if let Some(split) = ports::pair_split(self.first_template, s.template) {
                return Err(Block::Split(split));
            }
            (1, true)
        } else {
            return Err(Block::Window);
        };
        let mut held = self.ports;
        held.take(ports::need(s.template, s.slot, s.unit, s.class, position)).map_err(Block::Port)?;
        self.ports = held;
        if new_bundle {
            self.bundles[1] = s.bundle;
            self.n_bundles = 2;
        }
        Ok(())
    }

    /// Opens a new group holding `s` alone.
    pub(crate) fn start(&mut self, s: &SlotShape) {
        *self = Group {
            open: true,
            bundles: [s.bundle, 0],
            n_bundles: 1,
            first_template: s.template,
            ports: Ports::default(),
            closed: None,
        };
        // A lone slot always finds its port in an empty group.
        let _ = self.ports.take(ports::need(s.template, s.slot, s.unit, s.class, 0));
    }

    /// Opens a group whose members were planned: only its window is kept (ports are not
    /// tracked, the plan already counted them).
    pub(crate) fn start_planned(&mut self, bundle: u64, plan: &Plan) {
        *self = Group {
            open: true,
            bundles: [bundle, bundle.wrapping_add(16)],
            n_bundles: if plan.two_bundles { 2 } else { 1 },
            ..Group::default()
        };
    }

    /// Closes the group after `s` if a stop or a split rule follows it.
    pub(crate) fn close_after(&mut self, s: &SlotShape) {
        let last_slot = if matches!(s.unit, SlotUnit::L | SlotUnit::X) { 2 } else { usize::from(s.slot) };
        if s.template.stop_after(last_slot) {
            self.closed = Some(Close::Stop);
        } else if let Some(split) = ports::split_after(s.template, s.unit, s.class) {
            self.closed = Some(Close::Split(split));
        }
    }

    /// Whether `bundle` was (or could have become) part of the group's window.
    pub(crate) fn in_window(&self, bundle: u64) -> bool {
        self.n_bundles < 2 || self.bundles.contains(&bundle)
    }
}

/// The issue group a slot opens when it starts one: how many slots (itself included, an MLX
/// pair counted once) issue with it in fall-through order, and how the group ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Plan {
    pub(crate) len: u8,
    pub(crate) two_bundles: bool,
    pub(crate) end: Close,
}

impl Default for Plan {
    fn default() -> Self {
        Plan { len: 1, two_bundles: false, end: Close::Full(Full::Window) }
    }
}

/// The group `run`'s first slot opens, given the slots that follow it in fall-through order
/// (stop the iterator where the code ends or cannot be decoded).
pub fn plan(run: impl IntoIterator<Item = SlotShape>, bundles_per_cycle: u8) -> Plan {
    let mut run = run.into_iter();
    let Some(first) = run.next() else { return Plan::default() };
    let mut group = Group::default();
    group.start(&first);
    group.close_after(&first);
    let mut len = 1u8;
    let end = loop {
        if let Some(close) = group.closed {
            break close;
        }
        let Some(next) = run.next() else { break Close::Full(Full::Window) };
        match group.try_join(&next, bundles_per_cycle) {
            Ok(()) => {
                len += 1;
                group.close_after(&next);
            }
            Err(Block::Split(split)) => break Close::Full(Full::Pair(split)),
            Err(Block::Port(port)) => break Close::Full(Full::Port(port)),
            Err(_) => break Close::Full(Full::Window),
        }
    };
    Plan { len, two_bundles: group.n_bundles == 2, end }
}
