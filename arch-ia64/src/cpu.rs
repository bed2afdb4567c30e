//! The IA-64 processor: architectural state, predecoded code, and optionally the Itanium 2
//! timing model, stepping one instruction slot at a time.

// The block engine's runner (issue 17, w7-iblock).
mod blocks;

use crate::code::Code;
use crate::exec::interrupt::{deliver, Interruption};
use crate::exec::op::{BrKind, Op};
use crate::exec::predecode::{predecode, SlotRec};
use crate::exec::{execute, Ctx, ExecError, ExecResult, Flow, Trap};
use crate::state::psr::Psr;
use crate::state::{cr, State};
use crate::timing::{Event, Itanium2, Itanium2Params};
use emu_core::cpu::{Cpu, Ran, RanEnd, RunError, StepEvent, StopWhen};
use emu_core::memory::Memory;
use emu_core::snapshot::Snapshot;
use emu_core::timing::{Timeline, TimingSummary};

/// How a CPU is set up besides its state.
#[derive(Debug, Clone)]
pub struct CpuConfig {
    /// ar.itc ticks per modelled cycle (1 on Itanium 2: reference section 3).
    pub itc_per_cycle: u64,
    /// The address whose reach ends a path (b0 of the harness).
    pub sentinel: u64,
    /// Addresses from which `epc` promotes to cpl 0 (the gate page), end exclusive.
    pub gate: (u64, u64),
    /// The timing model, or `None` for a functional run (one cycle per instruction group).
    pub timing: Option<Itanium2Params>,
    /// Record the per-group timeline (costs memory; off for long runs).
    pub timeline: bool,
}

impl Default for CpuConfig {
    fn default() -> Self {
        CpuConfig {
            itc_per_cycle: 1,
            sentinel: 0,
            gate: (0, 0),
            timing: Some(Itanium2Params::default()),
            timeline: false,
        }
    }
}

/// An IA-64 CPU with its code.
#[derive(Debug, Clone)]
pub struct Ia64Cpu {
    /// Architectural state.
    pub state: State,
    code: Code,
    timing: Option<Itanium2>,
    config: CpuConfig,
    instructions: u64,
    nops: u64,
    /// Cycle clock of a functional run: one per instruction group.
    untimed_cycles: u64,
    untimed_groups: u64,
    profile: Option<Profile>,
    /// Stubs bound to undefined symbols (issue 14, i14-link).
    stubs: Option<crate::stub_call::SharedStubs>,
    /// The block engine's blocks (issue 17), built as execution reaches them.
    blocks: crate::block::Blocks,
    /// Which executor runs instruction semantics (issue 17).
    engine: crate::block::Engine,
    /// The last [`Ia64Cpu::set_entry`] address, bundle | slot (issue 16).
    entry: u64,
}

/// Where the cycles went, by instruction group: each instruction is charged the cycles
/// between the issue of the instruction before it and its own issue (so a stall is charged
/// to the instruction that waited), and the charge goes to the group it belongs to, keyed by
/// the address (bundle | slot) of the group's first instruction. Costs O(1) per instruction;
/// off unless asked for.
#[derive(Debug, Clone, Default)]
pub struct Profile {
    /// Cycles and executions by group start.
    pub groups: std::collections::BTreeMap<u64, GroupCost>,
    group_start: Option<u64>,
    last_cycle: Option<u64>,
}

impl Profile {
    /// Charges the instruction at (`ip`, `slot`) that issued at `cycle`.
    fn charge(&mut self, ip: u64, slot: u8, cycle: u64, ends_group: bool) {
        let start = *self.group_start.get_or_insert(ip | u64::from(slot));
        let cost = cycle.saturating_sub(self.last_cycle.unwrap_or(cycle));
        let g = self.groups.entry(start).or_default();
        if start == ip | u64::from(slot) {
            g.runs += 1;
        }
        g.cycles += cost;
        g.instructions += 1;
        self.last_cycle = Some(cycle);
        if ends_group {
            self.group_start = None;
        }
    }
}

