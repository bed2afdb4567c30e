//! A [`Timeline`] as a Chrome / Perfetto trace-event file (issue 18): the JSON object form
//! (`{"traceEvents": [...], "displayTimeUnit": "ns"}`) that Perfetto and `chrome://tracing`
//! open. Each run is a process; each execution port or unit is a thread (track) holding one
//! complete event (`"ph": "X"`) per instruction it accepted, one cycle long (the models' ports
//! are pipelined: they take one operation per cycle; the result's latency is in `args`). Two
//! more tracks show the issue groups and the cycles each group waited, with the cause.
//! Timestamps are the model's cycles at its clock, in microseconds, as the format wants.
//!
//! A process may hold several [`Segment`]s (the paths of one system call, issue 18): they are
//! laid end to end from time 0, each from the cycle it started at, the phases between them left
//! out, with a `paths` track naming each; so two versions' processes line up on one time scale.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::timing::{SlotRef, StallCause, Timeline};

/// Where an instruction comes from, as far as the image knows.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Place {
    /// `symbol+0xoffset` (`symbol` at offset 0).
    pub symbol: Option<String>,
    /// `file:line` of its source.
    pub source: Option<String>,
    /// That source line's text, trimmed.
    pub source_text: Option<String>,
}

/// How a model names the units its timeline slots record.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PortNames {
    /// Each name is one port or a set of ports one slot may use (`"M0/M1"`, `"M0-M3"`,
    /// `"I0/I1"`): IA-64. The slots of an issue group get distinct ports, assigned in program
    /// order, each the lowest of its set that leaves ports for the rest. `order` lists every
    /// port, in the order the tracks are shown.
    Exclusive {
        /// The ports, in track order.
        order: &'static [&'static str],
    },
    /// Each name is a group of like ports (`"ALU"`, `"FXU"`): x86-64 and s390x. The k-th
    /// slot on one unit in one cycle (over the groups issuing in it, in order) is on lane k
    /// (`"ALU.1"`).
    Pooled,
}

/// The Itanium 2 ports, in track order.
pub const IA64_PORTS: [&str; 11] = ["M0", "M1", "M2", "M3", "I0", "I1", "F0", "F1", "B0", "B1", "B2"];

/// The track a slot with no recorded unit goes to.
pub const NO_UNIT: &str = "no unit recorded";

/// One instruction as a port took it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Issued<'a> {
    /// Index of its issue group in the timeline.
    pub group: usize,
    /// The slot.
    pub slot: &'a SlotRef,
    /// The cycle it issued in.
    pub cycle: u64,
    /// The concrete port or lane it used.
    pub port: String,
}

impl Issued<'_> {
    /// Cycles from issue to its result being ready, where the model recorded a result.
    pub fn latency(&self) -> Option<u64> {
        self.slot.done.map(|d| d.saturating_sub(self.cycle))
    }
}

/// Every slot of `timeline` on the port it used, in issue order.
pub fn assign_ports(timeline: &Timeline, names: PortNames) -> Vec<Issued<'_>> {
    let mut out = Vec::new();
    // Pooled lanes taken in the current cycle: groups may issue in the same cycle (s390x).
    let mut lanes: (u64, BTreeMap<&str, usize>) = (u64::MAX, BTreeMap::new());
    for (index, group) in timeline.groups.iter().enumerate() {
        if lanes.0 != group.first_cycle {
            lanes = (group.first_cycle, BTreeMap::new());
        }
        let ports = match names {
            PortNames::Exclusive { .. } => exclusive(&group.slots),
            PortNames::Pooled => pooled(&group.slots, &mut lanes.1),
        };
        for (slot, port) in group.slots.iter().zip(ports) {
            out.push(Issued { group: index, slot, cycle: group.first_cycle, port });
        }
    }
    out
}

