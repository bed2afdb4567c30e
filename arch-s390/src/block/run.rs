//! Running blocks: the loop [`S390Cpu::run_blocks`] (finding the next block through the
//! chain, building it on first reach), one block's instructions, and the generic path for
//! instructions without a specialised handler.

use emu_core::code_cache::CodeCache;
use emu_core::cpu::{Cpu, Ran, RanEnd, RunError, StopWhen};
use emu_core::memory::Memory;

use super::{Block, Fast, Rec, MAX_BLOCK, NO_BLOCK};
use crate::cpu::{decode_at, ExecError, S390Cpu};
use crate::decode::Insn;
use crate::exec::{execute, pgm, Ctx, Flow, Trap};
use crate::state::S390State;
use crate::timing::{units_of, BlockTiming, S390Model};

/// How a block's run ended.
enum Exit {
    /// The instruction at `addr` (`len` bytes, `next` after it) ended the run of the block with
    /// `flow`, after `done` instructions.
    At { done: u64, flow: Flow, addr: u64, next: u64, len: u8 },
    /// An emulator failure after `done` instructions.
    Failed { done: u64, error: ExecError },
}

impl S390Cpu {
    /// [`Cpu::run_until`] on blocks: stops exactly where the reference loop would.
    pub(crate) fn run_blocks(
        &mut self,
        mem: &mut Memory,
        stop: &StopWhen,
        until_pc: Option<u64>,
    ) -> Result<Ran, RunError<ExecError>> {
        let mut executed = 0u64;
        let mut from = NO_BLOCK;
        while executed < stop.max_insns {
            let pc = self.state.psw_addr;
            let id = self.block_at(mem, from, pc).map_err(|error| RunError { error, executed })?;
            let Some(block) = self.blocks.list.get(id as usize) else { break };
            let stops_inside = block.sentinel_inside || until_pc.is_some_and(|u| block.inside(u));
            // A stop address inside the block: the reference step, one instruction at a time.
            if stops_inside {
                let event = self.step(mem).map_err(|error| RunError { error, executed })?;
                executed += 1;
                if let Some(end) = Ran::after_step(event, pc, self.state.psw_addr, stop, until_pc) {
                    return Ok(Ran { executed, end });
                }
                from = NO_BLOCK;
                continue;
            }
            match self.run_block(id, mem, stop.max_insns - executed) {
                Exit::At { done, flow, addr, next, len } => {
                    executed += done;
                    let event = self.complete(mem, flow, next, len);
                    if let Some(end) = Ran::after_step(event, addr, self.state.psw_addr, stop, until_pc) {
                        return Ok(Ran { executed, end });
                    }
                }
                Exit::Failed { done, error } => return Err(RunError { error, executed: executed + done }),
            }
            from = id;
        }
        Ok(Ran { executed, end: RanEnd::Budget })
    }

    /// The block starting at `pc`: a successor `from` remembers, one built before, or a new one.
    fn block_at(&mut self, mem: &Memory, from: u32, pc: u64) -> Result<u32, ExecError> {
        let prev = self.blocks.list.get(from as usize);
        if let Some(&(_, id)) = prev.and_then(|b| b.chain.iter().find(|(at, id)| *at == pc && *id != NO_BLOCK)) {
            return Ok(id);
        }
        let id = match self.blocks.by_start.get(&pc) {
            Some(&id) => id,
            None => self.build(mem, pc)?,
        };
        if let Some(b) = self.blocks.list.get_mut(from as usize) {
            // The first successor stays; the second slot takes the latest other one.
            let slot = usize::from(b.chain[0].1 != NO_BLOCK);
            b.chain[slot] = (pc, id);
        }
        Ok(id)
    }