/// The accumulated cost of one instruction group.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct GroupCost {
    /// Cycles charged to the group.
    pub cycles: u64,
    /// Times the group started.
    pub runs: u64,
    /// Instructions executed in it.
    pub instructions: u64,
}

impl Ia64Cpu {
    /// A CPU in reset state with no code.
    pub fn new(config: CpuConfig) -> Ia64Cpu {
        let timing = config.timing.clone().map(|p| Itanium2::new(p, config.timeline));
        Ia64Cpu {
            state: State::new(),
            code: Code::default(),
            timing,
            config,
            instructions: 0,
            nops: 0,
            untimed_cycles: 0,
            untimed_groups: 0,
            profile: None,
            stubs: None,
            blocks: crate::block::Blocks::default(),
            engine: crate::block::Engine::default(),
            entry: 0,
        }
    }

    /// Predecodes `bytes` loaded at `base` as code (decode once; self-modifying code is not
    /// modelled).
    pub fn add_code(&mut self, base: u64, bytes: &[u8]) {
        self.code.add(predecode(base, bytes), self.timing.as_ref());
        self.blocks.clear();
    }

    /// Sets the address of the next instruction (slot 0). Execution moving there is not a
    /// branch: the open issue group simply ends.
    pub fn set_entry(&mut self, addr: u64) {
        self.entry = addr;
        if let Some(t) = &mut self.timing {
            t.redirect();
        }
        self.state.ip = addr & !0xF;
        self.state.psr = self.state.psr.with_ri((addr & 0xF).min(2) as u8);
    }

    /// Starts or stops recording the per-group timeline (no-op without the timing model).
    pub fn record_timeline(&mut self, on: bool) {
        if let Some(t) = &mut self.timing {
            t.set_timeline(on);
        }
    }

    /// Starts (or restarts) collecting the per-group [`Profile`].
    pub fn enable_profile(&mut self) {
        self.profile = Some(Profile::default());
    }

    /// The per-group profile, when enabled.
    pub fn profile(&self) -> Option<&Profile> {
        self.profile.as_ref()
    }

    /// Selects the executor (issue 17): the fast engine (default) or the reference
    /// interpreter, which the fast one must match exactly.
    pub fn set_engine(&mut self, engine: crate::block::Engine) {
        self.engine = engine;
    }

    /// The executor in use.
    pub fn engine(&self) -> crate::block::Engine {
        self.engine
    }

    /// Changes the address whose reach ends a path (scenarios end each path at a label).
    pub fn set_sentinel(&mut self, addr: u64) {
        self.config.sentinel = addr;
    }

    /// Delivers an external interrupt now, as the hardware does when one is pending and
    /// PSR.i allows it (SDM vol. 2 section 5.8; reference section 2): the interrupted context
    /// (IP, PSR with its slot) goes to cr.iip/cr.ipsr when PSR.ic is set, and execution
    /// continues at cr.iva + 0x3000. Scenarios use it for timer ticks.
    ///
    /// # Errors
    /// No interruption vector table (cr.iva is zero).
    pub fn external_interrupt(&mut self) -> Result<(), ExecError> {
        let ip = self.state.ip;
        let slot = self.state.psr.ri();
        let int = Interruption {
            vector: crate::exec::interrupt::vector::EXTERNAL,
            code: 0,
            iim: None,
            what: "external interrupt".to_string(),
            trap: true,
            data: None,
            non_access: false,
            translation: None,
        };
        if self.state.cr[cr::IVA as usize] == 0 {
            return Err(ExecError::Unhandled { pc: ip, slot, vector: int.vector, what: int.what });
        }
        if let Some(t) = &mut self.timing {
            t.event(Event::Interruption);
        }
        // An external interrupt is taken between instructions: IIP/ri name the next one.
        let handler = deliver(&mut self.state, &int, ip, slot, (ip, slot));
        self.state.ip = handler;
        self.state.psr = self.state.psr.with_ri(0);
        self.state.gr.set_bank(self.state.psr.bank());
        Ok(())
    }

