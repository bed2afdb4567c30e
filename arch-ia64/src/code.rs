//! Code as the CPU steps through it: predecoded bundles, what ends each slot's instruction
//! group and where it falls through to, and, with the timing model on, every slot's timing
//! facts and the issue group it opens, all worked out once when the code is loaded.

use crate::bundle::{SlotUnit, Template};
use crate::exec::op::Op;
use crate::exec::predecode::{CodeRegion, Exec, RegKind, SlotRec};
use crate::res::Res;
use crate::timing::{ClockUse, IssueInfo, Itanium2, RegOperand, SlotShape, SlotTiming, Src};

/// All loaded code, by region, with the region hit last (steps stay in one region for long).
#[derive(Debug, Clone, Default)]
pub(crate) struct Code {
    pub(crate) regions: Vec<Region>,
    last: usize,
}

/// One loaded region: its bundles in address order.
#[derive(Debug, Clone)]
pub(crate) struct Region {
    base: u64,
    pub(crate) bundles: Vec<Bundle>,
}

/// A bundle as the CPU steps through it: one record per slot, so a step costs one lookup.
#[derive(Debug, Clone)]
pub(crate) struct Bundle {
    pub(crate) flow: BundleFlow,
    pub(crate) slots: [Slot; 3],
}

/// A slot's predecoded instruction and its timing facts (defaults when the model is off).
#[derive(Debug, Clone)]
pub(crate) struct Slot {
    pub(crate) rec: SlotRec,
    pub(crate) timing: SlotTiming,
    /// Held-group ITC (issue 15): whether the slot reads or writes ar.itc, worked out once.
    pub(crate) clock: Option<ClockUse>,
    /// The fast engine's handler (issue 17), chosen once.
    pub(crate) fast: crate::block::Fast,
}

impl Code {
    /// Adds a predecoded region, preparing its timing facts for `timing` if given.
    pub(crate) fn add(&mut self, code: CodeRegion, timing: Option<&Itanium2>) {
        let prepared = timing.map_or_else(Vec::new, |t| prepare_region(t, &code));
        let bundles = code
            .bundles
            .iter()
            .enumerate()
            .map(|(i, b)| {
                let timing = prepared.get(i).copied().unwrap_or_default();
                let [t0, t1, t2] = timing;
                let [s0, s1, s2] = b.slots;
                Bundle { flow: BundleFlow::of(b.template), slots: [slot(s0, t0), slot(s1, t1), slot(s2, t2)] }
            })
            .collect();
        self.regions.push(Region { base: code.base, bundles });
        self.regions.sort_by_key(|r| r.base);
    }

    /// The bundle at address `ip`.
    #[inline]
    pub(crate) fn find(&mut self, ip: u64) -> Option<&Bundle> {
        let index_in = |r: &Region| {
            let offset = ip.checked_sub(r.base)? / 16;
            usize::try_from(offset).ok().filter(|&i| i < r.bundles.len())
        };
        let index = match self.regions.get(self.last).and_then(index_in) {
            Some(i) => i,
            None => {
                self.last = self.regions.iter().position(|r| index_in(r).is_some())?;
                self.regions.get(self.last).and_then(index_in)?
            }
        };
        self.regions.get(self.last)?.bundles.get(index)
    }
}

/// A slot's record with its timing facts and its use of the clock.
fn slot(rec: SlotRec, timing: SlotTiming) -> Slot {
    let fast = match &rec {
        SlotRec::Insn(e) => crate::block::Fast::of(e),
        _ => crate::block::Fast::Generic,
    };
    Slot { rec, timing, clock: clock_use(&rec), fast }
}

/// Held-group ITC (issue 15): how the instruction uses ar.itc, if it does (`mov r=ar.itc`,
/// `mov ar.itc=r`, `mov ar.itc=imm`).
fn clock_use(rec: &SlotRec) -> Option<ClockUse> {
    let SlotRec::Insn(e) = rec else { return None };
    let itc = i64::from(crate::regs::ar::ITC);
    match e.op {
        Op::MovFromAr if e.ops[1] == itc => u8::try_from(e.ops[0]).ok().map(ClockUse::Read),
        Op::MovToAr | Op::MovToArImm if e.ops[0] == itc => Some(ClockUse::Write),
        _ => None,
    }
}

/// Moves an ar.itc access of the open issue group `ticks` later: the value a `mov r=ar.itc`
/// read grows by them, and the counter a `mov ar.itc=` set was set that much later.
pub(crate) fn hold_clock_use(state: &mut crate::state::State, clock: ClockUse, ticks: u64) {
    match clock {
        ClockUse::Read(r) => {
            if let Ok((v, nat)) = state.gr.read(r) {
                // The register was just written by this group, so the write cannot fail.
                let _ = state.gr.write(r, v.wrapping_add(ticks), nat);
            }
        }
        ClockUse::Write => state.itc_offset = state.itc_offset.wrapping_sub(ticks),
    }
}