    /// Builds the block starting at `pc`.
    fn build(&mut self, mem: &Memory, pc: u64) -> Result<u32, ExecError> {
        let mut recs: Vec<Rec> = Vec::new();
        // The block's issue records for its timing per block, while every one is static.
        let mut plans = self.model.as_ref().map(|_| Vec::new());
        let mut addr = pc;
        // The last record is an unconditional branch to `addr`, which the block goes on
        // through once the instruction there is in it (a trace through calls and jumps).
        let mut through = false;
        let mut through_mask = 0u64;
        loop {
            let index = match self.code.find(addr) {
                Some(i) => i,
                None => match decode_at(&mut self.decoder, mem, addr) {
                    Ok(insn) => self.code.insert(addr, insn),
                    // Only the first instruction's failure is this run's: the others are
                    // reported if execution gets there.
                    Err(e) if recs.is_empty() => return Err(e),
                    Err(_) => break,
                },
            };
            let Some(insn) = self.code.insn(index) else { break };
            if let Some(branch) = recs.last_mut().filter(|_| through) {
                branch.go_through(addr);
                through_mask |= 1 << (recs.len() - 1);
            }
            let fast = Fast::of(insn);
            let plan = self.model.as_ref().map(|m| m.plan(insn));
            // Clock readers need the model's cycle where they run, and a privileged one may
            // not issue: both are timed per instruction.
            let per_insn = fast == Fast::Generic && (insn.reads_clocks || insn.privileged);
            match (self.model.as_ref(), fast.ss_len()) {
                _ if per_insn => plans = None,
                (Some(m), ss_len) if ss_len > 0 => plans.as_mut().map_or((), |v| v.push(m.plan_sized(insn, ss_len))),
                (_, _) => {
                    if let (Some(v), Some(p)) = (plans.as_mut(), plan) {
                        v.push(p);
                    }
                }
            }
            recs.push(Rec { fast, insn: index, addr, next: insn.next(), len: insn.len, through: false, plan });
            if recs.len() >= MAX_BLOCK {
                break;
            }
            if fast.ends_block(insn) {
                // Not back into the block: a loop stays a loop of blocks.
                match fast.always_to().filter(|t| *t != pc && !recs.iter().any(|r| r.addr == *t)) {
                    Some(target) => (addr, through) = (target, true),
                    None => break,
                }
                continue;
            }
            addr = insn.next();
            through = false;
        }
        // The addresses of the instructions after the first lie in `lo..=hi` (a trace's are
        // not one span; a stop address in between but not at one runs the block by steps too,
        // which is only slower).
        let later = || recs.iter().skip(1).map(|r| r.addr);
        let (lo, hi) = (later().min().unwrap_or(1), later().max().unwrap_or(0));
        let sentinel = self.config.sentinel;
        let id = u32::try_from(self.blocks.list.len()).unwrap_or(NO_BLOCK - 1);
        let timing = plans.and_then(|p| BlockTiming::new(p, through_mask)).filter(|t| t.len() == recs.len());
        let block = Block { lo, hi, recs, sentinel_inside: false, chain: [(0, NO_BLOCK); 2], timing };
        let block = Block { sentinel_inside: block.inside(sentinel), ..block };
        self.blocks.list.push(block);
        self.blocks.by_start.insert(pc, id);
        Ok(id)
    }

    /// Runs block `id` from its start for at most `budget` instructions, up to the first that
    /// does not fall through. Inlined into its one caller (the chain walk): the call and the
    /// exit record it returns showed in the profile when the compiler kept it apart.
    #[inline(always)]
    fn run_block(&mut self, id: u32, mem: &mut Memory, budget: u64) -> Exit {
        let S390Cpu { state, config, code, model, instructions, idle, blocks, .. } = self;
        let Some(block) = blocks.list.get_mut(id as usize) else {
            return Exit::Failed { done: 0, error: ExecError::Fetch { addr: state.psw_addr, fault: no_block() } };
        };
        let limit = usize::try_from(budget).unwrap_or(usize::MAX).min(block.recs.len());
        let recs = block.recs.get(..limit).unwrap_or_default();
        // No timeline: the handlers' records (never SS ones) skip the model's own checks.
        let untimed = model.as_ref().is_some_and(|m| m.timeline().is_none());
        // The whole block with no timeline: timed per block once it has run.
        let per_block = untimed && block.timing.as_ref().is_some_and(|t| t.len() == limit);
        if model.is_none() || per_block {
            let exit = run_plain(recs, state, mem, code, model.as_ref(), *instructions + *idle, config.freq_mhz);
            let (issued, taken) = match &exit {
                Exit::At { done, flow, .. } => (*done, matches!(flow, Flow::Jump(_))),
                Exit::Failed { done, .. } => (*done, false),
            };
            *instructions += issued;
            // The failing instruction of a failed run does not issue.
            if let (Some(m), Some(t)) = (model.as_mut(), block.timing.as_mut()) {
                m.issue_block(t, usize::try_from(issued).unwrap_or(usize::MAX), taken);
            }
            return exit;
        }
        let mut done = 0u64;
        for rec in recs {
            let flow = match &rec.fast {
                Fast::Generic => {
                    let Some(insn) = code.insn(rec.insn) else { break };
                    let clock = *instructions + *idle;
                    match generic(insn, state, mem, model.as_ref(), clock, config.freq_mhz) {
                        Ok((flow, issues)) => {
                            if let (Some(m), Some(p), Some(ss_len)) = (model.as_mut(), rec.plan.as_ref(), issues) {
                                m.issue_planned(p, matches!(flow, Flow::Jump(_)), ss_len);
                                if m.timeline().is_some() {
                                    label(m, Some(insn));
                                }
                            }
                            flow
                        }
                        Err(error) => {
                            state.psw_addr = rec.addr;
                            return Exit::Failed { done, error };
                        }
                    }
                }
                fast => match fast.run(state, mem) {
                    Ok(flow) => {
                        if let (Some(m), Some(p)) = (model.as_mut(), rec.plan.as_ref()) {
                            let taken = rec.through || matches!(flow, Flow::Jump(_));
                            let ss_len = fast.ss_len();
                            if untimed && ss_len == 0 {
                                m.issue_untimed(p, taken);
                            } else {
                                m.issue_planned(p, taken, ss_len);
                                if m.timeline().is_some() {
                                    label(m, code.insn(rec.insn));
                                }
                            }
                        }
                        flow
                    }
                    Err(trap) => return Exit::Failed { done, error: trapped(state, code, rec, trap) },
                },
            };
            *instructions += 1;
            done += 1;
            if !matches!(flow, Flow::Next) || done == limit as u64 {
                return Exit::At { done, flow, addr: rec.addr, next: rec.next, len: rec.len };
            }
        }
        // Only an instruction record missing from the code cache gets here.
        Exit::Failed { done, error: ExecError::Fetch { addr: state.psw_addr, fault: no_block() } }
    }
}

