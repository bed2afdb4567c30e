//! One call of a trace's helper with a harness value set ([`Knob`]): the points of
//! `acctemu sweep --param cpus | missed-periods`.

use super::x86::load_with_harness;
use super::{setup_error, BindError};
use crate::trace::{Arch, Knob, Trace};
use arch_x86::run::{prepare, RunConfig};
use emu_core::cpu::{Cpu, StopReason, StopWhen};
use emu_core::harness::Harness;

/// The most instructions one call may run.
const CALL_BUDGET: u64 = 10_000_000;

/// The harness's rq (sched-avg.toml): age_stamp 1 s, sysctl_sched_time_avg 1000 ms, so a
/// period is 500 ms.
const AGE_STAMP_NS: u64 = 1_000_000_000;
const PERIOD_NS: u64 = 500_000_000;

/// The harness text of one point and, for [`Knob::MissedPeriods`], the rq.clock to set.
fn harness_for(trace: &Trace, knob: Knob, value: u64) -> Result<(String, Option<u64>), BindError> {
    match knob {
        Knob::Cpus => {
            let this = if value > 2 { 2 } else { 1 };
            let text = crate::timer_target::harness(value, this)
                .ok_or_else(|| BindError::Point(format!("--param cpus: {value} is outside 2..=256 CPUs")))?;
            Ok((text, None))
        }
        Knob::MissedPeriods => {
            // The clock lands 0.4 period into the last one, as in the committed harness.
            let overflow =
                || BindError::Point(format!("--param missed-periods: {value} periods overflow the 64-bit clock"));
            let clock = value
                .checked_mul(PERIOD_NS)
                .and_then(|c| c.checked_add(AGE_STAMP_NS))
                .and_then(|c| c.checked_add(PERIOD_NS * 2 / 5))
                .ok_or_else(overflow)?;
            Ok((trace.harness.to_string(), Some(clock)))
        }
    }
}

impl Trace {
    /// One call of this trace's helper with its [`Knob`] at `value`: (cycles, instructions).
    ///
    /// # Errors
    /// A trace without that knob or an object, a value outside the knob's range, a harness or
    /// object that does not load, a call that does not return.
    pub fn call_point(&self, knob: Knob, value: u64) -> Result<(u64, u64), BindError> {
        if self.knob != Some(knob) || self.arch != Arch::X86_64 {
            return Err(BindError::Point(format!("--param {} does not apply to {}", knob.name(), self.name)));
        }
        let (text, clock) = harness_for(self, knob, value)?;
        let harness = Harness::parse(self.harness_name, &text).map_err(BindError::Setup)?;
        // Load with this point's harness: its regions are the C's externs.
        let bytes = self.object.ok_or_else(|| BindError::Point(format!("{} has no object", self.name)))?;
        let image = load_with_harness(self.harness_name, &text, bytes)?;
        let cfg = RunConfig { harness: Some(harness), ..RunConfig::default() };
        let (mut machine, _) = prepare(&image, &cfg).map_err(|e| setup_error(self, e.to_string()))?;
        if let Some(clock) = clock {
            // rdi holds rq (the harness's argument); rq.clock is its first field.
            let rq = machine.cpu.state.reg(7);
            machine.mem.write_u64(rq, clock).map_err(|e| BindError::Point(format!("rq.clock: {e}")))?;
        }
        let stop = StopWhen { on_sentinel: true, on_rfi: true, on_interruption: true, max_insns: CALL_BUDGET };
        let reason = machine.run(&stop).map_err(|e| BindError::Point(format!("{} at {value}: {e}", self.name)))?;
        if !matches!(reason, StopReason::Sentinel) {
            return Err(BindError::Point(format!("{} at {value}: stopped with {reason}", self.name)));
        }
        Ok((machine.cpu.cycles(), machine.cpu.instructions()))
    }
}