    /// The configuration.
    pub fn config(&self) -> &CpuConfig {
        &self.config
    }

    /// The timing summary (cycles, instructions, nops, groups, stalls).
    pub fn summary(&self) -> TimingSummary {
        let mut s = match &self.timing {
            Some(t) => t.summary(),
            None => TimingSummary {
                cycles: self.untimed_cycles,
                instructions: self.instructions,
                nops: self.nops,
                groups: self.untimed_groups,
                stalls: Default::default(),
            },
        };
        // Stubs' stated costs, by stub (issue 14, i14-link).
        if let Some(t) = &self.stubs {
            for (name, cycles) in t.borrow().cycles_charged() {
                s.add_stall(&emu_core::timing::StallCause::Stub(name), cycles);
            }
        }
        s
    }

    /// Cycles, instructions, nops and groups so far (cheap: no stall table).
    pub fn counts(&self) -> crate::timing::Counts {
        match &self.timing {
            Some(t) => t.counts(),
            None => crate::timing::Counts {
                cycles: self.untimed_cycles,
                instructions: self.instructions,
                nops: self.nops,
                groups: self.untimed_groups,
            },
        }
    }

    /// The per-group timeline, when it was requested.
    pub fn timeline(&self) -> Option<&Timeline> {
        self.timing.as_ref().and_then(|t| t.timeline())
    }

    /// The timing model's parameter table with sources (`--explain-model`).
    pub fn explain_model(&self) -> String {
        self.config.timing.clone().unwrap_or_default().explain_model()
    }

    /// Advances the clock by `cycles` of modelled work outside instructions (scenarios).
    pub fn advance(&mut self, cycles: u64) {
        // Work outside instructions is no instruction group's cost.
        if let Some(p) = &mut self.profile {
            p.last_cycle = None;
            p.group_start = None;
        }
        match &mut self.timing {
            Some(t) => t.advance(cycles),
            None => self.untimed_cycles += cycles,
        }
    }

    /// The current value of ar.itc.
    pub fn itc(&self) -> u64 {
        self.cycles().wrapping_mul(self.config.itc_per_cycle).wrapping_add(self.state.itc_offset)
    }

    // stubs (issue 14, i14-link)
    /// Installs the stubs a run calls (see [`crate::stub_call`]).
    pub fn set_stubs(&mut self, table: crate::stub_call::StubTable) {
        self.stubs = Some(std::rc::Rc::new(std::cell::RefCell::new(table)));
        self.blocks.clear();
    }

    /// The installed stubs, to read back what they recorded.
    pub fn stubs(&self) -> Option<&crate::stub_call::SharedStubs> {
        self.stubs.as_ref()
    }

    /// Runs the stub at `ip` and returns to b0 (see [`crate::stub_call`]).
    fn call_stub(&mut self, mem: &mut Memory, ip: u64) -> Result<StepEvent, ExecError> {
        let Some(table) = self.stubs.clone() else { return Err(ExecError::NoCode { pc: ip, slot: 0 }) };
        let now = self.itc();
        let mut table = table.borrow_mut();
        let ret = table.call(ip, &self.state, mem, now)?;
        let name = table.name_at(ip);
        drop(table);
        let target = crate::stub_call::return_from_stub(&mut self.state, mem, ret.value, ip, &name)?;
        if let Some(p) = &mut self.profile {
            let g = p.groups.entry(ip).or_default();
            g.cycles += ret.cycles;
            g.runs += 1;
        }
        match &mut self.timing {
            Some(t) => {
                t.redirect();
                t.advance(ret.cycles);
            }
            None => self.untimed_cycles += ret.cycles,
        }
        if let Some(p) = &mut self.profile {
            p.last_cycle = None;
            p.group_start = None;
        }
        self.state.ip = target;
        self.state.psr = self.state.psr.with_ri(0);
        self.state.gr.set_bank(self.state.psr.bank());
        Ok(if target == self.config.sentinel { StepEvent::Sentinel } else { StepEvent::Continue })
    }
}