/// Runs `recs` in order with no model to issue to (the core has none, or the block is timed
/// per block afterwards), up to the first that does not fall through or the last. `clock` is
/// the cycle count without a model before the first.
#[inline(always)]
fn run_plain(
    recs: &[Rec],
    state: &mut S390State,
    mem: &mut Memory,
    code: &CodeCache<Insn>,
    model: Option<&S390Model>,
    clock: u64,
    freq_mhz: u64,
) -> Exit {
    let mut done = 0u64;
    for rec in recs {
        let flow = match &rec.fast {
            Fast::Generic => {
                let Some(insn) = code.insn(rec.insn) else {
                    return Exit::Failed { done, error: ExecError::Fetch { addr: state.psw_addr, fault: no_block() } };
                };
                match generic(insn, state, mem, model, clock + done, freq_mhz) {
                    Ok((flow, _)) => flow,
                    Err(error) => {
                        state.psw_addr = rec.addr;
                        return Exit::Failed { done, error };
                    }
                }
            }
            fast => match fast.run(state, mem) {
                Ok(flow) => flow,
                Err(trap) => return Exit::Failed { done, error: trapped(state, code, rec, trap) },
            },
        };
        done += 1;
        if !matches!(flow, Flow::Next) {
            return Exit::At { done, flow, addr: rec.addr, next: rec.next, len: rec.len };
        }
    }
    match recs.last() {
        Some(rec) => Exit::At { done, flow: Flow::Next, addr: rec.addr, next: rec.next, len: rec.len },
        None => Exit::Failed { done, error: ExecError::Fetch { addr: state.psw_addr, fault: no_block() } },
    }
}

/// The error a handler's trap at `rec` becomes, the PSW left addressing the instruction.
fn trapped(state: &mut S390State, code: &CodeCache<Insn>, rec: &Rec, trap: Trap) -> ExecError {
    state.psw_addr = rec.addr;
    match code.insn(rec.insn) {
        Some(insn) => ExecError::from_trap(trap, insn),
        None => ExecError::Fetch { addr: rec.addr, fault: no_block() },
    }
}

/// The fault an impossible lookup reports (a block or instruction index that is not there).
fn no_block() -> emu_core::memory::MemFault {
    emu_core::memory::MemFault { kind: emu_core::memory::FaultKind::Unmapped, addr: 0, size: 0 }
}

/// Names the instruction the model issued last on its timeline.
fn label(m: &mut S390Model, insn: Option<&Insn>) {
    if let Some(i) = insn {
        m.label_last(i.addr, i.name.to_string());
    }
}

/// An instruction without a specialised handler, as [`Cpu::step`] runs it: the privilege
/// check, the clocks for the timer instructions, the reference executor, SPT's new timer.
/// Answers its flow and, when it issues to the model (the caller issues it; a privileged one
/// in the problem state does not), the bytes an SS instruction processed. `untimed` is the
/// cycle count without a model.
fn generic(
    insn: &Insn,
    state: &mut S390State,
    mem: &mut Memory,
    model: Option<&S390Model>,
    untimed: u64,
    freq_mhz: u64,
) -> Result<(Flow, Option<u64>), ExecError> {
    if insn.privileged && state.problem_state() {
        return Ok((Flow::Program(pgm::PRIVILEGED), None));
    }
    let units = if insn.reads_clocks {
        let cycles = model.map_or(untimed, S390Model::now);
        let freq = model.map_or(freq_mhz, |m| m.params().freq_mhz);
        units_of(cycles, freq)
    } else {
        0
    };
    let timer = state.cpu_timer_base.wrapping_sub(units);
    let tod = state.tod_base.wrapping_add(units);
    let mut cx = Ctx::new(state, mem, timer, tod);
    let flow = execute(insn, &mut cx).map_err(|t| ExecError::from_trap(t, insn))?;
    let (spt, ss_len) = (cx.set_cpu_timer, cx.ss_len);
    if let Some(v) = spt {
        state.cpu_timer_base = v.wrapping_add(units);
    }
    Ok((flow, Some(ss_len)))
}
