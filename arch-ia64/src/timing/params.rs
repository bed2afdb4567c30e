//! The figures of the Itanium 2 model, each a named field with its source from
//! `shared/reference/itanium2-timing.md` (source keys in brackets). Where the reference marks a
//! figure "(?)" or gives none, the field's doc says GUESS and why; `explain_model` prints the table.
//!
//! Latencies are producer-to-consumer distances in cycles (1 = usable in the next cycle,
//! reference section 2). When sources disagree the reference's order applies: Linux comments,
//! then [KAPI], then [GCC].
//!
//! # The figures the accounting paths depend on (issue 15)
//!
//! Linux comments were re-read in the 6.1 tree (`/usr/src/linux-source-6.1.tar.xz`,
//! `arch/ia64/kernel/`, 2026-12-02); "ivt.S:729" is file and line there. [KAPI]'s header says its
//! AR/CR figures "are from Itanium -- no info on McKinley yet", which is why a Linux comment, written
//! for McKinley, wins over it. Figures with a parameter say so on the field; these have none, and
//! what the model does for them is:
//! - `cover` (B2), `clrrrb`: no latency of their own; a result they write (cr.ifs) takes `other`
//!   ([KAPI] RSE_B 1, marked approximate). Linux gives no figure.
//! - `flushrs`, `loadrs` (M0 only, first in a group): a result takes `other` ([KAPI] RSE_M 1,
//!   approximate; [GCC] rse_m 0). The RSE's own traffic (loadrs reloading the dirty partition,
//!   flushrs spilling it) is NOT modelled: no source gives its rate (entry.S's "5 registers/cycle on
//!   McKinley" is the software clearing loop, which the model runs instruction by instruction).
//! - `bsw.0`/`bsw.1` (B2): ivt.S:849 `BSW_1(r2, r14) // B (6 cyc)`, and [PFM] has a back-end stall
//!   BE_EXE_BUBBLE.BANK_SWITCH, so consumers of the new bank wait after a switch; NOT MODELLED (the
//!   model charges bsw nothing beyond its slot). Missing, not a guess.
//! - `srlz.d`/`srlz.i` (M0): the split after them ([GATE] gate.S:345 "M0 (forces split-issue)");
//!   no cycle figure found (timing-facts B.4: UNCONFIRMED), so no wait beyond the split.
//! - `rsm`/`ssm`: `psr_mask`. `rfi`, `epc`, `break`: `rfi_cost`, `epc_cost`, `break_cost` (GUESSes).
//! - `br.call`/`br.ret`: results (b0, ar.pfs) take `other` ([KAPI] BR 1); a branch reads its
//!   predicate with `cmp_to_branch`, b-registers with `mov_to_br_to_branch`, ar.pfs with
//!   `mov_to_ar_i_to_branch`. Taken: `taken_branch_bubble` (GUESS).
//! - `alloc`: `alloc` ([KAPI] SYST_M2 1, approximate).
//! - `st8` then `ld8` to the same cache line: NOT MODELLED: every load hits L1D in `load` cycles.
//!   [PFM] lists store-related L1D stalls (store buffer full, ordering conflicts, ld8.fill against a
//!   st8.spill not yet in ar.unat) raised at DET, but no source gives a cycle figure.
//! - Any slot of an issue group waits for the whole group (lockstep, see the `timing` module doc).

use std::fmt::Write as _;