/// The ports a unit name allows: `"M0/M1"` -> M0, M1; `"M0-M3"` -> M0..M3; `"B2"` -> B2.
fn alternatives(name: &str) -> Vec<String> {
    if let Some((from, to)) = name.split_once('-') {
        let split = |s: &str| {
            let digits = s.find(|c: char| c.is_ascii_digit()).unwrap_or(s.len());
            let (prefix, number) = s.split_at(digits);
            (prefix.to_string(), number.parse::<u32>().ok())
        };
        if let ((p, Some(a)), (q, Some(b))) = (split(from), split(to)) {
            if p == q && a <= b {
                return (a..=b).map(|n| format!("{p}{n}")).collect();
            }
        }
    }
    name.split('/').map(str::to_string).collect()
}

/// Distinct ports for the slots of one IA-64 issue group (see [`PortNames::Exclusive`]).
fn exclusive(slots: &[SlotRef]) -> Vec<String> {
    let sets: Vec<Vec<String>> =
        slots.iter().map(|s| s.unit.map_or_else(|| vec![NO_UNIT.to_string()], alternatives)).collect();
    let mut chosen = vec![String::new(); sets.len()];
    if !place(&sets, 0, &mut chosen) {
        // The model admitted the group, so this means its names and ours disagree: show the
        // sets as recorded rather than invent an assignment.
        return slots.iter().map(|s| s.unit.unwrap_or(NO_UNIT).to_string()).collect();
    }
    chosen
}

/// Backtracking assignment of `sets[i..]` to ports not yet in `chosen[..i]` (at most six slots
/// of four choices).
fn place(sets: &[Vec<String>], i: usize, chosen: &mut Vec<String>) -> bool {
    let Some(set) = sets.get(i) else { return true };
    for port in set {
        let free = port == NO_UNIT || !chosen.iter().take(i).any(|c| c == port);
        if free {
            if let Some(c) = chosen.get_mut(i) {
                c.clone_from(port);
            }
            if place(sets, i + 1, chosen) {
                return true;
            }
        }
    }
    false
}

/// Lanes of pooled units for the slots of one group (see [`PortNames::Pooled`]), after the
/// lanes `used` by the groups issued before it in the same cycle.
fn pooled<'s>(slots: &'s [SlotRef], used: &mut BTreeMap<&'s str, usize>) -> Vec<String> {
    slots
        .iter()
        .map(|s| {
            let unit = s.unit.unwrap_or(NO_UNIT);
            let lane = used.entry(unit).or_insert(0);
            let name = format!("{unit}.{lane}");
            *lane += 1;
            name
        })
        .collect()
}

/// A stretch of one process's time: a run, or one path of a system call.
#[derive(Debug, Clone)]
pub struct Segment<'a> {
    /// The name its slice on the `paths` track has (`"syscall_enter"`); a process whose
    /// segments have none gets no `paths` track.
    pub name: Option<String>,
    /// Its recorded timeline.
    pub timeline: &'a Timeline,
    /// The cycle it started at, on its timeline's clock (or its first group's, if earlier):
    /// drawn at the end of the previous segment (the first at time 0).
    pub start: u64,
    /// Its length in cycles (at least to the end of its last group).
    pub cycles: u64,
    /// Facts shown in its `paths` slice's args (which call it is, its cycles).
    pub args: BTreeMap<&'static str, Arg>,
}

impl<'a> Segment<'a> {
    /// A whole run from cycle 0: one unnamed segment.
    pub fn run(timeline: &'a Timeline, cycles: u64) -> Segment<'a> {
        Segment { name: None, timeline, start: 0, cycles, args: BTreeMap::new() }
    }
}

/// One run (or one version's system call) to export.
#[derive(Debug, Clone)]
pub struct Process<'a> {
    /// Its name in the viewer ("ia64/syscall/v1", "ia64/syscall/v2 syscall_enter").
    pub name: String,
    /// Facts added to the args of its `process_name` metadata event (which call was chosen).
    pub about: BTreeMap<&'static str, Arg>,
    /// What it ran, laid end to end.
    pub segments: Vec<Segment<'a>>,
    /// How its units are named.
    pub ports: PortNames,
    /// The model's clock in MHz (cycles per microsecond).
    pub clock_mhz: u64,
    /// Where each instruction address comes from.
    pub places: &'a BTreeMap<u64, Place>,
}

