//! The accounting scenario on a real tree: the workload run on the kernel harness
//! ([`crate::kernel`]) with the accounting C bound as stubs, the true mode of every cycle
//! (psr.cpl after each instruction) summed beside it, and the verdict.

use emu_core::cpu::Cpu;
use emu_core::stub::StubSpec;

use super::irq_c::CTiming;
use super::stubs::{KernelState, Peer, ScheduleStub, Shared, TickStub};
use super::truth::{compare, AccountingTruth, AccountingVerdict, Mode};
use super::workload::{Switches, Workload};
use super::{AccountingLog, KernelCConfig, TaskLayout};
use crate::kernel::harness::{Call, KernelHarness};

/// What to run.
#[derive(Debug, Clone)]
pub struct ScenarioOptions {
    /// The workload (its tick period is the interval timer's).
    pub workload: Workload,
    /// Costs of the C steps.
    pub timing: CTiming,
    /// The task switched to.
    pub peer: Peer,
    /// How long to run: until the return to user mode after this many ticks.
    pub ticks: u64,
    /// The most instructions the run may take.
    pub budget: u64,
}

/// The result of one version.
#[derive(Debug, Clone)]
pub struct AccountingRun {
    /// The truth.
    pub truth: AccountingTruth,
    /// What the kernel reported.
    pub log: AccountingLog,
    /// The check.
    pub verdict: AccountingVerdict,
    /// The thread_info accounting fields at the end, by name.
    pub thread_info: Vec<(&'static str, Option<u64>)>,
    /// Kernel entries (user → kernel transitions) seen.
    pub entries: u64,
    /// Ticks the C saw.
    pub ticks: u64,
    /// Where the assembly's stamps sit against the true transitions.
    pub stamps: StampEdges,
    /// Instructions executed.
    pub instructions: u64,
    /// ITC cycles of the run.
    pub cycles: u64,
}

/// Kernel cycles the assembly's stamps leave on the user side of the ledger.
///
/// The entry paths charge `ac_utime` from the last stamp written before the return to user
/// mode (`ac_leave` in V.2, `ac_stamp` in V.1) to the first stamp of the next entry. Kernel
/// cycles before the first stamp of a trip (the entry's head) and after its last (the exit's
/// tail) are therefore summed as user time, and so is a whole trip that writes no stamp (a
/// light-weight fsys call). The stamps are seen as the values the two fields take after each
/// instruction.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct StampEdges {
    /// Round trips to the kernel (user → kernel → user).
    pub trips: u64,
    /// Cycles from the cpl 3 → 0 transition to the trip's first stamp, summed.
    pub head_cycles: u64,
    /// Cycles from the trip's last stamp to the return to cpl 3, summed.
    pub tail_cycles: u64,
    /// Trips that wrote no stamp.
    pub unstamped_trips: u64,
    /// Their kernel cycles.
    pub unstamped_cycles: u64,
}

impl StampEdges {
    /// Every kernel cycle on the user side.
    pub fn total(&self) -> u64 {
        self.head_cycles + self.tail_cycles + self.unstamped_cycles
    }
}

/// The calls of `workload` with the tree's numbers.
///
/// # Errors
/// A call of the workload whose number the tree does not give, or gives differently.
pub fn calls(h: &KernelHarness, workload: &Workload) -> Result<Vec<Call>, String> {
    let nr = h.objects.constants.nr;
    workload
        .calls
        .iter()
        .map(|c| {
            let tree_nr = match c.name {
                "dup" => nr.dup,
                "close" => nr.close,
                "getpid" => nr.getpid,
                "getuid" => nr.getuid,
                "umask" => nr.umask,
                other => return Err(format!("the harness has no number for {other}")),
            };
            if tree_nr != c.nr {
                return Err(format!("{}: the tree says {tree_nr}, the workload {}", c.name, c.nr));
            }
            let by_break = workload.entry(c) == super::workload::Entry::Break;
            Ok(Call { nr: tree_nr, args: c.args.to_vec(), by_break })
        })
        .collect()
}