/// Where a bundle's slots go next and which of them end an instruction group.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct BundleFlow {
    /// The last slot that holds an instruction (1 for MLX, whose long instruction is slot 1).
    pub(crate) last_slot: u8,
    /// Bit n: a stop follows slot n (an MLX pair's stop is the one after slot 2).
    stops: u8,
}

impl BundleFlow {
    pub(crate) fn of(template: Template) -> BundleFlow {
        let long = template.units()[1] == SlotUnit::L;
        let stops = (0..3u8)
            .filter(|&s| template.stop_after(if long && s == 1 { 2 } else { usize::from(s) }))
            .fold(0, |m, s| m | 1 << s);
        BundleFlow { last_slot: if long { 1 } else { 2 }, stops }
    }

    /// Whether a stop follows slot `slot`.
    #[inline]
    pub(crate) fn stop_after(self, slot: u8) -> bool {
        self.stops & (1 << (slot & 7)) != 0
    }
}

/// The general-register renaming a slot's registers need: r0-r15 never move.
fn operand(kind: RegKind, num: u8) -> RegOperand {
    match kind {
        RegKind::Gr if num >= 16 => RegOperand::Gr(num),
        _ => RegOperand::Fixed(fixed_res(kind, num)),
    }
}

/// The resource of a register that does not move, or a stand-in for one that does (which is
/// all the latency rules look at: the class, and AR/CR numbers).
fn fixed_res(kind: RegKind, num: u8) -> Res {
    match kind {
        RegKind::Gr => Res::gr_static(num.min(15)),
        RegKind::Fr => Res::fr(num),
        RegKind::Pr => Res::pr(num),
        RegKind::Br => Res::br(num),
        RegKind::Ar => Res::ar(num),
        RegKind::Cr => Res::cr(num),
    }
}

/// The shape of slot `slot` of bundle `index`, if it holds an instruction.
fn shape(code: &CodeRegion, index: usize, slot: u8) -> Option<(SlotShape, &Exec)> {
    let bundle = code.bundles.get(index)?;
    match bundle.slots.get(usize::from(slot))? {
        SlotRec::Insn(e) => Some((
            SlotShape {
                bundle: code.base.wrapping_add(16 * index as u64),
                template: bundle.template,
                slot,
                unit: e.unit,
                class: e.class,
            },
            e,
        )),
        _ => None,
    }
}

/// The slots from (`index`, `slot`) on in fall-through order, as far as the code decodes; no
/// issue group reaches past three bundles.
fn fall_through(code: &CodeRegion, index: usize, slot: u8) -> impl Iterator<Item = SlotShape> + '_ {
    let next = move |&(i, s): &(usize, u8)| {
        let last = code.bundles.get(i).map_or(2, |b| BundleFlow::of(b.template).last_slot);
        Some(if s < last { (i, s + 1) } else { (i + 1, 0) })
    };
    std::iter::successors(Some((index, slot)), next)
        .take_while(move |&(i, _)| i < index + 3)
        .map_while(move |(i, s)| shape(code, i, s).map(|(sh, _)| sh))
}

/// Every slot's timing facts and the group it opens.
fn prepare_region(model: &Itanium2, code: &CodeRegion) -> Vec<[SlotTiming; 3]> {
    (0..code.bundles.len())
        .map(|index| {
            let mut slots = [SlotTiming::default(); 3];
            for (slot, prepared) in (0u8..).zip(slots.iter_mut()) {
                if let Some((shape, e)) = shape(code, index, slot) {
                    let plan = model.plan(fall_through(code, index, slot));
                    *prepared = prepare_slot(model, &shape, e, plan);
                }
            }
            slots
        })
        .collect()
}

fn prepare_slot(model: &Itanium2, shape: &SlotShape, e: &Exec, plan: crate::timing::Plan) -> SlotTiming {
    let (srcs, dsts) = registers(e, fixed_res);
    let src_regs: Vec<RegOperand> = e.srcs.iter().take(srcs.len()).map(|r| operand(r.kind, r.num)).collect();
    let dst_regs: Vec<RegOperand> = e.dsts.iter().take(dsts.len()).map(|r| operand(r.kind, r.num)).collect();
    model.prepare(&issue_info(shape, e, &srcs, &dsts, true), &src_regs, &dst_regs, plan)
}

