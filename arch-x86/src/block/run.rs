//! The block engine's loop: [`X86Cpu::run_blocks`] runs block after block, following the
//! chained successors, and checks the stop rules only where a block ends (or inside the block
//! `until_pc` falls in), exactly where the per-step loop would have stopped.

use emu_core::cpu::{Ran, RanEnd, RunError, StepEvent, StopWhen};
use emu_core::memory::Memory;

use emu_core::code_cache::CodeCache;

use super::fast::{Fast, Timer};
use super::{record, Rec, NONE};
use crate::cpu::{decode_at, issue, tsc_at, CpuConfig, ExecError, X86Cpu};
use crate::decode::Insn;
use crate::exec::{execute, Ctx, Flow};
use crate::state::X86State;
use crate::timing::X86Model;

/// How instructions are timed in one run: no model, the model through pre-decoded records, or
/// the model through its recording path (a timeline is kept).
const UNTIMED: u8 = 0;
const FAST: u8 = 1;
const TIMELINE: u8 = 2;

/// Where a block's records ended up: how many ran, and where control goes after the last.
type Ended = Result<(u32, Flow), (u32, ExecError)>;

impl X86Cpu {
    /// `Cpu::run_until` on the block engine.
    pub(crate) fn run_blocks(
        &mut self,
        mem: &mut Memory,
        stop: &StopWhen,
        until_pc: Option<u64>,
    ) -> Result<Ran, RunError<ExecError>> {
        match &self.model {
            None => self.run_mode::<UNTIMED>(mem, stop, until_pc),
            Some(m) if m.recording() => self.run_mode::<TIMELINE>(mem, stop, until_pc),
            Some(_) => self.run_mode::<FAST>(mem, stop, until_pc),
        }
    }

    fn run_mode<const MODE: u8>(
        &mut self,
        mem: &mut Memory,
        stop: &StopWhen,
        until_pc: Option<u64>,
    ) -> Result<Ran, RunError<ExecError>> {
        let mut executed = 0u64;
        let mut next = NONE;
        // The block whose exit led here and how (fall-through, or a jump to the address), so
        // the block found is chained to it.
        let mut link: Option<(u32, Option<u64>)> = None;
        loop {
            if executed >= stop.max_insns {
                return Ok(Ran { executed, end: RanEnd::Budget });
            }
            let id = if next != NONE {
                next
            } else {
                let id = self.block_at(mem, self.state.rip).map_err(|error| RunError { error, executed })?;
                if let Some((from, jump)) = link.take() {
                    if let Some(b) = self.blocks.blocks.get_mut(from as usize) {
                        match jump {
                            None => b.fall = id,
                            Some(to) => b.jump = (to, id),
                        }
                    }
                }
                id
            };
            let Some(b) = self.blocks.blocks.get(id as usize) else {
                return Ok(Ran { executed, end: RanEnd::Budget });
            };
            let (first, len, lo, hi) = (b.first, b.len, b.lo, b.hi);
            let mut limit = u64::from(len).min(stop.max_insns - executed) as u32;
            if let Some(u) = until_pc.filter(|&u| u >= lo && u <= hi) {
                // The end label may be where one of this block's records leads to the next:
                // stop right after that record.
                let recs = self.blocks.recs.get(first as usize..(first + len) as usize).unwrap_or(&[]);
                if let Some(j) = recs.iter().skip(1).position(|r| r.issue.addr == u) {
                    limit = limit.min(j as u32 + 1);
                }
            }
            let (count, flow) = match self.exec_block::<MODE>(mem, id, first, limit) {
                Ok(ended) => ended,
                Err((count, error)) => {
                    return Err(RunError { error, executed: executed + u64::from(count) });
                }
            };
            executed += u64::from(count);
            let Some(done) = self.blocks.recs.get((first + count - 1) as usize) else {
                return Ok(Ran { executed, end: RanEnd::Budget });
            };
            let before = done.issue.addr;
            let rip = match flow {
                Flow::Jump(to) => to,
                Flow::Next | Flow::Halt => done.next,
            };
            self.state.rip = rip;
            let event = match flow {
                Flow::Halt => StepEvent::Halt,
                _ if rip == self.config.sentinel => StepEvent::Sentinel,
                _ => StepEvent::Continue,
            };
            if let Some(end) = Ran::after_step(event, before, rip, stop, until_pc) {
                return Ok(Ran { executed, end });
            }
            next = NONE;
            if count == len {
                let b = self.blocks.blocks.get(id as usize);
                match (flow, b) {
                    (Flow::Next, Some(b)) if b.fall != NONE => next = b.fall,
                    (Flow::Next, Some(_)) => link = Some((id, None)),
                    (Flow::Jump(to), Some(b)) if b.jump.0 == to && b.jump.1 != NONE => next = b.jump.1,
                    (Flow::Jump(to), Some(_)) => link = Some((id, Some(to))),
                    _ => {}
                }
            }
        }
    }