/// Every figure of the model. `Default` is Madison (Itanium 2, 1.5 GHz) as documented.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Itanium2Params {
    /// Bundles dispersed per cycle (the dispersal window). [KAPI] `cluster0MaxBundleIssue := 2`; [GCC].
    /// 1 disables pairing; values above 2 act as 2 (the port rules know two bundle positions).
    pub bundles_per_cycle: u8,
    /// Integer ALU (A type), `movl`, `sxt`/`zxt`/`czx`. [GCC] ialu 1, [KAPI] 1.
    pub alu: u64,
    /// `cmp`/`tbit`/`tnat` predicate to a branch's qualifying predicate. [GCC] bypass 0, [KAPI] ICMP 0.
    pub cmp_to_branch: u64,
    /// `cmp`/`tbit`/`tnat` predicate to anything else. [GCC] icmp 1, [KAPI] 0+1.
    pub cmp_to_other: u64,
    /// `extr`/`dep`/`shrp` and immediate shifts (ishf). [GCC] 1, [KAPI] ISHF 1. The table gives variable
    /// shifts (mmshf, 2) the same class, so they get this figure too.
    pub shift: u64,
    /// Integer load, L1D hit, to an ALU or store-data use. [GCC] ld 1, [KAPI] LD 1.
    pub load: u64,
    /// Integer load to the address of a load or store (pointer chase). [GCC] bypass 2, [KAPI] +1.
    pub load_to_address: u64,
    /// Post-increment base register update of a load or store. [KAPI] 1.
    pub base_update: u64,
    /// FP load. [GCC] fld 6, [KAPI] 6.
    pub fp_load: u64,
    /// `xchg`/`cmpxchg`/`fetchadd` result. [KAPI] SEM 6 (GCC's sem 0 is no latency at all).
    pub atomic: u64,
    /// `getf`. [GCC] frfr 5, [KAPI] 5.
    pub getf: u64,
    /// `setf`. [GCC] tofr 5, [KAPI] 5 (the +1 into getf/stf is not modelled).
    pub setf: u64,
    /// `fma` family and `fmerge`. [GCC] fmac/fmisc 4, [KAPI] 4.
    pub fp_op: u64,
    /// `mov r=pr`. [IVT] ivt.S:731 "I0 (2 cyc)", [FSYS] fsys.S:475, [GCC] frpr 2, [KAPI] 2.
    pub mov_from_pr: u64,
    /// `mov pr=r`. [GCC] topr 1, [KAPI] TOPR 1.
    pub mov_to_pr: u64,
    /// `mov r=b`. [IVT] ivt.S:739 `mov r19=b6 // I0 (2 cyc)`, ivt.S:962 b0, [GCC] frbr 2, [KAPI] 2.
    pub mov_from_br: u64,
    /// `mov b=r` to a non-branch reader (`mov r=b`). [KAPI] TOBR +1.
    pub mov_to_br: u64,
    /// `mov b=r` to the indirect branch that uses it. [FSYS] fsys.S:505 "mov b6=r18 (7 cyc)", preferred over [KAPI]
    /// 0; the reference marks what the 7 covers "(?)", so GUESS.
    pub mov_to_br_to_branch: u64,
    /// `mov r=ip`. GUESS: no source; an I0 move like `mov r=b` minus the BR read, so the ALU figure 1.
    pub mov_from_ip: u64,
    /// `mov.i r=ar.pfs/lc/ec`. [IVT] ivt.S:743 "mov.i r26=ar.pfs I0 (2 cyc)", [KAPI] FRAR_I 2.
    pub mov_from_ar_i: u64,
    /// `mov.i ar.pfs/lc/ec=r` to a non-branch reader. [KAPI] 1.
    pub mov_to_ar_i: u64,
    /// `mov.i ar.pfs=r` to the branch (`br.ret`) that reads it. [KAPI] 0, [GCC] toar_i 0.
    pub mov_to_ar_i_to_branch: u64,
    /// `mov r=ar.k0-7`. [IVT] ivt.S:729 `mov.m r16=IA64_KR(CURRENT) // M2 ... (12 cyc)`, [ENT]
    /// entry.S:909 "M2 (12 cycle read latency)", [GATE] gate.S:332 "M2 (12 cyc)"; [FBSD] measured 12
    /// ITC ticks (KAPI 13).
    pub from_ar_k: u64,
    /// `mov r=ar.rsc/bsp/bspstore/fpsr`. [IVT] "M2 (12 cyc)" each: ar.rsc ivt.S:734, ar.fpsr
    /// ivt.S:738, ar.bspstore ivt.S:741, ar.bsp ivt.S:815; [FSYS] fsys.S:493 ar.bspstore and
    /// fsys.S:508 ar.bsp "(12 cyc)"; [GATE] gate.S:341 ar.fpsr, gate.S:357 ar.rsc (KAPI 13).
    pub from_ar_rse: u64,
    /// `mov r=ar.unat/rnat/ccv`. [IVT] ivt.S:742 ar.rnat and ivt.S:798 ar.unat "M2 (5 cyc)",
    /// [FSYS] fsys.S:494 and fsys.S:500 the same (GCC frar_m 6, KAPI 6). ar.ccv has no Linux
    /// figure; it shares KAPI's and GCC's class with ar.unat, so it takes the same.
    pub from_ar_unat: u64,
    /// `mov r=ar.itc`. [FSYS] fsys.S:236 `MOV_FROM_ITC(p8, p6, r2, r10) // CPU_TIMER. 36 clocks
    /// latency!!!` (Linux 6.1; the same comment sat on `mov r2 = ar.itc` before the paravirt
    /// macros). [KAPI] says 38, but from Itanium figures by its own header, so the Linux figure,
    /// written for McKinley, is used.
    pub from_ar_itc: u64,
    /// `mov r=ar.*` for any other M-side AR. GUESS: no source; the common M2 AR figure 12 of [IVT].
    pub from_ar_other: u64,
    /// `mov.m ar.rsc=imm`. [KAPI] 1 (approximate: KAPI's AR figures are Itanium's); no Linux figure.
    pub to_ar_rsc_imm: u64,
    /// `mov.m ar.rsc=r`. [KAPI] 10 (approximate, as `to_ar_rsc_imm`); no Linux figure.
    pub to_ar_rsc: u64,
    /// `mov ar.bspstore=r`. [FSYS] fsys.S:497 `mov ar.bspstore=r22 // M2 (6 cyc) switch to kernel
    /// RBS` (KAPI 5, 10 to spill/fill).
    pub to_ar_bspstore: u64,
    /// `mov ar.unat/ccv=r`. [GCC] toar_m 5, [KAPI] 5.
    pub to_ar_unat: u64,
    /// `mov ar.fpsr=r` to an explicit read. [KAPI] 2 (9 to an FP op, which reads it implicitly).
    pub to_ar_fpsr: u64,
    /// `mov ar.rnat=r`. [KAPI] 9.
    pub to_ar_rnat: u64,
    /// `mov ar.k0-7=r`. [KAPI] 2.
    pub to_ar_k: u64,
    /// `mov ar.itc=r`. [KAPI] 35.
    pub to_ar_itc: u64,
    /// `mov ar.*=r` for any other M-side AR. GUESS: no source; the toar_m figure 5 of [GCC]/[KAPI].
    pub to_ar_other: u64,
    /// `mov r=cr.iip/iim/isr/iipa/iva`. [IVT] ivt.S:733 cr.iim and ivt.S:752 cr.iip "M2 (2 cyc)",
    /// [KAPI] 2 for the whole group.
    pub from_cr_fast: u64,
    /// `mov r=cr.ipsr/ifa/itir/ifs/iha/dcr/pta`. [IVT] ivt.S:730 cr.ipsr "M2 (12 cyc)"; the rest share [KAPI]'s
    /// group (13) with cr.ipsr, so they take the Linux figure too.
    pub from_cr_slow: u64,
    /// `mov r=cr.ivr/itm/tpr/itv/lid/lrr*/irr*/eoi`. [KAPI] 38.
    pub from_cr_interrupt: u64,
    /// `mov r=cr.*` for any other CR. GUESS: no source; the slow CR figure 12.
    pub from_cr_other: u64,
    /// `mov cr.iip/isr/ifa/itir=r` (to srlz or rfi). [KAPI] 5.
    pub to_cr_fast: u64,
    /// `mov cr.ipsr/ifs/iim/iha=r` (to srlz or rfi). [KAPI] 10.
    pub to_cr_slow: u64,
    /// `mov cr.itm/tpr/itv/eoi/lrr*=r` (to srlz). [KAPI] 35.
    pub to_cr_interrupt: u64,
    /// `mov cr.*=r` for any other CR. GUESS: no source; the slow figure 10.
    pub to_cr_other: u64,
    /// `mov r=psr`. [GATE] gate.S:337 "M2 (12 cyc)", [FSYS] fsys.S:400 "read psr (12 cyc load
    /// latency)" (KAPI 1, approximate).
    pub from_psr: u64,
    /// `mov psr.l=r`, `mov psr.um=r`. [KAPI] SYST_M2 1 (approximate).
    pub to_psr: u64,
    /// `rsm`/`ssm`/`sum`/`rum`. [GATE] gate.S:329 `RSM_PSR_BE_I(r20, r22) // M2 (5 cyc to srlz.d)`.
    /// PSR is no scoreboard resource, so the figure applies only to destinations a row lists.
    pub psr_mask: u64,
    /// `alloc` result (the old ar.pfs). [KAPI] SYST_M2 1 (approximate).
    pub alloc: u64,
    /// `probe` result. [FSYS] fsys.S:354 "M This takes 5 cycles".
    pub probe: u64,
    /// `thash`/`ttag`/`tpa`/`tak` result. GUESS: no source; the M2 system figure of `probe`, 5.
    pub tlb: u64,
    /// Results of `br.call` (b0, ar.pfs) and any class not named above. [KAPI] BR 1; [GCC] "unknown 1".
    pub other: u64,
    // F unit (issue 12)
    /// `fcmp`/`fclass` predicate to a non-branch reader. [GCC] fcmp 2; reference table "fcmp 2".
    pub fp_cmp: u64,
    /// `fcmp`/`fclass` predicate to a branch's qualifying predicate. [GCC] bypass fcmp->br 1.
    pub fp_cmp_to_branch: u64,
    /// `fsetc`/`fclrf` to a reader of ar.fpsr. GUESS: no source gives these; taken as the
    /// [GCC] fmisc figure (4) of the F-unit misc operations.
    pub fp_status: u64,
    /// Cycles lost after a taken branch. GUESS: no source gives it (reference section 2). The front end
    /// is 2 stages (IPG ROT, [OSDEV]); a predicted-taken branch resteers fetch and loses one cycle.
    pub taken_branch_bubble: u64,
    /// Cost of `break` raising its interruption. GUESS: no source; "break always flushes the pipeline"
    /// (SDM vol. 2 section 4.4), so one refill of the 8-stage pipeline ([OSDEV]).
    pub break_cost: u64,
    /// Cost of delivering any other interruption. GUESS: as `break_cost`, one 8-stage pipeline refill.
    pub interruption_cost: u64,
    /// Cost of `rfi` (serializing, resteers to cr.iip). GUESS: no source ([KAPI] models no flush); one
    /// 8-stage pipeline refill like `break`.
    pub rfi_cost: u64,
    /// Cost of `epc` beyond its split issue. GUESS: epc "is designed not to" flush (SDM vol. 2 section
    /// 4.4) and [GATE] names only the split issue, which the dispersal rules already charge: 0.
    pub epc_cost: u64,
    // multimedia (issue 12)
    /// Parallel ALU ops (padd, psub, pavg, pcmp, pshladd2, pmin/pmax/psad1). [GCC] mmalua 2, [KAPI] 2.
    pub mm_alu: u64,
    /// mix, mux, pack, unpack and shifts by a register. [GCC] mmshf 2, [KAPI] MMSHF 2.
    pub mm_shift: u64,
    /// Parallel shifts by an immediate. [GCC] mmshfi 1.
    pub mm_shift_imm: u64,
    /// pmpy, pmpyshr, popcnt, clz, mpy4 (I0 only). [GCC] mmmul 2.
    pub mm_mul: u64,
    /// Extra cycles when a multimedia result feeds an integer ALU, shift, load or store:
    /// [GCC] bypass "MM ops->ialu/ilog/ishf/ld/st 3", [KAPI] +1. The scoreboard cannot tell an
    /// MM consumer from an integer one, so every consumer pays it (MM to MM is 1 too slow).
    pub mm_to_integer: u64,
}