/// The registers slot `e` reads and writes, resolved by `res`, as the live model takes them.
fn registers(e: &Exec, res: impl Fn(RegKind, u8) -> Res) -> (Vec<Src>, Vec<Res>) {
    let n_srcs = usize::from(e.n_srcs).min(e.srcs.len());
    let n_dsts = usize::from(e.n_dsts).min(e.dsts.len());
    let srcs = e.srcs[..n_srcs]
        .iter()
        .map(|r| Src { res: res(r.kind, r.num), role: r.usage, logical: (r.kind == RegKind::Gr).then_some(r.num) })
        .collect();
    (srcs, e.dsts[..n_dsts].iter().map(|r| res(r.kind, r.num)).collect())
}

/// The live model's description of slot `e` at `shape`.
fn issue_info<'a>(shape: &SlotShape, e: &Exec, srcs: &'a [Src], dsts: &'a [Res], executes: bool) -> IssueInfo<'a> {
    IssueInfo {
        bundle: shape.bundle,
        template: shape.template,
        slot: shape.slot,
        class: e.class,
        unit: e.unit,
        nop: e.nop,
        srcs,
        dsts,
        executes,
    }
}

#[cfg(test)]
mod tests {
    //! The prepared path must time code exactly as the live one does: both models are fed the
    //! same walk through every corpus program (all templates, mid-bundle stops, every timing
    //! class the assembler emits), with pseudo-random predicates, taken branches and events.

    use super::*;
    use crate::exec::predecode::predecode;
    use crate::timing::{Event, Itanium2Params};
    use emu_core::rng::Xorshift64;

    fn corpus() -> Vec<(String, Vec<u8>)> {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/corpus/ia64/golden");
        let mut out = Vec::new();
        for entry in std::fs::read_dir(&dir).expect("corpus directory") {
            let path = entry.expect("corpus entry").path();
            if path.to_string_lossy().ends_with(".text.hex") {
                let text = std::fs::read_to_string(&path).expect("hex file");
                let hex: String = text.split_whitespace().collect();
                let bytes = (0..hex.len() / 2)
                    .map(|i| u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).expect("hex digit"))
                    .collect();
                out.push((path.display().to_string(), bytes));
            }
        }
        assert!(out.len() > 30, "corpus not found in {}", dir.display());
        out
    }

    /// The live path's issue of `e`, its registers resolved by the identity renaming the
    /// prepared side is given too.
    fn live_issue(m: &mut Itanium2, shape: &SlotShape, e: &Exec, executes: bool) -> u64 {
        let (srcs, dsts) = registers(e, |kind, num| match kind {
            RegKind::Gr => identity(num),
            _ => fixed_res(kind, num),
        });
        m.issue(&issue_info(shape, e, &srcs, &dsts, executes))
    }

    /// r16-r127 as distinct resources (bank 1, then stacked by number).
    fn identity(n: u8) -> Res {
        match n {
            0..=15 => Res::gr_static(n),
            16..=31 => Res::gr_banked(n, 1),
            _ => Res::gr_stacked(u16::from(n - 32)),
        }
    }

    #[test]
    fn prepared_issue_times_every_corpus_walk_as_the_live_model_does() {
        let params = Itanium2Params::default();
        let mut rng = Xorshift64::new(0x9E37_79B9_7F4A_7C15);
        for (name, bytes) in corpus() {
            let region = predecode(0x4000, &bytes);
            let mut live = Itanium2::new(params.clone(), true);
            let mut fast = Itanium2::new(params.clone(), true);
            let prepared = prepare_region(&fast, &region);
            let (mut index, mut slot) = (0usize, 0u8);
            for step in 0..4 * region.bundles.len() * 3 {
                if index >= region.bundles.len() {
                    break;
                }
                let Some((shape, e)) = shape(&region, index, slot) else {
                    // Undecodable slot: both models lose the group and the walk goes on.
                    live.redirect();
                    fast.redirect();
                    (index, slot) = (index + 1, 0);
                    continue;
                };
                let executes = !rng.next_u64().is_multiple_of(4);
                let a = live_issue(&mut live, &shape, e, executes);
                let b =
                    fast.issue_prepared(&prepared[index][usize::from(slot)], shape.bundle, slot, executes, identity);
                assert_eq!(a, b, "{name}: step {step}, bundle {index} slot {slot}");
                let last = BundleFlow::of(shape.template).last_slot;
                (index, slot) = match rng.next_u64() % 16 {
                    0 => {
                        live.taken_branch();
                        fast.taken_branch();
                        (rng.next_u64() as usize % region.bundles.len(), 0)
                    }
                    1 => {
                        live.event(Event::Interruption);
                        fast.event(Event::Interruption);
                        (rng.next_u64() as usize % region.bundles.len(), 0)
                    }
                    _ if slot < last => (index, slot + 1),
                    _ => (index + 1, 0),
                };
            }
            assert_eq!(live.summary(), fast.summary(), "{name}");
            assert_eq!(live.timeline(), fast.timeline(), "{name}");
        }
    }
}
