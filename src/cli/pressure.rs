//! `run --pressure` (issue 18): resource pressure per port and a latency column, in the manner
//! of llvm-mca's "Resource pressure" and "Instruction Info" views, from the run's timeline.
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

/// What one instruction did over the run.
#[derive(Default)]
struct Row {
    text: String,
    runs: u64,
    latency: Option<(u64, u64)>,
    ports: BTreeSet<String>,
}

/// The pressure and latency tables of a run of `cycles` cycles on `arch`.
pub fn render(arch: Arch, timeline: &Timeline, cycles: u64, places: &BTreeMap<u64, Place>) -> String {
    let names = port_names(arch);
    let issued = assign_ports(timeline, names);
    let mut busy: BTreeMap<String, u64> = match names {
        PortNames::Exclusive { order } => order.iter().map(|p| (p.to_string(), 0)).collect(),
        PortNames::Pooled => BTreeMap::new(),
    };
    let mut rows: BTreeMap<(u64, u8), Row> = BTreeMap::new();
    for i in &issued {
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
    let order: Vec<String> = match names {
        PortNames::Exclusive { order } => {
            let mut v: Vec<String> = order.iter().map(|p| p.to_string()).collect();
            v.extend(busy.keys().filter(|k| !order.contains(&k.as_str())).cloned());
            v
        }
        PortNames::Pooled => busy.keys().cloned().collect(),
    };
    let mut out = String::new();
    let _ = writeln!(
        out,
        "resource pressure per port ({cycles} cycles; a port is busy 1 cycle per instruction it accepts):"
    );
    let width = order.iter().map(String::len).max().unwrap_or(4).max(4);
    let _ = writeln!(out, "  {:<width$}  {:>8}  {:>7}", "port", "busy", "% run");
    for port in &order {
        let b = busy.get(port).copied().unwrap_or(0);
        let pct = if cycles == 0 { 0.0 } else { 100.0 * b as f64 / cycles as f64 };
        let _ = writeln!(out, "  {port:<width$}  {b:>8}  {pct:>6.1}%");
    }
    let _ =
        writeln!(out, "instructions (latency: cycles from issue to result, from the model; - when it writes none):");
    let _ = writeln!(
        out,
        "  {:<14}  {:>6}  {:>7}  {:<12}  {:<40}  where",
        "pc.slot", "runs", "latency", "ports", "instruction"
    );
    for ((addr, slot), row) in &rows {
        let lat = match row.latency {
            None => "-".to_string(),
            Some((lo, hi)) if lo == hi => lo.to_string(),
            Some((lo, hi)) => format!("{lo}-{hi}"),
        };
        let ports = row.ports.iter().cloned().collect::<Vec<_>>().join(",");
        let place = places.get(addr);
        let at = place
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
    out
}
