//! The block engine's loop: [`X86Cpu::run_blocks`] runs block after block, following the
//! chained successors, and checks the stop rules only where a block ends (or inside the block
//! `until_pc` falls in), exactly where the per-step loop would have stopped.

use emu_core::cpu::{Ran, RanEnd, RunError, StepEvent, StopWhen};
use emu_core::memory::Memory;

use super::fast::{Done, Fast};
use super::{record, Rec, NONE};
use crate::cpu::{decode_at, issue, tsc_at, ExecError, X86Cpu};
use crate::exec::{execute, Ctx, Flow};

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
            let (first, len, start, last) = (b.first, b.len, b.start, b.last);
            let mut limit = u64::from(len).min(stop.max_insns - executed) as u32;
            if let Some(u) = until_pc.filter(|&u| u > start && u <= last) {
                // The end label falls inside this block: stop right after the instruction
                // that falls through to it.
                let inner = self.blocks.recs.get(first as usize..(first + len - 1) as usize).unwrap_or(&[]);
                if let Some(j) = inner.iter().position(|r| r.next == u) {
                    limit = limit.min(j as u32 + 1);
                }
            }
            let (count, flow) = match self.exec_recs::<MODE>(mem, first, limit) {
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
        let (code, decoder) = (&mut self.code, &mut self.decoder);
        self.blocks.build(rip, self.config.sentinel, |at| {
            let index = match code.find(at) {
                Some(index) => index,
                None => {
                    let insn = decode_at(decoder, mem, at)?;
                    code.insert(at, insn)
                }
            };
            match code.insn(index) {
                Some(insn) => Ok(record(insn, index)),
                None => Err(lost(at)),
            }
        })
    }

    /// Runs records `first..first + limit` of the block store, stopping early after one that
    /// does not fall through.
    #[inline(always)]
    fn exec_recs<const MODE: u8>(&mut self, mem: &mut Memory, first: u32, limit: u32) -> Ended {
        let X86Cpu { state, config, code, model, blocks, instructions, nops, idle, .. } = self;
        let recs = blocks.recs.get(first as usize..(first + limit) as usize).unwrap_or(&[]);
        for (k, rec) in recs.iter().enumerate() {
            let k = k as u32;
            let done = if rec.fast == Fast::Generic {
                generic::<MODE>(rec, state, mem, model, code, config, *instructions + *idle)
            } else {
                match rec.fast.exec(state, mem) {
                    Ok(done) => {
                        let taken = matches!(done.flow, Flow::Jump(_));
                        match model {
                            Some(m) if MODE == FAST => {
                                m.issue_rec(&rec.issue, done.load, done.store, taken);
                            }
                            _ if MODE == TIMELINE => {
                                if let Some(insn) = code.insn(rec.insn) {
                                    issue(model, 0, insn, done.load, done.store, taken);
                                }
                            }
                            _ => {}
                        }
                        Ok(done)
                    }
                    Err(trap) => Err(code
                        .insn(rec.insn)
                        .map(|insn| ExecError::from_trap(trap, insn))
                        .unwrap_or(lost(rec.issue.addr))),
                }
            };
            let done = match done {
                Ok(done) => done,
                Err(e) => {
                    state.rip = rec.issue.addr;
                    return Err((k, e));
                }
            };
            *instructions += 1;
            *nops += u64::from(rec.nop);
            if done.flow != Flow::Next {
                return Ok((k + 1, done.flow));
            }
        }
        Ok((limit, Flow::Next))
    }
}

/// One instruction through the executor, timed as the per-step loop times it.
#[inline(never)]
fn generic<const MODE: u8>(
    rec: &Rec,
    state: &mut crate::state::X86State,
    mem: &mut Memory,
    model: &mut Option<crate::timing::X86Model>,
    code: &emu_core::code_cache::CodeCache<crate::decode::Insn>,
    config: &crate::cpu::CpuConfig,
    untimed: u64,
) -> Result<Done, ExecError> {
    let Some(insn) = code.insn(rec.insn) else {
        return Err(lost(rec.issue.addr));
    };
    let timed_issue = |model: &mut Option<crate::timing::X86Model>, load, store, taken| match model {
        Some(m) if MODE == FAST => m.issue_rec(&rec.issue, load, store, taken),
        _ => issue(model, untimed, insn, load, store, taken),
    };
    let tsc = if rec.clock {
        let cycle = timed_issue(model, None, None, false);
        tsc_at(config, model.as_ref(), state.tsc_offset, cycle)
    } else {
        0
    };
    let mut cx = Ctx::new(state, mem, tsc);
    let flow = execute(insn, &mut cx).map_err(|t| ExecError::from_trap(t, insn))?;
    let (load, store) = (cx.load, cx.store);
    if !rec.clock {
        timed_issue(model, load, store, matches!(flow, Flow::Jump(_)));
    }
    Ok(Done { flow, load, store })
}

/// A record whose decoded instruction is gone: cannot happen (the decode cache never drops
/// one), reported rather than panicking.
#[cold]
fn lost(addr: u64) -> ExecError {
    ExecError::Unsupported { addr, text: "(no decoded instruction)".into(), bytes: String::new() }
}
