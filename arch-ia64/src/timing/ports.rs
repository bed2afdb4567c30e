//! Dispersal: which execution port a slot needs, whether the ports an issue group already
//! holds leave one for it, and the template-pair split rules (reference section 1).

use crate::bundle::{SlotUnit, Template};
use crate::table::TimingClass as T;

/// Execution-port masks: bit n = port n of the unit type.
const M0: u8 = 0b0001;
const M01: u8 = 0b0011;
const M2: u8 = 0b0100;
const M23: u8 = 0b1100;
const M_ANY: u8 = 0b1111;

/// What one slot needs to issue.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Need {
    /// One M port out of the mask (M slots may be reordered across subtypes, so any matching works).
    M(u8),
    /// The lowest free I port; `i0_only` when it must be I0.
    I { i0_only: bool },
    /// This I port (the L+X pair of MLX, positional by bundle).
    IFixed(u8),
    /// This F port (positional by bundle).
    F(u8),
    /// This B port.
    B(u8),
}

/// A port the slot could not get, named for the stall text ("port M2 busy").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum PortBusy {
    /// M ports of this mask.
    M(u8),
    /// I port n.
    I(u8),
    /// Neither I port.
    IAny,
    /// F port n.
    F(u8),
    /// B port n.
    B(u8),
}

impl PortBusy {
    /// Number of distinct values, for a counter array.
    pub(crate) const COUNT: usize = 16;

    /// A dense index for counters.
    pub(crate) fn index(self) -> usize {
        match self {
            PortBusy::M(M0) => 0,
            PortBusy::M(M01) => 1,
            PortBusy::M(M2) => 2,
            PortBusy::M(M23) => 3,
            PortBusy::M(_) => 4,
            PortBusy::I(0) => 5,
            PortBusy::I(_) => 6,
            PortBusy::IAny => 7,
            PortBusy::F(0) => 8,
            PortBusy::F(_) => 9,
            PortBusy::B(0) => 10,
            PortBusy::B(1) => 11,
            PortBusy::B(_) => 12,
        }
    }

    /// The port name used in `StallCause::Unit`.
    pub(crate) fn name(self) -> &'static str {
        const NAMES: [&str; PortBusy::COUNT] =
            ["M0", "M0/M1", "M2", "M2/M3", "M0-M3", "I0", "I1", "I0/I1", "F0", "F1", "B0", "B1", "B2", "", "", ""];
        NAMES.get(self.index()).copied().unwrap_or("")
    }

    /// The value with counter index `i`, for turning counters back into names.
    pub(crate) fn from_index(i: usize) -> Option<PortBusy> {
        Some(match i {
            0 => PortBusy::M(M0),
            1 => PortBusy::M(M01),
            2 => PortBusy::M(M2),
            3 => PortBusy::M(M23),
            4 => PortBusy::M(M_ANY),
            5 => PortBusy::I(0),
            6 => PortBusy::I(1),
            7 => PortBusy::IAny,
            8 => PortBusy::F(0),
            9 => PortBusy::F(1),
            10 => PortBusy::B(0),
            11 => PortBusy::B(1),
            12 => PortBusy::B(2),
            _ => return None,
        })
    }
}

/// Whether a B-slot instruction is a real branch (sent to B2 in MIB/MFB/MMB) rather than a
/// nop/hint/break (sent to B0). [GCC] quoting the Itanium 2 manual; [KAPI] models break as NOP.
pub(crate) fn real_branch(class: T) -> bool {
    !matches!(class, T::Nop | T::Break)
}

/// Whether the template's B slots are positional (MBB, BBB).
fn positional_b(template: Template) -> bool {
    matches!(template.units(), [SlotUnit::M | SlotUnit::B, SlotUnit::B, SlotUnit::B])
}

