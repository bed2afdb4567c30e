//! `--pressure` (issue 18): resource pressure per port and a latency column, in the manner of
//! llvm-mca's "Resource pressure" and "Instruction Info" views, from the timelines a command
//! recorded: a `run`'s, the paths of a `scenario`'s chosen system call, and both sides of a
//! `diff` (each side's busy cycles and %, and the difference), all through one renderer.
//!
//! A port is busy one cycle per instruction it accepts (the models' ports are pipelined; an
//! x86 divide's occupancy beyond its issue shows as "port divider busy" waits, not here). The
//! latency is the cycles from issue to the result being ready, as the model recorded them:
//! on IA-64 (in order) that is the latency of the model's table; on x86-64 and s390x the
//! completion also includes any wait inside the out-of-order window or unit.

use super::core::Arch;
use super::trace_out::port_names;
use emu_core::timing::Timeline;
use emu_core::trace_event::{assign_ports, Place, PortNames};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

/// What one instruction did over the timelines.
#[derive(Default)]
struct Row {
    text: String,
    runs: u64,
    latency: Option<(u64, u64)>,
    ports: BTreeSet<String>,
}

/// The load on each port of one core over some timelines, and what each instruction did.
pub struct Pressure {
    names: PortNames,
    /// The cycles the timelines span (the % is of these).
    cycles: u64,
    busy: BTreeMap<String, u64>,
    rows: BTreeMap<(u64, u8), Row>,
}

impl Pressure {
    /// The pressure of `timelines` on `arch`'s ports over `cycles` cycles.
    pub fn of(arch: Arch, timelines: &[&Timeline], cycles: u64) -> Pressure {
        let names = port_names(arch);
        let mut busy: BTreeMap<String, u64> = match names {
            PortNames::Exclusive { order } => order.iter().map(|p| (p.to_string(), 0)).collect(),
            PortNames::Pooled => BTreeMap::new(),
        };
        let mut rows: BTreeMap<(u64, u8), Row> = BTreeMap::new();
        for timeline in timelines {
            for i in &assign_ports(timeline, names) {
                *busy.entry(i.port.clone()).or_insert(0) += 1;
                let row = rows.entry((i.slot.addr, i.slot.slot)).or_default();
                if row.text.is_empty() {
                    row.text.clone_from(&i.slot.text);
                }
                row.runs += 1;
                row.ports.insert(i.port.clone());
                if let Some(lat) = i.latency() {
                    row.latency = Some(row.latency.map_or((lat, lat), |(lo, hi)| (lo.min(lat), hi.max(lat))));
                }
            }
        }
        Pressure { names, cycles, busy, rows }
    }

    /// Busy cycles of `port` (0 for one it never used).
    pub fn busy(&self, port: &str) -> u64 {
        self.busy.get(port).copied().unwrap_or(0)
    }

    /// `busy` as a % of the cycles.
    fn percent(&self, port: &str) -> f64 {
        if self.cycles == 0 {
            0.0
        } else {
            100.0 * self.busy(port) as f64 / self.cycles as f64
        }
    }
}

/// The ports of `sides` in track order: IA-64's fixed list first, then any other name.
fn port_order(sides: &[&Pressure]) -> Vec<String> {
    let mut used: BTreeSet<String> = BTreeSet::new();
    for s in sides {
        used.extend(s.busy.keys().cloned());
    }
    match sides.first().map(|s| s.names) {
        Some(PortNames::Exclusive { order }) => {
            let mut v: Vec<String> = order.iter().map(|p| p.to_string()).collect();
            v.extend(used.into_iter().filter(|k| !order.contains(&k.as_str())));
            v
        }
        _ => used.into_iter().collect(),
    }
}

/// The pressure and latency tables of a run of `cycles` cycles on `arch` (`run --pressure`).
pub fn render(arch: Arch, timeline: &Timeline, cycles: u64, places: &BTreeMap<u64, Place>) -> String {
    let p = Pressure::of(arch, &[timeline], cycles);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "resource pressure per port ({cycles} cycles; a port is busy 1 cycle per instruction it accepts):"
    );
    ports_table(&mut out, &[("", &p)]);
    instructions(&mut out, &p, places);
    out
}