impl Cpu for Ia64Cpu {
    type Error = ExecError;

    fn step(&mut self, mem: &mut Memory) -> Result<StepEvent, ExecError> {
        if self.engine == crate::block::Engine::Fast {
            if let Some(done) = self.step_fast(mem) {
                return done;
            }
        }
        self.step_reference(mem)
    }

    fn pc(&self) -> u64 {
        self.state.ip | u64::from(self.state.psr.ri())
    }

    fn cycles(&self) -> u64 {
        match &self.timing {
            Some(t) => t.now(),
            None => self.untimed_cycles,
        }
    }

    fn instructions(&self) -> u64 {
        self.instructions
    }

    fn snapshot(&self, _mem: &Memory) -> Snapshot {
        crate::snapshot::capture(&self.state, self.itc())
    }

    // The runner's view (issue 16): the inherent methods, through the trait.
    fn summary(&self) -> TimingSummary {
        Ia64Cpu::summary(self)
    }

    fn add_code(&mut self, addr: u64, bytes: &[u8]) {
        Ia64Cpu::add_code(self, addr, bytes);
    }

    fn set_entry(&mut self, addr: u64) {
        Ia64Cpu::set_entry(self, addr);
    }

    fn advance(&mut self, cycles: u64) {
        Ia64Cpu::advance(self, cycles);
    }

    fn counts(&self) -> emu_core::cpu::Counts {
        let c = Ia64Cpu::counts(self);
        emu_core::cpu::Counts { cycles: c.cycles, instructions: c.instructions, nops: c.nops, groups: c.groups }
    }

    fn entry(&self) -> u64 {
        self.entry
    }

    /// The fast engine's loop (issue 17): every slot in this one call, the end label and the
    /// stopping events checked here, with no per-slot call through the trait.
    fn run_until(
        &mut self,
        mem: &mut Memory,
        stop: &StopWhen,
        until_pc: Option<u64>,
    ) -> Result<Ran, RunError<ExecError>> {
        let mut executed = 0u64;
        // The next block when the last one's exit knew it (issue 17, w7-iblock).
        let mut hint = u32::MAX;
        while executed < stop.max_insns {
            if self.engine == crate::block::Engine::Fast && self.blocks_apply() {
                match self.run_block(mem, stop, until_pc, &mut executed, &mut hint) {
                    blocks::BlockRun::Continue => continue,
                    blocks::BlockRun::End(end) => return Ok(Ran { executed, end }),
                    blocks::BlockRun::Error(e) => return Err(e),
                    blocks::BlockRun::PerSlot => {}
                }
            }
            let before = self.pc();
            let stepped = match self.engine {
                crate::block::Engine::Fast => match self.step_fast(mem) {
                    Some(done) => done,
                    None => self.step_reference(mem),
                },
                crate::block::Engine::Reference => self.step_reference(mem),
            };
            let event = stepped.map_err(|error| RunError { error, executed })?;
            executed += 1;
            if event != StepEvent::Continue || until_pc.is_some() {
                if let Some(end) = Ran::after_step(event, before, self.pc(), stop, until_pc) {
                    return Ok(Ran { executed, end });
                }
            }
        }
        Ok(Ran { executed, end: RanEnd::Budget })
    }
}