impl Default for Itanium2Params {
    fn default() -> Self {
        Itanium2Params {
            bundles_per_cycle: 2,
            alu: 1,
            cmp_to_branch: 0,
            cmp_to_other: 1,
            shift: 1,
            load: 1,
            load_to_address: 2,
            base_update: 1,
            fp_load: 6,
            atomic: 6,
            getf: 5,
            setf: 5,
            fp_op: 4,
            mov_from_pr: 2,
            mov_to_pr: 1,
            mov_from_br: 2,
            mov_to_br: 1,
            mov_to_br_to_branch: 7,
            mov_from_ip: 1,
            mov_from_ar_i: 2,
            mov_to_ar_i: 1,
            mov_to_ar_i_to_branch: 0,
            from_ar_k: 12,
            from_ar_rse: 12,
            from_ar_unat: 5,
            from_ar_itc: 36,
            from_ar_other: 12,
            to_ar_rsc_imm: 1,
            to_ar_rsc: 10,
            to_ar_bspstore: 6,
            to_ar_unat: 5,
            to_ar_fpsr: 2,
            to_ar_rnat: 9,
            to_ar_k: 2,
            to_ar_itc: 35,
            to_ar_other: 5,
            from_cr_fast: 2,
            from_cr_slow: 12,
            from_cr_interrupt: 38,
            from_cr_other: 12,
            to_cr_fast: 5,
            to_cr_slow: 10,
            to_cr_interrupt: 35,
            to_cr_other: 10,
            from_psr: 12,
            to_psr: 1,
            psr_mask: 5,
            alloc: 1,
            probe: 5,
            tlb: 5,
            other: 1,
            fp_cmp: 2,
            fp_cmp_to_branch: 1,
            fp_status: 4,
            taken_branch_bubble: 1,
            break_cost: 8,
            interruption_cost: 8,
            rfi_cost: 8,
            epc_cost: 0,
            mm_alu: 2,
            mm_shift: 2,
            mm_shift_imm: 1,
            mm_mul: 2,
            mm_to_integer: 1,
        }
    }
}

