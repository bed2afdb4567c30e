//! Records every arch's timing model emits: issue groups, why they waited, and totals.
//!
//! The model fills a [`TimingSummary`] always and a [`Timeline`] only when asked for one
//! (it grows with the path). Both serialize for the JSON report; addresses are hex
//! strings because JSON numbers lose precision above 2^53.

use std::collections::BTreeMap;
use std::fmt;

use serde::{Serialize, Serializer};

use crate::snapshot::hex64;

/// A register a stall waited on, named without allocating (the name is only built for a record).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Reg {
    /// A register with a fixed name ("rax", "rflags", "ar.itc").
    Named(&'static str),
    /// A numbered register: `{prefix}{number}{suffix}` ("r16", "f8", "r16(bank0)", "ar70").
    Numbered {
        /// Text before the number ("r", "stacked-gr").
        prefix: &'static str,
        /// The register's number.
        number: u16,
        /// Text after the number ("" or "(bank0)").
        suffix: &'static str,
    },
}

impl fmt::Display for Reg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reg::Named(name) => f.write_str(name),
            Reg::Numbered { prefix, number, suffix } => write!(f, "{prefix}{number}{suffix}"),
        }
    }
}

/// Why issue waited; shared by the IA-64, x86 and s390 models.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum StallCause {
    /// A source register was not ready yet ("r16", "p6", "ar.itc", "rax").
    Register(Reg),
    /// A load waited for the store it forwards from (x86).
    StoreForward,
    /// A serialising instruction drained the pipeline; holds its kind ("cpuid", x86).
    Serialisation(&'static str),
    /// The microcode sequencer was busy; holds the microcoded kind (x86).
    Microcode(&'static str),
    /// An execution port or unit was taken; holds its name ("M2", "divider", "reorder buffer").
    Unit(&'static str),
    /// The dispersal rules split the group; holds the rule ("MBB first", "serialisation drain").
    Split(&'static str),
    /// A taken branch's bubble.
    Branch,
    /// The cost of delivering or returning from an interruption.
    Interruption,
    /// The stated cost of a stub standing in for a function (linking, issue 14); holds the
    /// stub's name (built once per summary, not per instruction).
    Stub(String),
    /// A source register was not ready yet, and the instruction that produced it (issue 16):
    /// what a timeline records for a register wait; the summary's table keeps
    /// [`StallCause::Register`], so its rows stay one per register.
    Produced(Reg, Producer),
}

/// The instruction whose result a register wait waited for.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Producer {
    /// Its address (ia64: of its bundle).
    pub addr: u64,
    /// Its slot in the bundle (0 on architectures without bundles).
    pub slot: u8,
    /// Cycles from its execution to the value being ready.
    pub latency: u64,
    /// Its disassembly; empty until [`Timeline::name_producers`] finds it among the slots.
    pub text: String,
}

impl StallCause {
    /// The cause as the summary's stall table counts it: a register wait without its producer.
    pub fn summary_cause(&self) -> StallCause {
        match self {
            StallCause::Produced(reg, _) => StallCause::Register(*reg),
            other => other.clone(),
        }
    }
}

impl fmt::Display for StallCause {
    /// The text reports, timelines and the stall table have always printed.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StallCause::Register(reg) => write!(f, "dependency on {reg}"),
            StallCause::StoreForward => f.write_str("dependency on store-forwarded memory"),
            StallCause::Serialisation(kind) => write!(f, "dependency on {kind} serialisation"),
            StallCause::Microcode(kind) => write!(f, "port microcode ({kind}) busy"),
            StallCause::Unit(unit) => write!(f, "port {unit} busy"),
            StallCause::Split(rule) => write!(f, "split issue: {rule}"),
            StallCause::Branch => f.write_str("branch"),
            StallCause::Interruption => f.write_str("interruption"),
            StallCause::Stub(name) => write!(f, "stub {name}"),
            StallCause::Produced(reg, p) => {
                let sep = if p.text.is_empty() { "" } else { " " };
                write!(f, "dependency on {reg} ({}{sep}at {:#x}.{}: latency {})", p.text, p.addr, p.slot, p.latency)
            }
        }
    }
}

impl Serialize for StallCause {
    /// As its display text: that is what a reader of the report wants.
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// One instruction slot of an issue group.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SlotRef {
    /// Address of the instruction (ia64: of its bundle).
    #[serde(serialize_with = "ser_hex")]
    pub addr: u64,
    /// Slot within the bundle (0 on architectures without bundles).
    pub slot: u8,
    /// Disassembly.
    pub text: String,
    /// Whether the instruction is a nop.
    pub nop: bool,
    /// The cycle its result is ready (it completes), where the model records it (x86, s390;
    /// issue 16).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub done: Option<u64>,
    /// The unit or port group it executed on ("ALU", "load", "FXU"), where the model records it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unit: Option<&'static str>,
}