    /// The block at `rip`, built (decoding what the decode cache lacks) if new.
    fn block_at(&mut self, mem: &Memory, rip: u64) -> Result<u32, ExecError> {
        if let Some(id) = self.blocks.find(rip) {
            return Ok(id);
        }
        let (code, decoder, model) = (&mut self.code, &mut self.decoder, self.model.as_ref());
        self.blocks.build(rip, self.config.sentinel, model, |at| {
            let index = match code.find(at) {
                Some(index) => index,
                None => {
                    let insn = decode_at(decoder, mem, at)?;
                    code.insert(at, insn)
                }
            };
            match code.insn(index) {
                Some(insn) => Ok(record(insn, index, model)),
                None => Err(lost(at)),
            }
        })
    }

    /// Runs records `first..first + limit` of block `id` (stopping early after one that does
    /// not fall through) and counts them.
    #[inline(always)]
    fn exec_block<const MODE: u8>(&mut self, mem: &mut Memory, id: u32, first: u32, limit: u32) -> Ended {
        let X86Cpu { state, config, code, model, blocks, instructions, nops, idle, .. } = self;
        let recs = blocks.recs.get(first as usize..(first + limit) as usize).unwrap_or(&[]);
        let block = blocks.blocks.get(id as usize);
        let untimed = *instructions + *idle;
        let whole = block.is_some_and(|b| b.len == limit);
        let planned = block.and_then(|b| b.timing.as_deref());
        // The block's records through `timer`, as their whole block or not.
        macro_rules! run {
            ($timer:expr) => {
                if whole {
                    exec_recs::<_, true>(recs, state, mem, code, config, $timer, untimed)
                } else {
                    exec_recs::<_, false>(recs, state, mem, code, config, $timer, untimed)
                }
            };
        }
        let ended = match model {
            Some(m) if MODE == FAST => match planned {
                Some(plan) => {
                    // Register-only records: run untimed, then time the block as a whole.
                    let ended = run!(&mut Untimed);
                    issue_planned(m, plan, recs, &ended);
                    ended
                }
                None => run!(&mut Modelled(m)),
            },
            Some(_) if MODE == TIMELINE => run!(&mut Recorded { model, code }),
            _ => run!(&mut Untimed),
        };
        let ran = match &ended {
            Ok((n, _)) | Err((n, _)) => *n,
        };
        // The nops among the records that ran: the block's count when all did.
        let (cpu_nops, class_nops) = match block {
            Some(b) if ran == b.len => (u64::from(b.nops), u64::from(b.class_nops)),
            _ => recs
                .iter()
                .take(ran as usize)
                .fold((0, 0), |(a, b), r| (a + u64::from(r.nop), b + u64::from(r.class_nop))),
        };
        *instructions += u64::from(ran);
        *nops += cpu_nops;
        if let (Some(m), true) = (model.as_mut(), MODE == FAST) {
            m.count_issued(u64::from(ran), class_nops);
        }
        ended
    }
}

/// Times the register-only records of a planned block that `ended` so: the whole block through
/// its plan, or the records that ran one by one (none of them read memory or the clock, so
/// timing them after they ran is what timing them as they ran does).
fn issue_planned(m: &mut X86Model, plan: &crate::timing::BlockTiming, recs: &[Rec], ended: &Ended) {
    let (ran, taken) = match ended {
        Ok((n, flow)) => (*n, matches!(flow, Flow::Jump(_))),
        Err((n, _)) => (*n, false),
    };
    let ran = recs.get(..ran as usize).unwrap_or(&[]);
    match ended {
        Ok(_) => m.issue_block(plan, ran.iter().map(|r| &r.issue), taken),
        Err(_) => {
            for r in ran {
                m.issue_rec(&r.issue, None, None, false);
            }
        }
    }
}

/// No timing model: nothing to issue; rdtsc reads the instruction count plus idle cycles.
struct Untimed;

impl Timer for Untimed {
    #[inline(always)]
    fn issue(&mut self, _: &Rec, _: Option<(u64, u8)>, _: Option<(u64, u8)>, _: bool) {}
}

impl Clock for Untimed {
    fn clock(&mut self, _: &Rec, _: &Insn, untimed: u64) -> u64 {
        untimed
    }

    fn model(&self) -> Option<&X86Model> {
        None
    }
}

/// The model through pre-decoded issue records (the block loop counts the instructions).
struct Modelled<'a>(&'a mut X86Model);

impl Timer for Modelled<'_> {
    #[inline(always)]
    fn issue(&mut self, rec: &Rec, load: Option<(u64, u8)>, store: Option<(u64, u8)>, taken: bool) {
        self.0.issue_rec(&rec.issue, load, store, taken);
    }
}