/// An argument value.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Arg {
    /// Text.
    Text(String),
    /// A count or cycle.
    Int(u64),
    /// A flag.
    Bool(bool),
}

/// One trace event (the subset of the format this writer emits).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Event {
    /// What is shown on the slice.
    pub name: String,
    /// Category.
    pub cat: &'static str,
    /// Phase: `"X"` complete event, `"M"` metadata.
    pub ph: &'static str,
    /// Start, in microseconds (absent on metadata).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ts: Option<f64>,
    /// Duration, in microseconds (complete events).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dur: Option<f64>,
    /// Process: the run.
    pub pid: u32,
    /// Thread: the track.
    pub tid: u32,
    /// Details shown when the slice is selected.
    pub args: BTreeMap<&'static str, Arg>,
}

/// A whole trace file.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TraceFile {
    /// The events: metadata first, then each process's complete events in time order.
    #[serde(rename = "traceEvents")]
    pub trace_events: Vec<Event>,
    /// How the viewer shows times.
    #[serde(rename = "displayTimeUnit")]
    pub display_time_unit: &'static str,
    /// Free-form facts about the trace: each process's clock.
    #[serde(rename = "otherData")]
    pub other_data: BTreeMap<String, String>,
}

impl TraceFile {
    /// The file's JSON text.
    ///
    /// # Errors
    /// Only if serde_json fails, which the types here do not make it do.
    pub fn to_json(&self) -> Result<String, serde_json::Error> {
        serde_json::to_string_pretty(self)
    }
}

/// Track id of the issue-group track; the wait track follows, then the ports.
const GROUP_TID: u32 = 1;
const WAIT_TID: u32 = 2;
const FIRST_PORT_TID: u32 = 10;

