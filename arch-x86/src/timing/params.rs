//! The figures of the x86-64 model, each a named field. Two presets: [`X86Params::golden_cove`]
//! (Sapphire Rapids' core, which shared/reference/x86-host.md describes) and
//! [`X86Params::zen4`] (what `arch-x86/timing-data/calibration.txt` found the calibration
//! machine to be: AMD family 25 model 17, EPYC Genoa). Latencies and costs are in core cycles.
//!
//! Sources, cited by name because they cannot be fetched here: [UOPS] uops.info tables (ADL-P for
//! Golden Cove, ZEN4), [AGNER] Agner Fog's instruction tables and microarchitecture guide,
//! [INTEL] Intel 64 and IA-32 Architectures Optimization Reference Manual, [CAL] our own
//! calibration.txt (the calibration machine), [REF] shared/reference/x86-host.md, [MCA] the
//! scheduling model of llvm-mca-19 (`llvm-mca-19 -mcpu=sapphirerapids -instruction-info`, run on
//! these machines: a published per-instruction model, read here, not recalled), [CAL-GC]
//! `arch-x86/timing-data/calibration-golden-cove.txt` (calibrate.sh on a Sapphire Rapids guest,
//! GenuineIntel family 6 model 167, with short runs: CALIB_ITER=10000 CALIB_REPS=201). A figure
//! recalled rather than read is marked GUESS; so is every figure with no source at all.

use std::fmt::Write as _;

/// Which core a parameter set describes (selects the source column of `explain_model`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Core {
    /// Intel Golden Cove (Sapphire Rapids, Alder Lake P).
    GoldenCove,
    /// AMD Zen 4 (EPYC 9004 Genoa), the core calibration.txt measured.
    Zen4,
}