impl Ia64Cpu {
    /// The fast engine's step (issue 17) in the common situation: no interrupt pending, no
    /// profile, no translation (so no RSE reference checks and no moved branch targets), no
    /// stub entry here. A slot with a specialised handler runs it; a handler that declines,
    /// and every other slot, runs the reference executor. `None` (nothing done yet) sends the
    /// slot to [`Ia64Cpu::step_reference`].
    #[inline(always)]
    fn step_fast(&mut self, mem: &mut Memory) -> Option<Result<StepEvent, ExecError>> {
        if !self.state.interrupts.idle() || self.profile.is_some() || self.state.tlb.enabled {
            return None;
        }
        let ip = self.state.ip;
        let slot = self.state.psr.ri();
        if slot == 0 && self.stubs.as_ref().is_some_and(|t| t.borrow().is_entry(ip)) {
            return None;
        }
        let bundle = self.code.find(ip)?;
        let flow_info = bundle.flow;
        let here = bundle.slots.get(usize::from(slot))?;
        let SlotRec::Insn(e) = &here.rec else { return None };
        // The loop branches test their predicate themselves (as in the reference step).
        let executes = matches!(e.op, Op::Branch { kind: BrKind::Wtop | BrKind::Wexit, .. }) || self.state.p(e.qp);
        let cycle = match &mut self.timing {
            Some(t) => {
                let gr = &self.state.gr;
                t.issue_prepared(&here.timing, ip, slot, executes, |n| gr.res(n))
            }
            None => self.untimed_cycles,
        };
        // A nop does nothing whatever its predicate.
        let mut raised = None;
        let flow = if e.nop {
            Ok(Flow::Next)
        } else if let (true, crate::block::Fast::Break { imm }) = (executes, here.fast) {
            // No allocation per system call (w6-block2): the fault is raised below, unboxed.
            raised = Some(imm);
            Ok(Flow::Branch(0))
        } else if executes {
            match crate::block::run(here.fast, &mut self.state, mem) {
                Some(flow) => Ok(flow),
                None => {
                    let ctx = Ctx {
                        ip,
                        slot,
                        itc: cycle.wrapping_mul(self.config.itc_per_cycle).wrapping_add(self.state.itc_offset),
                        gate: self.config.gate,
                    };
                    execute(&mut self.state, mem, e, &ctx)
                }
            }
        } else {
            crate::exec::nullified(&mut self.state, e);
            Ok(Flow::Next)
        };
        // Held-group ITC (issue 15), as in the reference step.
        if let Some(t) = &mut self.timing {
            if let (Some(clock), true, Ok(_)) = (here.clock, executes, &flow) {
                t.note_clock_use(clock);
            }
            let (state, per_cycle) = (&mut self.state, self.config.itc_per_cycle);
            t.settle_clock_uses(|clock, held| crate::code::hold_clock_use(state, clock, held.wrapping_mul(per_cycle)));
        }
        self.instructions += 1;
        self.nops += u64::from(e.nop);
        let ends_group = flow_info.stop_after(slot) || !matches!(flow, Ok(Flow::Next));
        let next = if slot < flow_info.last_slot { (ip, slot + 1) } else { (ip.wrapping_add(16), 0) };
        if self.timing.is_none() && ends_group {
            self.untimed_cycles += 1;
            self.untimed_groups += 1;
        }
        if let Some(imm) = raised {
            let int = Interruption::break_instruction(imm);
            let event = self.interrupt(&int, ip, slot, next);
            if event.is_ok() {
                self.state.gr.set_bank(self.state.psr.bank());
            }
            return Some(event);
        }
        // Untranslated: the code was found at its virtual address, so no branch target moves.
        Some(self.conclude(flow, (ip, slot), next, ip, false))
    }