/// The trace of `processes`, numbered from pid 1.
pub fn trace(processes: &[Process<'_>]) -> TraceFile {
    let mut events = Vec::new();
    let mut other = BTreeMap::new();
    for (pid, p) in (1u32..).zip(processes) {
        other.insert(format!("pid {pid}"), format!("{}: {} MHz, 1 cycle = {} us", p.name, p.clock_mhz, us(1, p)));
        process(pid, p, &mut events);
    }
    TraceFile { trace_events: events, display_time_unit: "ns", other_data: other }
}

/// Microseconds of `cycles` at the process's clock.
fn us(cycles: u64, p: &Process<'_>) -> f64 {
    // Cycle counts of a path stay far below 2^53, where f64 is exact.
    cycles as f64 / p.clock_mhz.max(1) as f64
}

fn meta(pid: u32, tid: u32, name: &'static str, key: &'static str, value: Arg) -> Event {
    Event {
        name: name.to_string(),
        cat: "__metadata",
        ph: "M",
        ts: None,
        dur: None,
        pid,
        tid,
        args: [(key, value)].into(),
    }
}

/// A complete event over cycles `[from, to)`.
fn span(p: &Process<'_>, pid: u32, tid: u32, name: String, cat: &'static str, from: u64, to: u64) -> Event {
    let (ts, end) = (us(from, p), us(to, p));
    Event { name, cat, ph: "X", ts: Some(ts), dur: Some((end - ts).max(0.0)), pid, tid, args: BTreeMap::new() }
}

/// Track id of the `paths` track (processes of several segments).
const PATHS_TID: u32 = 3;

fn process(pid: u32, p: &Process<'_>, events: &mut Vec<Event>) {
    let issued: Vec<Vec<Issued<'_>>> = p.segments.iter().map(|s| assign_ports(s.timeline, p.ports)).collect();
    // Tracks: the fixed port list first (IA-64), then any other name in order of first use.
    let mut tracks: Vec<String> = match p.ports {
        PortNames::Exclusive { order } => order.iter().map(|s| s.to_string()).collect(),
        PortNames::Pooled => Vec::new(),
    };
    for i in issued.iter().flatten() {
        if !tracks.contains(&i.port) {
            tracks.push(i.port.clone());
        }
    }
    if matches!(p.ports, PortNames::Pooled) {
        tracks.sort();
    }
    let tid_of = |port: &str| -> u32 {
        let at = tracks.iter().position(|t| t == port).unwrap_or(0);
        FIRST_PORT_TID + u32::try_from(at).unwrap_or(0)
    };
    let mut name = meta(pid, 0, "process_name", "name", Arg::Text(p.name.clone()));
    name.args.extend(p.about.iter().map(|(k, v)| (*k, v.clone())));
    events.push(name);
    events.push(meta(pid, 0, "process_sort_index", "sort_index", Arg::Int(u64::from(pid))));
    let with_paths = p.segments.iter().any(|s| s.name.is_some());
    let mut named = vec![(GROUP_TID, "issue groups".to_string()), (WAIT_TID, "waits".to_string())];
    if with_paths {
        named.insert(0, (PATHS_TID, "paths".to_string()));
    }
    named.extend(tracks.iter().map(|t| (tid_of(t), format!("port {t}"))));
    for (tid, name) in named {
        // The paths track first, then groups, waits and the ports.
        let sort = if tid == PATHS_TID { 0 } else { u64::from(tid) };
        events.push(meta(pid, tid, "thread_name", "name", Arg::Text(name)));
        events.push(meta(pid, tid, "thread_sort_index", "sort_index", Arg::Int(sort)));
    }
    let mut at = 0u64;
    for (segment, issued) in p.segments.iter().zip(&issued) {
        // A core whose issue overlaps the previous path's completion (s390x) issues the first
        // groups before the clock the path started at: the segment starts at the earlier.
        let first = segment.timeline.groups.first().map_or(segment.start, |g| g.first_cycle);
        let origin = segment.start.min(first);
        let last = segment.timeline.groups.last().map_or(0, |g| g.first_cycle.saturating_sub(origin) + 1);
        let length = (segment.cycles + (segment.start - origin)).max(last);
        if let Some(name) = &segment.name {
            let mut e = span(p, pid, PATHS_TID, name.clone(), "path", at, at + length);
            e.args.extend(segment.args.iter().map(|(k, v)| (*k, v.clone())));
            e.args.insert("cycles", Arg::Int(length));
            events.push(e);
        }
        let place = Placed { pid, origin, at, ports: &tid_of };
        place.segment(p, segment.timeline, issued, events);
        at += length;
    }
}

/// Where one segment goes: its cycles from `origin` are drawn from cycle `at` of the process.
struct Placed<'f> {
    pid: u32,
    origin: u64,
    at: u64,
    ports: &'f dyn Fn(&str) -> u32,
}

