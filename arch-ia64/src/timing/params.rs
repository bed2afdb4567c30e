//! The figures of the Itanium 2 model, each a named field with its source from
//! `shared/reference/itanium2-timing.md` (source keys in brackets). Where the reference marks a
//! figure "(?)" or gives none, the field's doc says GUESS and why; `explain_model` prints the table.
//!
//! Latencies are producer-to-consumer distances in cycles (1 = usable in the next cycle,
//! reference section 2). When sources disagree the reference's order applies: Linux comments,
//! then [KAPI], then [GCC].

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
    /// `mov r=pr`. [IVT] "I0 (2 cyc)", [GCC] frpr 2, [KAPI] 2.
    pub mov_from_pr: u64,
    /// `mov pr=r`. [GCC] topr 1, [KAPI] TOPR 1.
    pub mov_to_pr: u64,
    /// `mov r=b`. [IVT] "I0 (2 cyc)", [GCC] frbr 2, [KAPI] 2.
    pub mov_from_br: u64,
    /// `mov b=r` to a non-branch reader (`mov r=b`). [KAPI] TOBR +1.
    pub mov_to_br: u64,
    /// `mov b=r` to the indirect branch that uses it. [FSYS] "mov b6=r18 (7 cyc)", preferred over [KAPI]
    /// 0; the reference marks what the 7 covers "(?)", so GUESS.
    pub mov_to_br_to_branch: u64,
    /// `mov r=ip`. GUESS: no source; an I0 move like `mov r=b` minus the BR read, so the ALU figure 1.
    pub mov_from_ip: u64,
    /// `mov.i r=ar.pfs/lc/ec`. [IVT] "mov.i r26=ar.pfs I0 (2 cyc)", [KAPI] FRAR_I 2.
    pub mov_from_ar_i: u64,
    /// `mov.i ar.pfs/lc/ec=r` to a non-branch reader. [KAPI] 1.
    pub mov_to_ar_i: u64,
    /// `mov.i ar.pfs=r` to the branch (`br.ret`) that reads it. [KAPI] 0, [GCC] toar_i 0.
    pub mov_to_ar_i_to_branch: u64,
    /// `mov r=ar.k0-7`. [IVT] and [ENT] "M2 (12 cyc)", [FBSD] measured 12 (KAPI 13).
    pub from_ar_k: u64,
    /// `mov r=ar.rsc/bsp/bspstore/fpsr`. [IVT] "M2 (12 cyc)" each (KAPI 13).
    pub from_ar_rse: u64,
    /// `mov r=ar.unat/rnat/ccv`. [IVT] "M2 (5 cyc)" (GCC frar_m 6, KAPI 6).
    pub from_ar_unat: u64,
    /// `mov r=ar.itc`. [FSYS] "36 clocks latency!!!" (KAPI 38).
    pub from_ar_itc: u64,
    /// `mov r=ar.*` for any other M-side AR. GUESS: no source; the common M2 AR figure 12 of [IVT].
    pub from_ar_other: u64,
    /// `mov.m ar.rsc=imm`. [KAPI] 1.
    pub to_ar_rsc_imm: u64,
    /// `mov.m ar.rsc=r`. [KAPI] 10.
    pub to_ar_rsc: u64,
    /// `mov ar.bspstore=r`. [FSYS] "M2 (6 cyc)" (KAPI 5).
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
    /// `mov r=cr.iip/iim/isr/iipa/iva`. [IVT] "M2 (2 cyc)" for cr.iim and cr.iip, [KAPI] 2.
    pub from_cr_fast: u64,
    /// `mov r=cr.ipsr/ifa/itir/ifs/iha/dcr/pta`. [IVT] cr.ipsr "M2 (12 cyc)"; the rest share [KAPI]'s
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
    /// `mov r=psr`. [IVT] "M2 (12 cyc)", [FSYS] "read psr (12 cyc load latency)" (KAPI 1, approximate).
    pub from_psr: u64,
    /// `mov psr.l=r`, `mov psr.um=r`. [KAPI] SYST_M2 1 (approximate).
    pub to_psr: u64,
    /// `rsm`/`ssm`/`sum`/`rum`. [GATE] `rsm psr.be|psr.i` "M2 (5 cyc to srlz.d)".
    pub psr_mask: u64,
    /// `alloc` result (the old ar.pfs). [KAPI] SYST_M2 1 (approximate).
    pub alloc: u64,
    /// `probe` result. [FSYS] "takes 5 cycles".
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
            row("from_ar_itc", p.from_ar_itc, "[FSYS] 36 clocks latency", false),
            row("from_ar_other", p.from_ar_other, "none; [IVT] M2 AR figure", true),
            row("to_ar_rsc_imm", p.to_ar_rsc_imm, "[KAPI]", false),
            row("to_ar_rsc", p.to_ar_rsc, "[KAPI]", false),
            row("to_ar_bspstore", p.to_ar_bspstore, "[FSYS] M2 (6 cyc)", false),
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