/// Every figure of the model. `Default` is [`X86Params::golden_cove`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct X86Params {
    /// The core these figures describe.
    pub core: Core,
    /// Instructions dispatched (renamed/allocated) per cycle.
    pub issue_width: u64,
    /// Reorder-buffer entries: an instruction cannot dispatch before the one this many earlier retired.
    pub rob_size: u64,
    /// Integer ALU pipes (Alu, Lea, Movzx, Bit, Cmov, Setcc, Cqo, Xchg, MovImm, the ALU part of LoadAlu/Rmw).
    pub alu_pipes: u64,
    /// Pipes for shifts and rotates.
    pub shift_pipes: u64,
    /// Pipes for imul, mul, bit scans and popcnt (Intel: port 1 only).
    pub slow_int_pipes: u64,
    /// Load pipes (Load, LoadAlu, Rmw, Pop, Ret, Cmpxchg loads).
    pub load_pipes: u64,
    /// Store pipes (Store, Rmw, Push, Call, Pushf).
    pub store_pipes: u64,
    /// Branch pipes (Jcc, Jmp, Call, Ret and indirect forms).
    pub branch_pipes: u64,
    /// Latency of Alu ops (and the ALU step of LoadAlu/Rmw).
    pub alu: u64,
    /// Latency of `lea`.
    pub lea: u64,
    /// Latency of `mov r,r` (0 = eliminated at rename: no pipe, no latency).
    pub mov: u64,
    /// Latency of `mov r,imm`.
    pub mov_imm: u64,
    /// Latency of `movzx`/`movsx`/`movsxd` r,r.
    pub movzx: u64,
    /// Latency of shifts by an immediate.
    pub shift: u64,
    /// Latency of shifts by `cl`.
    pub shift_cl: u64,
    /// Latency of rotates.
    pub rotate: u64,
    /// Latency of bt/bts/btr/btc r,r.
    pub bit: u64,
    /// Latency of bsf/bsr/tzcnt/lzcnt.
    pub bit_scan: u64,
    /// Latency of popcnt.
    pub popcnt: u64,
    /// Latency of imul r,r(,imm).
    pub imul: u64,
    /// Latency of one-operand mul/imul (both halves, rdx being the later one).
    pub mul: u64,
    /// Latency of cmovcc.
    pub cmov: u64,
    /// Latency of setcc.
    pub setcc: u64,
    /// Latency of cbw..cqo.
    pub cqo: u64,
    /// Latency of xchg r,r.
    pub xchg: u64,
    /// Latency of div r8.
    pub div8: u64,
    /// Latency of div r16.
    pub div16: u64,
    /// Latency of div r32.
    pub div32: u64,
    /// Latency of div r64.
    pub div64: u64,
    /// Latency of idiv r8.
    pub idiv8: u64,
    /// Latency of idiv r16.
    pub idiv16: u64,
    /// Latency of idiv r32.
    pub idiv32: u64,
    /// Latency of idiv r64.
    pub idiv64: u64,
    /// Cycles the divider is busy per div/idiv of 8 to 32 bits (reciprocal throughput).
    pub div_busy32: u64,
    /// Cycles the divider is busy per 64-bit div/idiv.
    pub div_busy64: u64,
    /// Load-to-use latency, L1D hit (every load hits).
    pub load: u64,
    /// Store-to-load forwarding: a load contained in a recent store's bytes gets its data this
    /// many cycles after both the load and the store's data are ready.
    pub store_forward: u64,
    /// A load overlapping a recent store without being contained in it waits this long after the
    /// store's data (forwarding fails, the store must commit first).
    pub store_forward_fail: u64,
    /// Extra front-end cycles after a taken jmp/jcc beyond ending the dispatch group.
    pub taken_branch_bubble: u64,
    /// Front-end cycles from a call's dispatch to the next instruction's (the call is taken).
    pub call: u64,
    /// Front-end cycles from a ret's dispatch to the next instruction's.
    pub ret: u64,
    /// Locked RMW: completion after all earlier instructions completed; later memory ops wait for it.
    pub locked_rmw: u64,
    /// Unlocked cmpxchg latency.
    pub cmpxchg: u64,
    /// pushf: back-to-back cost (microcode-sequencer occupancy) and latency of the value it stores.
    pub pushf: u64,
    /// popf: back-to-back cost (microcode-sequencer occupancy; may change IF/AC/TF) and flags latency.
    pub popf: u64,
    /// cli: front-end cost.
    pub cli: u64,
    /// sti: front-end cost.
    pub sti: u64,
    /// rdtsc: back-to-back cost (microcode-sequencer occupancy).
    pub rdtsc: u64,
    /// rdtscp: waits for earlier instructions; front-end cost and result latency.
    pub rdtscp: u64,
    /// lfence: executes when earlier instructions completed; later ones dispatch this much later.
    pub lfence: u64,
    /// mfence: as lfence, with this cost (store buffer drain included).
    pub mfence: u64,
    /// pause: front-end cost.
    pub pause: u64,
    /// TSC ticks per 1000 core cycles (rdtsc returns the cycle times this / 1000).
    pub tsc_per_kcycle: u64,
    // microcode sequencer (issue 15)
    /// Uops the microcode sequencer delivers per cycle (front-end hold = uops / this, rounded up).
    pub ms_uops_per_cycle: u64,
    /// Uops of pushf (front-end delivery; its back-to-back cost is `pushf`).
    pub pushf_uops: u64,
    /// Uops of popf (front-end delivery; its back-to-back cost is `popf`).
    pub popf_uops: u64,
    /// Uops of rdtsc (front-end delivery; its back-to-back cost is `rdtsc`).
    pub rdtsc_uops: u64,
    /// rdtsc: cycles from execution to edx:eax ready.
    pub rdtsc_latency: u64,
    /// Extra completion cycles of a locked RMW that waited for a microcoded instruction.
    pub lock_after_microcode: u64,
}

impl Default for X86Params {
    /// Zen 4: the core calibration.txt was measured on (AMD EPYC family 25 model 17 under KVM, not
    /// the Sapphire Rapids `reference/x86-host.md` assumed), calibrated against them, so the
    /// model's cycles can be checked against measurements here. `golden_cove()` stays for
    /// comparison.
    fn default() -> Self {
        X86Params::zen4()
    }
}