/// The tables of a scenario's chosen call: `what` says which paths over how many cycles.
pub fn render_call(what: &str, p: &Pressure, places: &BTreeMap<u64, Place>) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "resource pressure per port over {what} ({} cycles; a port is busy 1 cycle per instruction it accepts):",
        p.cycles
    );
    ports_table(&mut out, &[("", p)]);
    instructions(&mut out, p, places);
    out
}

/// A diff's table: each side's busy cycles and %, then B's minus A's; then each side's
/// instructions. `what` says which paths over which call.
pub fn render_diff(
    what: &str,
    a: (&str, &Pressure),
    b: (&str, &Pressure),
    places: [&BTreeMap<u64, Place>; 2],
) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "resource pressure per port over {what} (A {} cycles, B {} cycles; a port is busy 1 cycle per instruction it \
         accepts):",
        a.1.cycles, b.1.cycles
    );
    let _ = writeln!(out, "  A = {}\n  B = {}", a.0, b.0);
    ports_table(&mut out, &[("A ", a.1), ("B ", b.1)]);
    for ((label, p), places) in [("A", a.1), ("B", b.1)].into_iter().zip(places) {
        let _ = writeln!(out, "side {label}:");
        instructions(&mut out, p, places);
    }
    out
}

/// One row per port: each side's busy cycles and % of its cycles; with two sides, the
/// difference (B - A) in cycles and in % points.
fn ports_table(out: &mut String, sides: &[(&str, &Pressure)]) {
    let order = port_order(&sides.iter().map(|(_, p)| *p).collect::<Vec<_>>());
    let width = order.iter().map(String::len).max().unwrap_or(4).max(4);
    let mut head = format!("  {:<width$}", "port");
    for (label, _) in sides {
        let _ = write!(
            head,
            "  {:>8}  {:>7}",
            format!("{label}busy"),
            if label.is_empty() { "% run".to_string() } else { format!("{label}%") }
        );
    }
    if sides.len() == 2 {
        let _ = write!(head, "  {:>8}  {:>8}", "B-A busy", "B-A %pt");
    }
    let _ = writeln!(out, "{head}");
    for port in &order {
        let mut line = format!("  {port:<width$}");
        for (_, p) in sides {
            let _ = write!(line, "  {:>8}  {:>6.1}%", p.busy(port), p.percent(port));
        }
        if let [(_, a), (_, b)] = sides {
            let delta = b.busy(port) as i128 - a.busy(port) as i128;
            // Rounded first, so that no -0.0 shows.
            let points = ((b.percent(port) - a.percent(port)) * 10.0).round() / 10.0 + 0.0;
            let _ = write!(line, "  {delta:>+8}  {points:>+7.1}%");
        }
        let _ = writeln!(out, "{line}");
    }
}

/// Each instruction's runs, latency, ports and place.
fn instructions(out: &mut String, p: &Pressure, places: &BTreeMap<u64, Place>) {
    let _ =
        writeln!(out, "instructions (latency: cycles from issue to result, from the model; - when it writes none):");
    let _ = writeln!(
        out,
        "  {:<14}  {:>6}  {:>7}  {:<12}  {:<40}  where",
        "pc.slot", "runs", "latency", "ports", "instruction"
    );
    for ((addr, slot), row) in &p.rows {
        let lat = match row.latency {
            None => "-".to_string(),
            Some((lo, hi)) if lo == hi => lo.to_string(),
            Some((lo, hi)) => format!("{lo}-{hi}"),
        };
        let ports = row.ports.iter().cloned().collect::<Vec<_>>().join(",");
        let at = places
            .get(addr)
            .map(|p| {
                let mut s = p.symbol.clone().unwrap_or_default();
                if let Some(src) = &p.source {
                    let sep = if s.is_empty() { "" } else { " " };
                    let _ = write!(s, "{sep}{src}");
                }
                s
            })
            .unwrap_or_default();
        let pc = format!("{addr:#x}.{slot}");
        let _ = writeln!(out, "  {pc:<14}  {:>6}  {lat:>7}  {ports:<12}  {:<40}  {at}", row.runs, row.text.trim());
    }
}