impl Clock for Modelled<'_> {
    fn clock(&mut self, rec: &Rec, _: &Insn, _: u64) -> u64 {
        self.0.issue_rec(&rec.issue, None, None, false)
    }

    fn model(&self) -> Option<&X86Model> {
        Some(self.0)
    }
}

/// The model through its recording path, which keeps the timeline (and counts).
struct Recorded<'a> {
    model: &'a mut Option<X86Model>,
    code: &'a CodeCache<Insn>,
}

impl Timer for Recorded<'_> {
    #[inline(always)]
    fn issue(&mut self, rec: &Rec, load: Option<(u64, u8)>, store: Option<(u64, u8)>, taken: bool) {
        if let Some(insn) = self.code.insn(rec.insn) {
            issue(self.model, 0, insn, load, store, taken);
        }
    }
}

impl Clock for Recorded<'_> {
    fn clock(&mut self, _: &Rec, insn: &Insn, untimed: u64) -> u64 {
        issue(self.model, untimed, insn, None, None, false)
    }

    fn model(&self) -> Option<&X86Model> {
        self.model.as_ref()
    }
}

/// What the executor's path needs of a timer beyond [`Timer`]: issuing a clock read before it
/// executes, and the model for the TSC's ratio.
trait Clock: Timer {
    /// Issues the clock read `rec` (no accesses) and returns the cycle it reads.
    fn clock(&mut self, rec: &Rec, insn: &Insn, untimed: u64) -> u64;
    /// The model, if any.
    fn model(&self) -> Option<&X86Model>;
}

/// Runs `recs` in order, stopping early after one that does not fall through; `untimed` is the
/// untimed clock at the first. `WHOLE`: they are their whole block, so flags marked dead are
/// not computed (a constant: a partial run, rare, has its own copy of the loop).
#[inline(always)]
fn exec_recs<T: Clock, const WHOLE: bool>(
    recs: &[Rec],
    state: &mut X86State,
    mem: &mut Memory,
    code: &CodeCache<Insn>,
    config: &CpuConfig,
    t: &mut T,
    untimed: u64,
) -> Ended {
    for (k, rec) in recs.iter().enumerate() {
        let k = k as u32;
        let flow = if matches!(rec.fast, Fast::Generic) {
            match generic(rec, state, mem, code, config, t, untimed + u64::from(k)) {
                Ok(flow) => flow,
                Err(e) => {
                    state.rip = rec.issue.addr;
                    return Err((k, e));
                }
            }
        } else {
            match rec.fast.exec(rec, state, mem, t, WHOLE) {
                Ok(flow) => flow,
                Err(trap) => {
                    state.rip = rec.issue.addr;
                    return Err((k, trapped(code, rec, trap)));
                }
            }
        };
        match flow {
            Flow::Next => {}
            // A followed call or jmp: the block goes on at its target.
            Flow::Jump(to) if recs.get(k as usize + 1).is_some_and(|r| r.issue.addr == to) => {}
            _ => return Ok((k + 1, flow)),
        }
    }
    Ok((recs.len() as u32, Flow::Next))
}

/// The error of `rec` trapping.
#[cold]
#[inline(never)]
fn trapped(code: &CodeCache<Insn>, rec: &Rec, trap: crate::exec::Trap) -> ExecError {
    code.insn(rec.insn).map_or(lost(rec.issue.addr), |insn| ExecError::from_trap(trap, insn))
}

/// One instruction through the executor, timed as the per-step loop times it (a clock read
/// issues first: its result is its issue cycle).
#[inline(never)]
fn generic<T: Clock>(
    rec: &Rec,
    state: &mut X86State,
    mem: &mut Memory,
    code: &CodeCache<Insn>,
    config: &CpuConfig,
    t: &mut T,
    untimed: u64,
) -> Result<Flow, ExecError> {
    let Some(insn) = code.insn(rec.insn) else {
        return Err(lost(rec.issue.addr));
    };
    let tsc = if rec.clock {
        let cycle = t.clock(rec, insn, untimed);
        tsc_at(config, t.model(), state.tsc_offset, cycle)
    } else {
        0
    };
    let mut cx = Ctx::new(state, mem, tsc);
    let flow = execute(insn, &mut cx).map_err(|trap| ExecError::from_trap(trap, insn))?;
    if !rec.clock {
        let (load, store) = (cx.load, cx.store);
        t.issue(rec, load, store, matches!(flow, Flow::Jump(_)));
    }
    Ok(flow)
}

/// A record whose decoded instruction is gone: cannot happen (the decode cache never drops
/// one), reported rather than panicking.
#[cold]
fn lost(addr: u64) -> ExecError {
    ExecError::Unsupported { addr, text: "(no decoded instruction)".into(), bytes: String::new() }
}