/// One row of `explain_model`: name, value, then source and guess flag for each core.
struct Row {
    name: &'static str,
    value: u64,
    gc: &'static str,
    gc_guess: bool,
    z4: &'static str,
    z4_guess: bool,
}

const fn row(name: &'static str, value: u64, gc: (&'static str, bool), z4: (&'static str, bool)) -> Row {
    Row { name, value, gc: gc.0, gc_guess: gc.1, z4: z4.0, z4_guess: z4.1 }
}

/// Source with no GUESS mark.
const fn s(text: &'static str) -> (&'static str, bool) {
    (text, false)
}

/// Source marked GUESS.
const fn g(text: &'static str) -> (&'static str, bool) {
    (text, true)
}

/// The presets `--model NAME` can name (issue 16): Zen 4 (the default) and Golden Cove.
pub const PRESETS: [&str; 2] = ["zen4", "golden-cove"];

impl X86Params {
    /// The preset called `name` (see [`PRESETS`]; `golden_cove` and `goldencove` also name
    /// Golden Cove), any case.
    pub fn preset(name: &str) -> Option<X86Params> {
        match name.to_ascii_lowercase().as_str() {
            "zen4" | "zen-4" => Some(X86Params::zen4()),
            "golden-cove" | "golden_cove" | "goldencove" => Some(X86Params::golden_cove()),
            _ => None,
        }
    }