impl Placed<'_> {
    /// The process cycle of timeline cycle `c` (never before the segment's start).
    fn cycle(&self, c: u64) -> u64 {
        self.at + c.saturating_sub(self.origin)
    }

    fn segment(&self, p: &Process<'_>, timeline: &Timeline, issued: &[Issued<'_>], events: &mut Vec<Event>) {
        let pid = self.pid;
        let mut waits_end = self.at;
        for (index, group) in timeline.groups.iter().enumerate() {
            let start = self.cycle(group.first_cycle);
            // The waits lead up to the group's issue, back to back; a wait longer than the gap
            // to the previous group's (or the segment's start) is clipped on screen (its args
            // keep the cycles).
            let total: u64 = group.waited.iter().map(|(_, c)| c).sum();
            let mut at = start.saturating_sub(total).max(waits_end);
            for (cause, cycles) in &group.waited {
                let to = (at + cycles).min(start).max(at);
                let mut e = span(p, pid, WAIT_TID, cause_name(cause), "wait", at, to);
                wait_args(&mut e.args, cause, *cycles, index);
                events.push(e);
                at = to;
            }
            waits_end = waits_end.max(at);
            let first = group.slots.first();
            let mut e = span(
                p,
                pid,
                GROUP_TID,
                first.map_or_else(|| format!("group {index}"), |s| s.text.clone()),
                "group",
                start,
                start + 1,
            );
            e.args.insert("group", Arg::Int(index as u64));
            e.args.insert("cycle", Arg::Int(group.first_cycle));
            e.args.insert("slots", Arg::Int(group.slots.len() as u64));
            e.args.insert("waited_cycles", Arg::Int(total));
            if let Some(s) = first {
                e.args.insert("pc", Arg::Text(format!("{:#x}", s.addr)));
                insert_place(&mut e.args, p.places.get(&s.addr));
            }
            events.push(e);
            for i in issued.iter().filter(|i| i.group == index) {
                let s = i.slot;
                let name = if s.text.is_empty() { format!("{:#x}.{}", s.addr, s.slot) } else { s.text.clone() };
                let issue = self.cycle(i.cycle);
                let mut e = span(p, pid, (self.ports)(&i.port), name, "insn", issue, issue + 1);
                e.args.insert("pc", Arg::Text(format!("{:#x}", s.addr)));
                e.args.insert("slot", Arg::Int(u64::from(s.slot)));
                e.args.insert("insn", Arg::Text(s.text.clone()));
                e.args.insert("port", Arg::Text(i.port.clone()));
                e.args.insert("group", Arg::Int(index as u64));
                e.args.insert("issue_cycle", Arg::Int(i.cycle));
                e.args.insert("nop", Arg::Bool(s.nop));
                if let (Some(done), Some(lat)) = (s.done, i.latency()) {
                    e.args.insert("ready_cycle", Arg::Int(done));
                    e.args.insert("latency", Arg::Int(lat));
                }
                insert_place(&mut e.args, p.places.get(&s.addr));
                events.push(e);
            }
        }
    }
}

fn insert_place(args: &mut BTreeMap<&'static str, Arg>, place: Option<&Place>) {
    let Some(place) = place else { return };
    for (key, value) in [("symbol", &place.symbol), ("source", &place.source), ("source_text", &place.source_text)] {
        if let Some(v) = value {
            args.insert(key, Arg::Text(v.clone()));
        }
    }
}

/// A wait's slice name: what it waited for, short.
fn cause_name(cause: &StallCause) -> String {
    match cause {
        StallCause::Produced(reg, _) | StallCause::Register(reg) => format!("wait {reg}"),
        StallCause::Unit(unit) => format!("port {unit} busy"),
        other => other.to_string(),
    }
}

fn wait_args(args: &mut BTreeMap<&'static str, Arg>, cause: &StallCause, cycles: u64, group: usize) {
    args.insert("cause", Arg::Text(cause.to_string()));
    args.insert("cycles", Arg::Int(cycles));
    args.insert("group", Arg::Int(group as u64));
    let resource = match cause {
        StallCause::Register(reg) => Some(reg.to_string()),
        StallCause::Produced(reg, producer) => {
            args.insert("producer_pc", Arg::Text(format!("{:#x}", producer.addr)));
            args.insert("producer_slot", Arg::Int(u64::from(producer.slot)));
            args.insert("producer_latency", Arg::Int(producer.latency));
            if !producer.text.is_empty() {
                args.insert("producer", Arg::Text(producer.text.clone()));
            }
            Some(reg.to_string())
        }
        StallCause::Unit(unit) => Some(format!("port {unit}")),
        _ => None,
    };
    if let Some(r) = resource {
        args.insert("resource", Arg::Text(r));
    }
}

#[cfg(test)]
mod tests;