/// One row of [`Itanium2Params::explain_model`].
struct Row {
    name: &'static str,
    value: u64,
    source: &'static str,
    guess: bool,
}

const fn row(name: &'static str, value: u64, source: &'static str, guess: bool) -> Row {
    Row { name, value, source, guess }
}

impl Itanium2Params {
    fn rows(&self) -> [Row; 64] {
        let p = self;
        [
            row("bundles_per_cycle", u64::from(p.bundles_per_cycle), "[KAPI] cluster0MaxBundleIssue, [GCC]", false),
            row("alu", p.alu, "[GCC] ialu, [KAPI]", false),
            row("cmp_to_branch", p.cmp_to_branch, "[GCC] icmp->br bypass, [KAPI] ICMP", false),
            row("cmp_to_other", p.cmp_to_other, "[GCC] icmp, [KAPI]", false),
            row("shift", p.shift, "[GCC] ishf, [KAPI] ISHF (also variable shifts: same class)", false),
            row("load", p.load, "[GCC] ld, [KAPI] LD", false),
            row("load_to_address", p.load_to_address, "[GCC] ld->ld/st addr bypass, [KAPI]", false),
            row("base_update", p.base_update, "[KAPI] post-increment", false),
            row("fp_load", p.fp_load, "[GCC] fld, [KAPI]", false),
            row("atomic", p.atomic, "[KAPI] SEM (GCC sem 0)", false),
            row("getf", p.getf, "[GCC] frfr, [KAPI]", false),
            row("setf", p.setf, "[GCC] tofr, [KAPI]", false),
            row("fp_op", p.fp_op, "[GCC] fmac/fmisc, [KAPI]", false),
            row("mov_from_pr", p.mov_from_pr, "[IVT] I0 (2 cyc), [GCC] frpr, [KAPI]", false),
            row("mov_to_pr", p.mov_to_pr, "[GCC] topr, [KAPI] TOPR", false),
            row("mov_from_br", p.mov_from_br, "[IVT] I0 (2 cyc), [GCC] frbr, [KAPI]", false),
            row("mov_to_br", p.mov_to_br, "[KAPI] TOBR +1 to mov-from-br", false),
            row("mov_to_br_to_branch", p.mov_to_br_to_branch, "[FSYS] mov b6=r18 (7 cyc), marked (?)", true),
            row("mov_from_ip", p.mov_from_ip, "none; ALU figure", true),
            row("mov_from_ar_i", p.mov_from_ar_i, "[IVT] mov.i r26=ar.pfs I0 (2 cyc), [KAPI] FRAR_I", false),
            row("mov_to_ar_i", p.mov_to_ar_i, "[KAPI] 1 to mov-from", false),
            row("mov_to_ar_i_to_branch", p.mov_to_ar_i_to_branch, "[KAPI] 0 to a branch, [GCC] toar_i", false),
            row("from_ar_k", p.from_ar_k, "[IVT]/[ENT] M2 (12 cyc), [FBSD] 12", false),
            row("from_ar_rse", p.from_ar_rse, "[IVT] M2 (12 cyc)", false),
            row("from_ar_unat", p.from_ar_unat, "[IVT] M2 (5 cyc)", false),
            row("from_ar_itc", p.from_ar_itc, "[FSYS] fsys.S:236 36 clocks latency (KAPI 38, Itanium's)", false),
            row("from_ar_other", p.from_ar_other, "none; [IVT] M2 AR figure", true),
            row("to_ar_rsc_imm", p.to_ar_rsc_imm, "[KAPI]", false),
            row("to_ar_rsc", p.to_ar_rsc, "[KAPI]", false),
            row("to_ar_bspstore", p.to_ar_bspstore, "[FSYS] fsys.S:497 M2 (6 cyc)", false),
            row("to_ar_unat", p.to_ar_unat, "[GCC] toar_m, [KAPI]", false),
            row("to_ar_fpsr", p.to_ar_fpsr, "[KAPI] 2 to an explicit read", false),
            row("to_ar_rnat", p.to_ar_rnat, "[KAPI]", false),
            row("to_ar_k", p.to_ar_k, "[KAPI]", false),
            row("to_ar_itc", p.to_ar_itc, "[KAPI]", false),
            row("to_ar_other", p.to_ar_other, "none; [GCC] toar_m figure", true),
            row("from_cr_fast", p.from_cr_fast, "[IVT] M2 (2 cyc), [KAPI]", false),
            row("from_cr_slow", p.from_cr_slow, "[IVT] cr.ipsr M2 (12 cyc); KAPI group 13", false),
            row("from_cr_interrupt", p.from_cr_interrupt, "[KAPI]", false),
            row("from_cr_other", p.from_cr_other, "none; slow CR figure", true),
            row("to_cr_fast", p.to_cr_fast, "[KAPI] (to srlz)", false),
            row("to_cr_slow", p.to_cr_slow, "[KAPI] (to srlz)", false),
            row("to_cr_interrupt", p.to_cr_interrupt, "[KAPI] (to srlz)", false),
            row("to_cr_other", p.to_cr_other, "none; slow CR figure", true),
            row("from_psr", p.from_psr, "[IVT] M2 (12 cyc), [FSYS]", false),
            row("to_psr", p.to_psr, "[KAPI] SYST_M2 (approximate)", false),
            row("psr_mask", p.psr_mask, "[GATE] M2 (5 cyc to srlz.d)", false),
            row("alloc", p.alloc, "[KAPI] SYST_M2 (approximate)", false),
            row("probe", p.probe, "[FSYS] takes 5 cycles", false),
            row("tlb", p.tlb, "none; probe figure", true),
            row("other", p.other, "[KAPI] BR, [GCC] unknown", false),
            // F unit (issue 12).
            row("fp_cmp", p.fp_cmp, "[GCC] fcmp", false),
            row("fp_cmp_to_branch", p.fp_cmp_to_branch, "[GCC] fcmp->br bypass", false),
            row("fp_status", p.fp_status, "none; [GCC] fmisc figure", true),
            row("taken_branch_bubble", p.taken_branch_bubble, "none; 2-stage front end [OSDEV]", true),
            row("break_cost", p.break_cost, "none; flush of the 8-stage pipeline [OSDEV]", true),
            row("interruption_cost", p.interruption_cost, "none; as break_cost", true),
            row("rfi_cost", p.rfi_cost, "none; as break_cost", true),
            row("epc_cost", p.epc_cost, "none; epc does not flush (SDM), split charged apart", true),
            // multimedia (issue 12)
            row("mm_alu", p.mm_alu, "[GCC] mmalua, [KAPI]", false),
            row("mm_shift", p.mm_shift, "[GCC] mmshf, [KAPI] MMSHF", false),
            row("mm_shift_imm", p.mm_shift_imm, "[GCC] mmshfi", false),
            row("mm_mul", p.mm_mul, "[GCC] mmmul", false),
            row("mm_to_integer", p.mm_to_integer, "[GCC] MM->ialu/ld/st bypass 3, [KAPI] +1", false),
        ]
    }

    /// A text table of every figure: name, value, source key(s), and `GUESS` where the reference
    /// marks the figure "(?)" or gives none.
    pub fn explain_model(&self) -> String {
        let rows = self.rows();
        let width = rows.iter().map(|r| r.name.len()).max().unwrap_or(0);
        let mut out = String::new();
        let _ = writeln!(out, "{:<width$}  {:>5}  {:<5}  source", "parameter", "value", "guess");
        for r in rows.iter() {
            let guess = if r.guess { "GUESS" } else { "" };
            let _ = writeln!(out, "{:<width$}  {:>5}  {:<5}  {}", r.name, r.value, guess, r.source);
        }
        out
    }
}