    /// Moves execution on after the slot at `at` ran with `flow` (`next` is its fall-through
    /// slot, `fetch` the address its code was found at, `indirect` whether it is an indirect
    /// branch), delivering an interruption it raised; then selects the GR16-31 bank PSR.bn
    /// names (bsw, rfi and interruptions change it).
    #[inline(always)]
    fn conclude(
        &mut self,
        flow: ExecResult,
        at: (u64, u8),
        next: (u64, u8),
        fetch: u64,
        indirect: bool,
    ) -> Result<StepEvent, ExecError> {
        let (ip, slot) = at;
        let event = match flow {
            Ok(Flow::Next) => {
                self.state.ip = next.0;
                self.state.psr = self.state.psr.with_ri(next.1);
                StepEvent::Continue
            }
            Ok(Flow::Branch(target)) => {
                // IP-relative targets were resolved at predecode from the physical address the
                // code was loaded at: move them to the virtual page being executed.
                let target =
                    if fetch != ip && !indirect { target.wrapping_sub(fetch).wrapping_add(ip) } else { target };
                if let Some(t) = &mut self.timing {
                    t.taken_branch();
                }
                self.state.ip = target & !0xF;
                self.state.psr = self.state.psr.with_ri(0);
                if target == self.config.sentinel {
                    StepEvent::Sentinel
                } else {
                    StepEvent::Continue
                }
            }
            Ok(Flow::Rfi(target, ri)) => {
                if let Some(t) = &mut self.timing {
                    t.event(Event::Rfi);
                }
                self.state.ip = target;
                self.state.psr = self.state.psr.with_ri(ri);
                StepEvent::Rfi
            }
            Err(Trap::Guest(int)) => self.interrupt(&int, ip, slot, next)?,
            Err(Trap::Error(err)) => return Err(*err),
        };
        self.state.gr.set_bank(self.state.psr.bank());
        Ok(event)
    }