/// The M-port mask of an M-slot class (reference section 1, [KAPI] cport lists, [GCC] reservations).
fn m_mask(class: T) -> u8 {
    match class {
        // Loads, lfetch, chk.a/chk.s.m and invala: M0/M1 (reference section 1: [KAPI] cportM0/M1
        // lists lfetch with the integer loads).
        T::Load | T::Lfetch | T::Chk | T::Invala => M01,
        // Stores, semaphores, setf: M2/M3.
        T::Store | T::FpStore | T::Atomic | T::SetF => M23,
        // srlz, sync.i, mf, mf.a, fwb, flushrs, loadrs: M0 only.
        T::Serialize | T::Fence | T::Rse => M0,
        // AR/CR/PSR moves, getf, alloc, probe, TLB ops: M2 only.
        T::MovToArM
        | T::MovFromArM
        | T::MovToCr
        | T::MovFromCr
        | T::MovToPsr
        | T::MovFromPsr
        | T::PsrMask
        | T::GetF
        | T::Alloc
        | T::Probe
        | T::Tlb => M2,
        // A-type ops, plain FP loads, nops, break, fc (no source: any M port).
        _ => M_ANY,
    }
}

/// Whether an I-slot class may only use I0 ([KAPI] cportI0 minus cportI1; [GCC] 2_only_ui0).
fn i0_only(class: T) -> bool {
    matches!(
        class,
        T::Shift
            | T::Tbit
            | T::MovToPr
            | T::MovFromPr
            | T::MovToBr
            | T::MovFromBr
            | T::MovFromIp
            | T::MovToArI
            | T::MovFromArI
            // multimedia (issue 12): pmpy/popcnt (MMMUL) are I0 only ([KAPI], [GCC] 2_only_ui0).
            | T::MmMul
    )
}

/// The port need of slot `slot` (unit `unit`, class `class`) of a bundle of `template` that is
/// bundle `position` (0 or 1) of its issue group.
pub(crate) fn need(template: Template, slot: u8, unit: SlotUnit, class: T, position: u8) -> Need {
    match unit {
        SlotUnit::M => Need::M(m_mask(class)),
        SlotUnit::I => Need::I { i0_only: i0_only(class) },
        SlotUnit::L | SlotUnit::X => Need::IFixed(position),
        SlotUnit::F => Need::F(position),
        SlotUnit::B if positional_b(template) => Need::B(slot),
        SlotUnit::B if real_branch(class) => Need::B(2),
        SlotUnit::B => Need::B(0),
    }
}

// timeline ports (issue 18, w6-perfetto)

impl Need {
    /// The port or ports the slot may use, as a timeline records it: one port ("M2", "I0",
    /// "F1", "B2") or a set ("M0/M1", "M2/M3", "M0-M3", "I0/I1") that the group's other slots
    /// resolve (the trace export assigns them in program order). `position` is the slot's
    /// bundle within its issue group (the F and long-immediate I ports are positional).
    pub(crate) fn timeline_name(self, position: u8) -> &'static str {
        match self {
            Need::M(mask) => match mask {
                M0 => "M0",
                M01 => "M0/M1",
                M2 => "M2",
                M23 => "M2/M3",
                _ => "M0-M3",
            },
            Need::I { i0_only: true } => "I0",
            Need::I { i0_only: false } => "I0/I1",
            Need::IFixed(_) => ["I0", "I1"].get(usize::from(position)).copied().unwrap_or(""),
            Need::F(_) => ["F0", "F1"].get(usize::from(position)).copied().unwrap_or(""),
            Need::B(n) => ["B0", "B1", "B2"].get(usize::from(n)).copied().unwrap_or(""),
        }
    }
}

/// The ports an issue group holds.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Ports {
    /// Masks of the M-slot instructions taken so far (at most 4 fit).
    m: [u8; 4],
    n_m: usize,
    i: u8,
    f: u8,
    b: u8,
}

/// Whether M-slot instructions with allowed masks `masks` can each get a distinct M port (Hall's
/// condition over the 16 port subsets: no subset is wanted by more instructions than it has ports).
fn m_assignable(masks: &[u8]) -> bool {
    (1u8..16).all(|set| masks.iter().filter(|&&m| m & !set == 0).count() <= set.count_ones() as usize)
}

impl Ports {
    /// Takes the port `need` asks for, or names the one that is busy.
    pub(crate) fn take(&mut self, need: Need) -> Result<(), PortBusy> {
        match need {
            Need::M(mask) => {
                let mut all = self.m;
                let slot = all.get_mut(self.n_m).ok_or(PortBusy::M(mask))?;
                *slot = mask;
                if !m_assignable(&all[..=self.n_m]) {
                    return Err(PortBusy::M(mask));
                }
                self.m = all;
                self.n_m += 1;
            }
            Need::I { i0_only } => {
                // In order: the first I slot goes to I0, the next to I1 ([GCC] comment).
                let port = (0..2u8).find(|p| self.i & (1 << p) == 0).ok_or(PortBusy::IAny)?;
                if i0_only && port != 0 {
                    return Err(PortBusy::I(0));
                }
                self.i |= 1 << port;
            }
            Need::IFixed(port) => Self::take_bit(&mut self.i, port, PortBusy::I(port))?,
            Need::F(port) => Self::take_bit(&mut self.f, port, PortBusy::F(port))?,
            Need::B(port) => Self::take_bit(&mut self.b, port, PortBusy::B(port))?,
        }
        Ok(())
    }