impl SlotRef {
    /// A slot with no text yet, its completion and unit unrecorded.
    pub fn new(addr: u64, slot: u8, nop: bool) -> SlotRef {
        SlotRef { addr, slot, text: String::new(), nop, done: None, unit: None }
    }
}

/// One issue group: the slots that issued together and what delayed them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GroupRecord {
    /// Cycle the group's first slot issued in.
    pub first_cycle: u64,
    /// The slots, in program order.
    pub slots: Vec<SlotRef>,
    /// Each reason the group waited, with the cycles it cost, in the order they were met.
    pub waited: Vec<(StallCause, u64)>,
}

/// The issue groups of one run, in order; only kept when the user asks for it.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct Timeline {
    /// The groups, in issue order.
    pub groups: Vec<GroupRecord>,
}

impl Timeline {
    /// Gives each register wait's producer the text of its instruction, from the slots
    /// recorded (a producer outside the timeline keeps its address only). Call once the slots
    /// are labelled.
    pub fn name_producers(&mut self) {
        let texts: BTreeMap<(u64, u8), String> =
            self.groups.iter().flat_map(|g| g.slots.iter()).map(|s| ((s.addr, s.slot), s.text.clone())).collect();
        for (cause, _) in self.groups.iter_mut().flat_map(|g| g.waited.iter_mut()) {
            if let StallCause::Produced(_, p) = cause {
                if let Some(t) = texts.get(&(p.addr, p.slot)).filter(|_| p.text.is_empty()) {
                    p.text.clone_from(t);
                }
            }
        }
    }
}

impl fmt::Display for Timeline {
    /// One line per group: first cycle, its slots separated by ` ; ` (each with its unit and
    /// completion cycle where recorded), then why it waited.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for group in &self.groups {
            write!(f, "{:>8} ", group.first_cycle)?;
            for (i, slot) in group.slots.iter().enumerate() {
                let sep = if i == 0 { "" } else { " ; " };
                write!(f, "{sep}{:#x}.{} {}", slot.addr, slot.slot, slot.text)?;
                match (slot.unit, slot.done) {
                    (Some(unit), Some(done)) => write!(f, " [{unit}, done {done}]")?,
                    (None, Some(done)) => write!(f, " [done {done}]")?,
                    (Some(unit), None) => write!(f, " [{unit}]")?,
                    (None, None) => {}
                }
            }
            if !group.waited.is_empty() {
                f.write_str("  <- waited")?;
                for (i, (cause, cycles)) in group.waited.iter().enumerate() {
                    let sep = if i == 0 { " " } else { ", " };
                    let unit = if *cycles == 1 { "cycle" } else { "cycles" };
                    write!(f, "{sep}{cycles} {unit}: {cause}")?;
                }
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

/// Totals of one run.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct TimingSummary {
    /// Cycles from the start of the run to the end of its last instruction.
    pub cycles: u64,
    /// Instructions retired, nops included.
    pub instructions: u64,
    /// Nops among them.
    pub nops: u64,
    /// Issue groups.
    pub groups: u64,
    /// Cycles lost per cause, keyed by the cause's display text so equal causes add up.
    pub stalls: BTreeMap<String, u64>,
}

impl TimingSummary {
    /// Counts `cycles` lost to `cause` (a [`StallCause::Produced`] under its register).
    pub fn add_stall(&mut self, cause: &StallCause, cycles: u64) {
        // One row per register, whoever produced it.
        let key = match cause {
            StallCause::Produced(reg, _) => StallCause::Register(*reg).to_string(),
            other => other.to_string(),
        };
        *self.stalls.entry(key).or_insert(0) += cycles;
    }
}

impl fmt::Display for TimingSummary {
    /// A small two-column table; stalls follow, largest first.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "cycles        {:>10}", self.cycles)?;
        writeln!(f, "instructions  {:>10}", self.instructions)?;
        writeln!(f, "nops          {:>10}", self.nops)?;
        writeln!(f, "groups        {:>10}", self.groups)?;
        if !self.stalls.is_empty() {
            writeln!(f, "stalls:")?;
            let mut stalls: Vec<(&String, &u64)> = self.stalls.iter().collect();
            stalls.sort_by(|a, b| b.1.cmp(a.1).then_with(|| a.0.cmp(b.0)));
            let width = stalls.iter().map(|(cause, _)| cause.len()).max().unwrap_or(0);
            for (cause, cycles) in stalls {
                writeln!(f, "  {cause:<width$}  {cycles:>8}")?;
            }
        }
        Ok(())
    }
}

/// Serializes an address as `0x%016x`.
fn ser_hex<S: Serializer>(value: &u64, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&hex64(*value))
}

#[cfg(test)]
mod tests;