/// Runs `opts.workload` on `h` with the accounting C of `config` over `layout`.
///
/// # Errors
/// The harness does not boot or the run stops (the message says where).
pub fn run(
    h: &KernelHarness,
    config: KernelCConfig,
    layout: TaskLayout,
    opts: &ScenarioOptions,
) -> Result<AccountingRun, String> {
    let w = &opts.workload;
    let switch_every = match w.switches {
        Switches::Never => None,
        Switches::EveryTicks(n) => Some(n),
    };
    let state: Shared =
        KernelState::new(config.clone(), layout.clone(), opts.timing, 0, opts.peer, switch_every).map_err(|e| e.0)?;
    let mut stubs: Vec<Box<dyn emu_core::stub::Stub>> = vec![
        Box::new(TickStub::new(state.clone(), None).binding("timer_interrupt", 1)),
        Box::new(ScheduleStub::new(state.clone())),
    ];
    // The handlers return what the workload says (at no cost: their bodies are not modelled).
    for c in &w.calls {
        if !stubs.iter().any(|s| s.name() == c.handler) {
            let returns = w.value(c);
            stubs.push(Box::new(StubSpec { name: c.handler.to_string(), returns, ..StubSpec::default() }));
        }
    }
    let program = calls(h, w)?;
    let mut km = h.boot(&program, Some(w.tick_cycles), stubs).map_err(|e| e.to_string())?;
    let task = km.layout.task;
    {
        let mut st = state.borrow_mut();
        st.current = task;
        st.pt_regs = Some(km.layout.pt_regs);
    }
    let start = km.machine.cpu.itc();
    // The task was switched in and returned to user mode just now: its stamps are now
    // (arch_vtime_task_switch and the leave path, time.c:115 and entry.S's ac_leave store).
    for field in ["ac_stamp", "ac_leave"] {
        if let Ok(a) = layout.ti_addr(task, field) {
            km.machine.mem.write_u64(a, start).map_err(|e| format!("{field}: {e}"))?;
        }
    }
    let mode = |cpl: u8| if cpl == 0 { Mode::Kernel } else { Mode::User };
    let mut cpl = km.machine.cpu.state.psr.cpl();
    let mut truth = AccountingTruth::new(start, mode(cpl));
    let (mut entries, mut executed) = (0u64, 0u64);
    let stamp_fields: Vec<u64> = ["ac_stamp", "ac_leave"].iter().filter_map(|f| layout.ti_addr(task, f).ok()).collect();
    let read_stamps = |km: &crate::kernel::setup::KernelMachine| -> Vec<u64> {
        stamp_fields.iter().map(|a| km.machine.mem.read_u64(*a).unwrap_or(0)).collect()
    };
    let mut stamps = read_stamps(&km);
    let mut edges = StampEdges::default();
    // This trip's entry time, first and last stamp.
    let mut trip: Option<(u64, Option<u64>, Option<u64>)> = None;
    loop {
        if cpl != 0 && state.borrow().ticks >= opts.ticks {
            break;
        }
        if executed >= opts.budget {
            let pc = km.machine.cpu.pc();
            return Err(format!(
                "{executed} instructions without {} ticks; stopped at {}",
                opts.ticks,
                crate::kernel::paths::describe(&km, pc)
            ));
        }
        let pc = km.machine.cpu.pc();
        km.machine
            .cpu
            .step(&mut km.machine.mem)
            .map_err(|e| format!("{e} at {}", crate::kernel::paths::describe(&km, pc)))?;
        executed += 1;
        let now_stamps = read_stamps(&km);
        if now_stamps != stamps {
            for (new, old) in now_stamps.iter().zip(&stamps) {
                if new != old {
                    if let Some((_, first, last)) = trip.as_mut() {
                        first.get_or_insert(*new);
                        *last = Some(*new);
                    }
                }
            }
            stamps = now_stamps;
        }
        let c = km.machine.cpu.state.psr.cpl();
        if c != cpl {
            let at = km.machine.cpu.itc();
            if c == 0 {
                entries += 1;
                trip = Some((at, None, None));
            } else if let Some((e, first, last)) = trip.take() {
                edges.trips += 1;
                match (first, last) {
                    (Some(f), Some(l)) => {
                        edges.head_cycles += f.saturating_sub(e);
                        edges.tail_cycles += at.saturating_sub(l);
                    }
                    _ => {
                        edges.unstamped_trips += 1;
                        edges.unstamped_cycles += at - e;
                    }
                }
            }
            truth.transition(at, mode(c))?;
            cpl = c;
        }
    }
    let finish = km.machine.cpu.itc();
    truth.finish(finish)?;
    let st = state.borrow();
    let mem = &km.machine.mem;
    let thread_info = st.thread_info(task, |a| mem.read_u64(a).ok());
    let mut verdict = compare(&truth, &st.log, task, &thread_info, &config);
    if edges.trips > edges.unstamped_trips {
        let per = |c: u64| c as f64 / edges.trips.max(1) as f64;
        verdict.reasons.push(format!(
            "the assembly's own split is off as well: of {} round trips, {:.1} kernel cycles per trip come before the \
             entry's first ITC stamp and {:.1} after the exit's last, and {} trips ({} cycles) stamp nothing \
             (light-weight fsys): {} ns of kernel time on the user side, had the C read ac_utime",
            edges.trips,
            per(edges.head_cycles),
            per(edges.tail_cycles),
            edges.unstamped_trips,
            edges.unstamped_cycles,
            super::truth::cycles_to_ns(edges.total(), config.itc_freq)
        ));
    }
    Ok(AccountingRun {
        truth,
        log: st.log.clone(),
        verdict,
        thread_info,
        entries,
        ticks: st.ticks,
        stamps: edges,
        instructions: executed,
        cycles: finish - start,
    })
}