    fn take_bit(used: &mut u8, port: u8, busy: PortBusy) -> Result<(), PortBusy> {
        if *used & (1 << port) != 0 {
            return Err(busy);
        }
        *used |= 1 << port;
        Ok(())
    }
}

/// Why the template pair rules refuse a second bundle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Split {
    /// MBB as the first bundle always splits after it.
    MbbFirst,
    /// BBB as the first bundle always splits after it.
    BbbFirst,
    /// MLX as the second bundle after MII (or MBB/BBB).
    MlxSecond,
    /// BBB as the second bundle after MIB, MMB, MFB (or MBB/BBB).
    BbbSecond,
    /// A real branch in the B slot of MIB/MFB/MMB (B2) ends the bundle pair.
    BranchB2,
    /// Implicit stop after a semaphore ([KAPI] IMPLICIT_STOP_AFTER).
    Semaphore,
    /// Implicit stop after mf.a (applied to every Fence-class op).
    Fence,
    /// Implicit stop after invala ([KAPI]).
    Invala,
    /// srlz "forces split-issue" ([GATE]).
    Srlz,
    /// epc "causes split-issue" ([GATE]).
    Epc,
}

impl Split {
    /// Number of variants, for a counter array.
    pub(crate) const COUNT: usize = 10;

    /// Every variant, in counter order.
    pub(crate) const ALL: [Split; Split::COUNT] = [
        Split::MbbFirst,
        Split::BbbFirst,
        Split::MlxSecond,
        Split::BbbSecond,
        Split::BranchB2,
        Split::Semaphore,
        Split::Fence,
        Split::Invala,
        Split::Srlz,
        Split::Epc,
    ];

    /// Counter index.
    pub(crate) fn index(self) -> usize {
        self as usize
    }

    /// The rule text used in `StallCause::Split`.
    pub(crate) fn text(self) -> &'static str {
        match self {
            Split::MbbFirst => "MBB first",
            Split::BbbFirst => "BBB first",
            Split::MlxSecond => "MLX second",
            Split::BbbSecond => "BBB second",
            Split::BranchB2 => "branch in B2",
            Split::Semaphore => "after semaphore",
            Split::Fence => "after mf",
            Split::Invala => "after invala",
            Split::Srlz => "srlz",
            Split::Epc => "epc",
        }
    }
}

/// The pair rule ([GCC] final_presence_set, [KAPI] IMPLICIT_STOP_AFTER) for `second` following
/// `first` in one issue group, or `None` if the pair may issue together.
pub(crate) fn pair_split(first: Template, second: Template) -> Option<Split> {
    use SlotUnit::{B, F, I, L, M, X};
    let f = first.units();
    match f {
        [M, B, B] => return Some(Split::MbbFirst),
        [B, B, B] => return Some(Split::BbbFirst),
        _ => {}
    }
    match second.units() {
        [M, L, X] if f == [M, I, I] => Some(Split::MlxSecond),
        [B, B, B] if !matches!(f, [M, I, I] | [M, M, I] | [M, F, I] | [M, M, F] | [M, L, X]) => Some(Split::BbbSecond),
        _ => None,
    }
}

/// The split after an instruction of `class` in slot `unit`/`template`, if its class or place
/// ends the issue group.
pub(crate) fn split_after(template: Template, unit: SlotUnit, class: T) -> Option<Split> {
    match class {
        T::Atomic => Some(Split::Semaphore),
        T::Fence => Some(Split::Fence),
        T::Invala => Some(Split::Invala),
        T::Serialize => Some(Split::Srlz),
        T::Epc => Some(Split::Epc),
        _ if unit == SlotUnit::B && !positional_b(template) && real_branch(class) => Some(Split::BranchB2),
        _ => None,
    }
}