    /// The reference step: every slot, every situation (the fast engine's oracle).
    fn step_reference(&mut self, mem: &mut Memory) -> Result<StepEvent, ExecError> {
        // Interval timer and external interrupts (kernel harness, issue 14): taken between
        // instructions, before the next one issues.
        if !self.state.interrupts.idle() {
            let itc = self.itc();
            let st = &mut self.state;
            st.interrupts.tick(itc, &st.cr);
            if st.psr.contains(Psr::I) && st.interrupts.deliverable(&st.cr).is_some() {
                self.external_interrupt()?;
                return Ok(StepEvent::Interruption {
                    vector: u64::from(crate::exec::interrupt::vector::EXTERNAL),
                    name: "external interrupt",
                });
            }
        }
        let ip = self.state.ip;
        let slot = self.state.psr.ri();
        if slot == 0 && self.stubs.as_ref().is_some_and(|t| t.borrow().is_entry(ip)) {
            return self.call_stub(mem, ip);
        }
        // The fetch translates through the ITLB when the harness enables translation (TLB,
        // issue 12); otherwise code is found at its virtual address.
        let fetch = if self.state.tlb.enabled && self.state.psr.contains(Psr::IT) {
            match crate::exec::instruction_address(&self.state, ip) {
                Ok(pa) => pa,
                Err(Trap::Guest(int)) => {
                    let event = self.interrupt(&int, ip, slot, (ip, slot))?;
                    self.state.gr.set_bank(self.state.psr.bank());
                    return Ok(event);
                }
                Err(Trap::Error(err)) => return Err(*err),
            }
        } else {
            ip
        };
        let Some(bundle) = self.code.find(fetch) else { return Err(ExecError::NoCode { pc: ip, slot }) };
        let flow_info = bundle.flow;
        let Some(here) = bundle.slots.get(usize::from(slot)) else { return Err(ExecError::NoCode { pc: ip, slot }) };
        let e = match &here.rec {
            SlotRec::Insn(e) => e,
            SlotRec::Invalid(bits) => return Err(ExecError::Undecodable { pc: ip, slot, bits: *bits }),
            SlotRec::Long => return Err(ExecError::NoCode { pc: ip, slot }),
        };
        // The loop branches test their predicate themselves (br.wtop/wexit's qp is the loop
        // condition); everything else is nullified by a false qualifying predicate.
        let executes = matches!(e.op, Op::Branch { kind: BrKind::Wtop | BrKind::Wexit, .. }) || self.state.p(e.qp);
        let cycle = match &mut self.timing {
            Some(t) => {
                let gr = &self.state.gr;
                t.issue_prepared(&here.timing, ip, slot, executes, |n| gr.res(n))
            }
            None => self.untimed_cycles,
        };
        let ctx = Ctx {
            ip,
            slot,
            itc: cycle.wrapping_mul(self.config.itc_per_cycle).wrapping_add(self.state.itc_offset),
            gate: self.config.gate,
        };
        // A third of most IA-64 code is nops: they change nothing, so they skip dispatch.
        // RSE references under translation are checked after the instruction (TLB, issue 12).
        let rse_op = matches!(e.op, Op::Alloc | Op::Flushrs | Op::Loadrs | Op::Branch { .. } | Op::Rfi);
        let rse_before =
            (rse_op && self.state.tlb.enabled && self.state.psr.contains(Psr::RT)).then(|| self.state.gr.bspstore());
        let flow = if e.nop {
            Ok(Flow::Next)
        } else if executes {
            // The fast engine's handler when it applies, else the reference executor.
            let fast = match self.engine {
                crate::block::Engine::Fast => crate::block::run(here.fast, &mut self.state, mem),
                crate::block::Engine::Reference => None,
            };
            let flow = match fast {
                Some(flow) => Ok(flow),
                None => execute(&mut self.state, mem, e, &ctx),
            };
            if let Some(before) = rse_before {
                crate::exec::rse_references(&self.state, ip, slot, before)?;
            }
            flow
        } else {
            crate::exec::nullified(&mut self.state, e);
            Ok(Flow::Next)
        };
        // held-group ITC (issue 15): in lockstep a later slot of this issue group that waits
        // holds the whole group, so an ar.itc access of an earlier slot happened at the held
        // cycle; the model reports each such wait and the value moves by as much (exact: no
        // slot of the group may read the register the access wrote, see `timing/held.rs`).
        if let Some(t) = &mut self.timing {
            if let (Some(clock), true, Ok(_)) = (here.clock, executes, &flow) {
                t.note_clock_use(clock);
            }
            let (state, per_cycle) = (&mut self.state, self.config.itc_per_cycle);
            t.settle_clock_uses(|clock, held| crate::code::hold_clock_use(state, clock, held.wrapping_mul(per_cycle)));
        }
        self.instructions += 1;
        self.nops += u64::from(e.nop);
        let stop_here = flow_info.stop_after(slot);
        let ends_group = stop_here || !matches!(flow, Ok(Flow::Next));
        if let Some(p) = &mut self.profile {
            p.charge(ip, slot, cycle, ends_group);
        }
        let next = if slot < flow_info.last_slot { (ip, slot + 1) } else { (ip.wrapping_add(16), 0) };
        if self.timing.is_none() && ends_group {
            self.untimed_cycles += 1;
            self.untimed_groups += 1;
        }
        let indirect = matches!(e.op, Op::Branch { indirect: true, .. });
        self.conclude(flow, (ip, slot), next, fetch, indirect)
    }

    pub(crate) fn interrupt(
        &mut self,
        int: &Interruption,
        ip: u64,
        slot: u8,
        next: (u64, u8),
    ) -> Result<StepEvent, ExecError> {
        if self.state.cr[cr::IVA as usize] == 0 {
            return Err(ExecError::Unhandled { pc: ip, slot, vector: int.vector, what: int.text() });
        }
        if let Some(t) = &mut self.timing {
            t.event(if int.vector == crate::exec::interrupt::vector::BREAK {
                Event::Break
            } else {
                Event::Interruption
            });
        }
        let handler = deliver(&mut self.state, int, ip, slot, next);
        self.state.ip = handler;
        self.state.psr = self.state.psr.with_ri(0);
        Ok(StepEvent::Interruption { vector: u64::from(int.vector), name: int.vector_name() })
    }
}

// The runner's set-up (issue 16, w5-core).
impl Ia64Cpu {
    /// Sets the addresses from which `epc` promotes to cpl 0 (the gate page), end exclusive:
    /// the runner learns them from the harness after building the CPU.
    pub fn set_gate(&mut self, gate: (u64, u64)) {
        self.config.gate = gate;
    }
}