    /// The preset's name in [`PRESETS`].
    pub fn name(&self) -> &'static str {
        match self.core {
            Core::Zen4 => "zen4",
            Core::GoldenCove => "golden-cove",
        }
    }

    /// Front-end cycles the microcode sequencer needs to deliver `uops` (at least 1).
    pub fn delivery(&self, uops: u64) -> u64 {
        uops.div_ceil(self.ms_uops_per_cycle.max(1)).max(1)
    }

    /// Golden Cove, the core of Sapphire Rapids.
    pub fn golden_cove() -> Self {
        X86Params {
            core: Core::GoldenCove,
            issue_width: 6,
            rob_size: 512,
            alu_pipes: 5,
            shift_pipes: 2,
            slow_int_pipes: 1,
            load_pipes: 3,
            store_pipes: 2,
            branch_pipes: 2,
            alu: 1,
            lea: 1,
            mov: 0,
            mov_imm: 1,
            movzx: 1,
            shift: 1,
            shift_cl: 2,
            rotate: 1,
            bit: 1,
            bit_scan: 3,
            popcnt: 3,
            imul: 3,
            mul: 3,
            cmov: 1,
            setcc: 1,
            cqo: 1,
            xchg: 2,
            div8: 15,
            div16: 15,
            div32: 11,
            div64: 14,
            idiv8: 15,
            idiv16: 15,
            idiv32: 11,
            idiv64: 14,
            div_busy32: 6,
            div_busy64: 10,
            load: 5,
            store_forward: 1,
            store_forward_fail: 19,
            taken_branch_bubble: 0,
            call: 2,
            ret: 2,
            locked_rmw: 18,
            cmpxchg: 7,
            pushf: 1,
            popf: 28,
            cli: 4,
            sti: 13,
            rdtsc: 29,
            rdtscp: 46,
            lfence: 12,
            mfence: 38,
            pause: 35,
            tsc_per_kcycle: 724,
            ms_uops_per_cycle: 4,
            pushf_uops: 4,
            popf_uops: 7,
            rdtsc_uops: 15,
            rdtsc_latency: 18,
            lock_after_microcode: 13,
        }
    }

    /// Zen 4, the core the calibration machine turned out to be; measured figures from calibration.txt.
    pub fn zen4() -> Self {
        X86Params {
            core: Core::Zen4,
            issue_width: 6,
            rob_size: 320,
            alu_pipes: 4,
            shift_pipes: 2,
            slow_int_pipes: 1,
            load_pipes: 3,
            store_pipes: 2,
            branch_pipes: 2,
            alu: 1,
            lea: 1,
            mov: 0,
            mov_imm: 1,
            movzx: 1,
            shift: 1,
            shift_cl: 1,
            rotate: 1,
            bit: 1,
            bit_scan: 1,
            popcnt: 1,
            imul: 3,
            mul: 3,
            cmov: 1,
            setcc: 1,
            cqo: 1,
            xchg: 1,
            div8: 10,
            div16: 11,
            div32: 12,
            div64: 15,
            idiv8: 10,
            idiv16: 11,
            idiv32: 13,
            idiv64: 15,
            div_busy32: 6,
            div_busy64: 9,
            load: 4,
            store_forward: 1,
            store_forward_fail: 14,
            taken_branch_bubble: 2,
            call: 2,
            ret: 2,
            locked_rmw: 8,
            cmpxchg: 9,
            pushf: 5,
            popf: 15,
            cli: 4,
            sti: 13,
            rdtsc: 35,
            rdtscp: 65,
            lfence: 17,
            mfence: 58,
            pause: 90,
            tsc_per_kcycle: 712,
            ms_uops_per_cycle: 4,
            pushf_uops: 4,
            popf_uops: 8,
            rdtsc_uops: 16,
            rdtsc_latency: 35,
            lock_after_microcode: 0,
        }
    }

    fn rows(&self) -> [Row; 59] {
        let p = self;
        [
            row(
                "issue_width",
                p.issue_width,
                s("[INTEL] Golden Cove allocation width 6"),
                s("[AGNER] Zen 4 dispatch 6 macro-ops"),
            ),
            row("rob_size", p.rob_size, s("[INTEL] Golden Cove ROB 512"), s("[AGNER] Zen 4 ROB 320")),
            row("alu_pipes", p.alu_pipes, s("[INTEL] ports 0,1,5,6,10"), s("[AGNER] 4 integer ALUs")),
            row("shift_pipes", p.shift_pipes, s("[UOPS] ADL-P shifts p06"), g("[AGNER] shifts on 2 ALUs")),
            row(
                "slow_int_pipes",
                p.slow_int_pipes,
                s("[UOPS] ADL-P imul/popcnt/tzcnt p1"),
                g("[AGNER] one multiplier"),
            ),
            row("load_pipes", p.load_pipes, s("[INTEL] ports 2,3,11"), s("[AGNER] 3 loads/cycle")),
            row("store_pipes", p.store_pipes, s("[INTEL] 2 store data ports 4,9"), s("[AGNER] 2 stores/cycle")),
            row("branch_pipes", p.branch_pipes, s("[INTEL] ports 0,6 (taken on 6)"), s("[AGNER] 2 branch units")),
            row("alu", p.alu, s("[UOPS] ADL-P add r,r 1"), s("[CAL] add_chain (defines the ratio)")),
            row(
                "lea",
                p.lea,
                g("[UOPS] ADL-P lea 1 (3-operand form recalled as 1)"),
                g("[AGNER] Zen 4 lea 1 (complex 2)"),
            ),
            row("mov", p.mov, s("[UOPS] ADL-P mov r,r [0;1]: move elimination"), s("[AGNER] Zen 4 move elimination")),
            row("mov_imm", p.mov_imm, s("[UOPS] 1"), s("[AGNER] 1")),
            row("movzx", p.movzx, s("[UOPS] ADL-P movzx 1"), s("[AGNER] 1")),
            row("shift", p.shift, s("[UOPS] ADL-P shl r,imm 1"), s("[AGNER] 1")),
            row("shift_cl", p.shift_cl, g("[UOPS] ADL-P shl r,cl 2 uops, lat [1;2]"), s("[AGNER] Zen 4 shl r,cl 1")),
            row("rotate", p.rotate, s("[UOPS] ADL-P rol r,imm 1"), s("[AGNER] 1")),
            row("bit", p.bit, s("[UOPS] ADL-P bt r,r 1"), s("[AGNER] 1")),
            row("bit_scan", p.bit_scan, s("[UOPS] ADL-P tzcnt/bsf 3 on p1"), g("[AGNER] Zen 4 tzcnt/lzcnt 1 (bsf 3+)")),
            row("popcnt", p.popcnt, s("[UOPS] ADL-P popcnt 3 on p1"), s("[AGNER] Zen 4 popcnt 1")),
            row("imul", p.imul, s("[UOPS] ADL-P imul r64,r64 3"), s("[CAL] imul_chain 3")),
            row("mul", p.mul, s("[CAL-GC] mul_chain 3.00 (rax)"), s("[CAL] mul_chain 3 (rax)")),
            row("cmov", p.cmov, s("[UOPS] ADL-P cmov 1"), s("[AGNER] 1")),
            row("setcc", p.setcc, s("[UOPS] ADL-P setcc 1"), s("[AGNER] 1")),
            row("cqo", p.cqo, s("[UOPS] ADL-P cqo 1"), s("[AGNER] 1")),
            row("xchg", p.xchg, g("[UOPS] ADL-P xchg r,r 3 uops [1;2]"), g("[AGNER] Zen 4 xchg r,r 1 (renamed)")),
            row("div8", p.div8, g("[AGNER] Ice Lake div r8 ~15"), g("[AGNER] Zen 4 div r8 ~10")),
            row("div16", p.div16, g("[AGNER] Ice Lake div r16 ~15"), g("[AGNER] Zen 4 div r16 ~11")),
            row("div32", p.div32, s("[CAL-GC] div32_chain 11.0"), s("[CAL] div32_chain 12.2")),
            row("div64", p.div64, s("[CAL-GC] div64_chain 14.0"), s("[CAL] div64_chain 15.1")),
            row("idiv8", p.idiv8, g("[AGNER] Ice Lake idiv r8 ~15"), g("[AGNER] Zen 4 idiv r8 ~10")),
            row("idiv16", p.idiv16, g("[AGNER] Ice Lake idiv r16 ~15"), g("[AGNER] Zen 4 idiv r16 ~11")),
            row("idiv32", p.idiv32, s("[CAL-GC] idiv32_chain 11.0"), s("[CAL] idiv32_chain 12.8")),
            row("idiv64", p.idiv64, s("[CAL-GC] idiv64_chain 14.0"), s("[CAL] idiv64_chain 14.9")),
            row("div_busy32", p.div_busy32, g("[AGNER] Ice Lake div r32 rtp 6"), g("[AGNER] Zen 4 div r32 rtp 6")),
            row("div_busy64", p.div_busy64, g("[AGNER] Ice Lake div r64 rtp 10"), g("[AGNER] Zen 4 div r64 rtp 9")),
            row("load", p.load, s("[INTEL] Golden Cove L1D load-to-use 5"), s("[CAL] load_chain 4.0")),
            row(
                "store_forward",
                p.store_forward,
                s("[CAL-GC] stlf_chain 0.5 (forwarded faster than a load: memory renaming; 1 is the model's floor)"),
                s("[CAL] stlf_chain 1.0 (memory renaming)"),
            ),
            row(
                "store_forward_fail",
                p.store_forward_fail,
                g("[AGNER] Intel failed forwarding ~19"),
                g("[AGNER] Zen failed forwarding ~14"),
            ),
            row(
                "taken_branch_bubble",
                p.taken_branch_bubble,
                g("[INTEL] zero-bubble taken branches from the BTB; [CAL-GC] jmp_taken 3.1 is ten jumps in a row, not a loop"),
                s("[CAL] jmp_taken 2.9 = 1 + 2"),
            ),
            row("call", p.call, s("[CAL-GC] call_ret 4.4, split evenly"), s("[CAL] call_ret 4.1-4.8, split evenly")),
            row("ret", p.ret, s("[CAL-GC] call_ret 4.4, split evenly"), s("[CAL] call_ret 4.1-4.8, split evenly")),
            row(
                "locked_rmw",
                p.locked_rmw,
                s("[CAL-GC] lock_add 18.0, lock_cmpxchg 19.5"),
                s("[CAL] lock_add 7.5, lock_cmpxchg 9.1"),
            ),
            row("cmpxchg", p.cmpxchg, s("[CAL-GC] cmpxchg 7.0"), s("[CAL] cmpxchg 9.0")),
            row(
                "pushf",
                p.pushf,
                s("[CAL-GC] pushf_pop 1.0 (pop is a load)"),
                s("[CAL] pushf_pop 4.0-5.8 over two runs (pop is a load)"),
            ),
            row("popf", p.popf, s("[CAL-GC] pushf_popf 28.7 minus pushf"), s("[CAL] pushf_popf 19-21 minus pushf")),
            row(
                "cli",
                p.cli,
                g("none: not measurable at CPL 3; Skylake-era figure recalled"),
                g("none: not measurable at CPL 3"),
            ),
            row(
                "sti",
                p.sti,
                g("none: not measurable at CPL 3; Skylake-era figure recalled"),
                g("none: not measurable at CPL 3"),
            ),
            row("rdtsc", p.rdtsc, s("[CAL-GC] rdtsc 29.0"), s("[CAL] rdtsc 35.0")),
            row("rdtscp", p.rdtscp, s("[CAL-GC] rdtscp 46.1"), s("[CAL] rdtscp 64.9")),
            row("lfence", p.lfence, s("[CAL-GC] lfence 12.1"), s("[CAL] lfence 17.0")),
            row("mfence", p.mfence, s("[CAL-GC] mfence 38.2"), s("[CAL] mfence 57.9")),
            row("pause", p.pause, s("[CAL-GC] pause 34.7"), s("[CAL] pause 89.8")),
            row(
                "tsc_per_kcycle",
                p.tsc_per_kcycle,
                s("[CAL-GC] tsc_ticks_per_add 0.7237 ([REF] 0.65-0.69)"),
                s("[CAL] tsc_ticks_per_add 0.712"),
            ),
            // microcode sequencer (issue 15)
            row(
                "ms_uops_per_cycle",
                p.ms_uops_per_cycle,
                s("[INTEL] the MSROM delivers up to 4 uops per cycle"),
                g("Intel's figure assumed for Zen 4's microcode ROM"),
            ),
            row("pushf_uops", p.pushf_uops, s("[MCA] SPR model: pushfq 4 uops"), g("recalled; LLVM's znver4 says 1")),
            row("popf_uops", p.popf_uops, s("[MCA] SPR model: popfq 7 uops"), g("recalled; LLVM's znver4 says 1")),
            row(
                "rdtsc_uops",
                p.rdtsc_uops,
                s("[MCA] SPR model: rdtsc 15 uops"),
                g("recalled; LLVM's znver4 has 100 (placeholder)"),
            ),
            row(
                "rdtsc_latency",
                p.rdtsc_latency,
                s("[MCA] SPR model: rdtsc latency 18"),
                g("no latency figure apart from the cost: [CAL] rdtsc 35.0 as an upper bound"),
            ),
            row(
                "lock_after_microcode",
                p.lock_after_microcode,
                s("[CAL-GC] pushf_popf_lock 59.4 - 28.7 - 18.0; rdtsc_lock 60.0 - 29.0 - 18.0"),
                g("not measured on the Zen 4 machine"),
            ),
        ]
    }

    /// A text table of every figure: name, value, `GUESS` where the figure is recalled or has no
    /// source, and the source for this parameter set's core.
    pub fn explain_model(&self) -> String {
        let rows = self.rows();
        let width = rows.iter().map(|r| r.name.len()).max().unwrap_or(0);
        let core = match self.core {
            Core::GoldenCove => "Golden Cove (Sapphire Rapids)",
            Core::Zen4 => "Zen 4 (EPYC Genoa, the calibration machine)",
        };
        let mut out = String::new();
        let _ = writeln!(out, "x86-64 model of {core}; cycles are core cycles");
        let _ = writeln!(out, "{:<width$}  {:>5}  {:<5}  source", "parameter", "value", "guess");
        for r in rows.iter() {
            let (src, guess) = match self.core {
                Core::GoldenCove => (r.gc, r.gc_guess),
                Core::Zen4 => (r.z4, r.z4_guess),
            };
            let guess = if guess { "GUESS" } else { "" };
            let _ = writeln!(out, "{:<width$}  {:>5}  {:<5}  {}", r.name, r.value, guess, src);
        }
        out
    }
}
