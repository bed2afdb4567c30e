//! The IA-64 TLB model: insertions and purges, translated accesses and fetches, every
//! translation fault with its vector and cr.ifa/cr.isr/cr.itir/cr.iha, probe/tpa/tak/thash/ttag
//! and their privilege rules. "SDM V2 4.1" is the Intel Itanium Architecture Software
//! Developer's Manual rev 2.3 vol. 2 section 4.1 (translation, Figure 4-16 for the order of the
//! checks, Table 4-3 for access rights), "SDM V3 x" the instruction page of x, "ref §n" a section
//! of /work/shared/reference/ia64-system.md.

#[path = "ia64_exec/helpers.rs"]
#[allow(dead_code)] // the shared helpers serve several test files
mod helpers;

use arch_ia64::exec::ExecError;
use arch_ia64::run::{RunConfig, RunError};
use emu_core::report::RunReport;
use helpers::{reg, run_cfg, try_run_cfg, with_harness};

/// Region 1, where the data tests map their page.
const VA: u64 = 0x2000_0000_0010_0000;
/// The physical page VA maps to (the `phys` region of the harness).
const PA: u64 = 0x0010_0000;
/// rr1: rid 0x55, ps 4 KB (12), walker off.
const RR1: u64 = 0x55 << 8 | 12 << 2;
/// The vectors the test IVT handles; each handler records its vector in r30 and ends the run.
const VECTORS: &[u64] = &[
    0x0400, 0x0800, 0x0c00, 0x1000, 0x1400, 0x1800, 0x1c00, 0x2000, 0x2400, 0x2800, 0x5000, 0x5100, 0x5200, 0x5300,
    0x5400, 0x5600,
];

/// PTE bits: present, accessed, dirty; access rights and privilege level.
const P: u64 = 1;
const A: u64 = 1 << 5;
const D: u64 = 1 << 6;
fn ar(ar: u64) -> u64 {
    ar << 9
}
fn pl(pl: u64) -> u64 {
    pl << 7
}

/// `body` as function `f`, a 4 KB page `far` of code for the fetch tests, then an IVT whose
/// handlers set r30 to their vector offset and return to the sentinel (b0).
fn program(body: &str, far: &str) -> String {
    let mut s = format!(
        "\t.text\n\t.global f\nf:\n{body}\n\tbr.ret.sptk.many b0 ;;\n\t.align 4096\nfar:\n{far}\n\tbr.ret.sptk.many b0 ;;\n"
    );
    s.push_str("\t.align 32768\nivt:\n");
    let mut at = 0;
    for v in VECTORS {
        s.push_str(&format!("\t.skip {}\n\tmovl r30={v:#x} ;;\n\tbr.ret.sptk.many b0 ;;\n", v - at));
        at = v + 32;
    }
    s
}

/// A harness with translation on (unless `translation` is false), the `phys` page holding
/// 0x1122334455667788 at PA, bank 1 at cpl 0, and the IVT.
fn harness(translation: bool) -> RunConfig {
    with_harness(&format!(
        "translation = {translation}\n\
        [[region]]\nname = \"phys\"\nbase = \"{PA:#x}\"\nsize = \"0x10000\"\nperms = \"rw\"\n\
        fill = [ {{ at = \"0\", u64 = [\"0x1122334455667788\", \"0x99\"] }} ]\n\
        [[region]]\nname = \"stack\"\nbase = \"0x70000000\"\nsize = \"0x10000\"\nperms = \"rw\"\n\
        [[region]]\nname = \"rbs\"\nbase = \"0x71000000\"\nsize = \"0x10000\"\nperms = \"rw\"\n\
        [registers]\nr12 = \"stack.top-16\"\nb0 = \"sentinel\"\n\"ar.bspstore\" = \"rbs\"\n\"cr.iva\" = \"ivt\"\n"
    ))
}

/// Sets rr[va] and inserts a translation of the 4 KB page at `va` to `pte` with `insert`
/// (`itc.d r6`, `itr.d dtr[r7]=r6`, ...), key `key`; PSR.ic is 0 as insertion requires.
fn insert(va: u64, rr: u64, pte: u64, key: u64, insert: &str) -> String {
    format!(
        "\tmovl r2={va:#x} ;;\n\tmovl r3={rr:#x} ;;\n\tmov rr[r2]=r3 ;;\n\tsrlz.d ;;\n\
        \tmov cr.ifa=r2\n\tmovl r5={itir:#x} ;;\n\tmov cr.itir=r5 ;;\n\tmovl r6={pte:#x}\n\tmov r7=3 ;;\n\
        \t{insert} ;;\n\tsrlz.d ;;\n",
        itir = key << 8 | 12 << 2
    )
}

/// Turns on data translation and interruption collection.
const DT_ON: &str = "\tssm 0x22000 ;;\n\tsrlz.d ;;\n";

fn run_program(body: &str, far: &str, cfg: &RunConfig) -> RunReport {
    run_cfg(&program(body, far), cfg)
}

/// The handler's vector (r30) and cr.isr, cr.ifa, cr.itir, cr.iha after a fault.
fn faulted(r: &RunReport) -> (u64, u64, u64, u64, u64) {
    (reg(r, "r30"), reg(r, "cr.isr"), reg(r, "cr.ifa"), reg(r, "cr.itir"), reg(r, "cr.iha"))
}

/// ISR bits (SDM V2 Table 3-7): x 32, w 33, r 34, na 35; ei 42:41.
const ISR_X: u64 = 1 << 32;
const ISR_W: u64 = 1 << 33;
const ISR_R: u64 = 1 << 34;
const ISR_NA: u64 = 1 << 35;

/// The short-format VHPT address (SDM V2 4.1.5.3) with PTA.base 0 and size 32 KB (the
/// minimum): the region bits of va, and (va{50:0} >> 12) << 3 within 32 KB.
fn short_hash(va: u64) -> u64 {
    (va & 0xE000_0000_0000_0000) | (((va & ((1 << 51) - 1)) >> 12) << 3 & 0x7FFF)
}

/// SDM V2 4.1: an itc.d entry translates loads and stores of its page; with PSR.dt off the
/// same access reaches the physical address directly.
#[test]
fn dtc_entry_translates_loads_and_stores() {
    let body = format!(
        "{}{DT_ON}\tmovl r4={VA:#x} ;;\n\tld8 r8=[r4] ;;\n\tadds r9=8,r4 ;;\n\tld8 r9=[r9] ;;\n\
        \tmov r10=0x77 ;;\n\tadds r11=16,r4 ;;\n\tst8 [r11]=r10 ;;\n\
        \trsm 0x20000 ;;\n\tsrlz.d ;;\n\tmovl r12={pa:#x} ;;\n\tld8 r12=[r12] ;;",
        insert(VA, RR1, PA | P | A | D | ar(2), 0, "itc.d r6"),
        pa = PA + 16
    );
    let r = run_program(&body, "", &harness(true));
    assert_eq!(reg(&r, "r8"), 0x1122_3344_5566_7788);
    assert_eq!(reg(&r, "r9"), 0x99);
    assert_eq!(reg(&r, "r12"), 0x77, "the store went to the physical page");
}

/// SDM V2 4.1.8: a miss with the VHPT walker off is an Alternate Data TLB fault (0x1000):
/// cr.ifa = the address, cr.itir = the region's defaults (ps = rr.ps, key = rr.rid), cr.iha =
/// the VHPT hash, ISR.r for a load and ei = the slot.
#[test]
fn miss_is_an_alternate_data_tlb_fault() {
    let body = format!(
        "\tmovl r2={VA:#x} ;;\n\tmovl r3={RR1:#x} ;;\n\tmov rr[r2]=r3 ;;\n{DT_ON}\tadds r4=0x48,r2 ;;\n\
        \tld8 r8=[r4] ;;"
    );
    let r = run_program(&body, "", &harness(true));
    let (vector, isr, ifa, itir, iha) = faulted(&r);
    assert_eq!(vector, 0x1000);
    assert_eq!(ifa, VA + 0x48);
    assert_eq!(itir, RR1 & !3, "ps 12 and key = rid 0x55");
    assert_eq!(iha, short_hash(VA + 0x48));
    assert_eq!(isr & (ISR_R | ISR_W | ISR_X | ISR_NA), ISR_R);
    assert_eq!(isr & 0xFFFF, 0, "ISR.code 0");
}

/// A store miss sets ISR.w instead; a semaphore sets both.
#[test]
fn store_and_semaphore_misses_set_isr_w() {
    for (insn, bits) in [("st8 [r2]=r0", ISR_W), ("xchg8 r8=[r2],r0", ISR_R | ISR_W)] {
        let body = format!("\tmovl r2={VA:#x} ;;\n\tmovl r3={RR1:#x} ;;\n\tmov rr[r2]=r3 ;;\n{DT_ON}\t{insn} ;;");
        let r = run_program(&body, "", &harness(true));
        let (vector, isr, ..) = faulted(&r);
        assert_eq!(vector, 0x1000, "{insn}");
        assert_eq!(isr & (ISR_R | ISR_W), bits, "{insn}");
    }
}

/// SDM V2 4.1.8: with PTA.ve and RR.ve set the walker searches the VHPT; this model's walker
/// always aborts (permitted), so the miss is a Data TLB fault (0x0800); cr.iha follows PTA.vf
/// (here the long format: PTA's region and base).
#[test]
fn walker_enabled_miss_is_a_data_tlb_fault() {
    let pta: u64 = 0x6000_0000_0100_0000 | 1 << 8 | 15 << 2 | 1;
    let body = format!(
        "\tmovl r2={VA:#x} ;;\n\tmovl r3={rr:#x} ;;\n\tmov rr[r2]=r3 ;;\n\tmovl r4={pta:#x} ;;\n\
        \tmov cr.pta=r4 ;;\n{DT_ON}\tld8 r8=[r2] ;;\n",
        rr = RR1 | 1
    );
    let r = run_program(&body, "", &harness(true));
    let (vector, _, ifa, _, iha) = faulted(&r);
    assert_eq!(vector, 0x0800);
    assert_eq!(ifa, VA);
    assert_eq!(iha & !0x7FFF, 0x6000_0000_0100_0000, "the long-format table is at PTA.base");
}

/// ref §2: a data TLB miss with PSR.ic = 0 is a Data Nested TLB fault (0x1400), which records
/// nothing: cr.ifa and cr.isr keep their values.
#[test]
fn miss_with_ic_off_is_a_data_nested_tlb_fault() {
    let body = format!(
        "\tmovl r2={VA:#x} ;;\n\tmovl r3={RR1:#x} ;;\n\tmov rr[r2]=r3 ;;\n\tmov r4=0x99 ;;\n\
        \tmov cr.ifa=r4 ;;\n\tssm 0x20000 ;;\n\tsrlz.d ;;\n\tld8 r8=[r2] ;;"
    );
    let r = run_program(&body, "", &harness(true));
    assert_eq!(reg(&r, "r30"), 0x1400);
    assert_eq!(reg(&r, "cr.ifa"), 0x99, "not written");
}

/// Runs `insn` (at VA, r4) on a page inserted with `pte` and key `key`, with extra PSR bits
/// `psr` turned on with the translation, and returns the fault record.
fn fault_on(pte: u64, key: u64, setup: &str, insn: &str) -> (u64, u64, u64, u64, u64) {
    let body = format!("{}{setup}{DT_ON}\tmovl r4={VA:#x} ;;\n\t{insn} ;;", insert(VA, RR1, pte, key, "itc.d r6"));
    let r = run_program(&body, "", &harness(true));
    faulted(&r)
}

/// SDM V2 Figure 4-16: a found translation is checked for page not present (0x5000), NaT page
/// (0x5600, ISR.code 0x20), access rights (0x5300), dirty bit (0x2000) and access bit (0x2800);
/// cr.itir holds the entry's ps and key.
#[test]
fn hit_faults_in_order_with_the_entry_itir() {
    let itir = 0x42 << 8 | 12 << 2;
    let cases: &[(u64, &str, u64, u64)] = &[
        // (pte, insn, vector, ISR r/w/code)
        (A | D | ar(2), "ld8 r8=[r4]", 0x5000, ISR_R),
        (P | A | D | 7 << 2 | ar(2), "ld8 r8=[r4]", 0x5600, ISR_R | 0x20),
        (P | A | D | ar(0), "st8 [r4]=r0", 0x5300, ISR_W),
        (P | A | ar(2), "st8 [r4]=r0", 0x2000, ISR_W),
        (P | D | ar(2), "ld8 r8=[r4]", 0x2800, ISR_R),
        // Not present outranks everything else.
        (ar(0), "st8 [r4]=r0", 0x5000, ISR_W),
    ];
    for &(pte, insn, vector, isr_bits) in cases {
        let (v, isr, ifa, t, iha) = fault_on(PA | pte, 0x42, "", insn);
        assert_eq!(v, vector, "pte {pte:#x} {insn}");
        assert_eq!(isr & (ISR_R | ISR_W | 0xFFFF), isr_bits, "pte {pte:#x} {insn}");
        assert_eq!((ifa, t, iha), (VA, itir, short_hash(VA)), "pte {pte:#x} {insn}");
    }
}

/// SDM V2 4.1.3: with PSR.pk a translation's key must be in a valid pkr (else Data Key Miss,
/// 0x1c00), whose rd/wd bits may forbid the access (Key Permission, 0x5100).
#[test]
fn protection_keys() {
    let pte = PA | P | A | D | ar(2);
    let (v, ..) = fault_on(pte, 0x42, "\tssm 0x8000 ;;\n", "ld8 r8=[r4]");
    assert_eq!(v, 0x1c00, "no pkr holds key 0x42");
    // pkr0 = key 0x42, valid, write disabled.
    let pkr = "\tmovl r9=0x4203 ;;\n\tmov pkr[r0]=r9 ;;\n\tssm 0x8000 ;;\n";
    let (v, isr, ..) = fault_on(pte, 0x42, pkr, "st8 [r4]=r0");
    assert_eq!((v, isr & ISR_W), (0x5100, ISR_W));
    let body = format!("{}{pkr}{DT_ON}\tmovl r4={VA:#x} ;;\n\tld8 r8=[r4] ;;", insert(VA, RR1, pte, 0x42, "itc.d r6"));
    let r = run_program(&body, "", &harness(true));
    assert_eq!(reg(&r, "r8"), 0x1122_3344_5566_7788, "reads are allowed");
}

/// itr.d fills a translation register; ptr.d removes it (and the run then misses); ptc.l, ptc.g
/// and ptc.e purge translation-cache entries.
#[test]
fn inserts_and_purges() {
    let pte = PA | P | A | D | ar(2);
    let purges = [
        ("itr.d dtr[r7]=r6", "\tmov r9=12<<2 ;;\n\tptr.d r4,r9 ;;\n"),
        ("itc.d r6", "\tmov r9=12<<2 ;;\n\tptc.l r4,r9 ;;\n"),
        ("itc.d r6", "\tmov r9=14<<2 ;;\n\tptc.g r4,r9 ;;\n"),
        ("itc.d r6", "\tmov r9=14<<2 ;;\n\tptc.ga r4,r9 ;;\n"),
        ("itc.d r6", "\tptc.e r0 ;;\n"),
    ];
    for (ins, purge) in purges {
        // Hit, then purge with translation off (ic = 0), then miss.
        let body = format!(
            "{}{DT_ON}\tmovl r4={VA:#x} ;;\n\tld8 r8=[r4] ;;\n\trsm 0x22000 ;;\n\tsrlz.d ;;\n{purge}\
            \tsrlz.d ;;\n{DT_ON}\tld8 r10=[r4] ;;",
            insert(VA, RR1, pte, 0, ins)
        );
        let r = run_program(&body, "", &harness(true));
        assert_eq!(reg(&r, "r8"), 0x1122_3344_5566_7788, "{ins}: hit before the purge");
        assert_eq!(reg(&r, "r30"), 0x1000, "{ins} / {purge}: miss after it");
    }
    // ptc.l does not touch a TR: the SDM makes a purge overlapping a TR a machine check.
    let body = format!(
        "{}\tmovl r4={VA:#x}\n\tmov r9=12<<2 ;;\n\tptc.l r4,r9 ;;",
        insert(VA, RR1, pte, 0, "itr.d dtr[r7]=r6")
    );
    match try_run_cfg(&program(&body, ""), &harness(true)) {
        Err(RunError::Exec { error: ExecError::Unimplemented { what, .. }, .. }) => {
            assert!(what.contains("machine check") && what.contains("dtr[3]"), "{what}")
        }
        other => panic!("expected a machine-check stop, got {other:?}"),
    }
}

/// A TC insertion overlapping a DTR is a machine check (stops the run); an entry is matched by
/// region id, so the same address under another rid misses.
#[test]
fn tc_overlapping_a_tr_and_rid_matching() {
    let pte = PA | P | A | D | ar(2);
    let body = format!("{}\titc.d r6 ;;", insert(VA, RR1, pte, 0, "itr.d dtr[r7]=r6"));
    match try_run_cfg(&program(&body, ""), &harness(true)) {
        Err(RunError::Exec { error: ExecError::Unimplemented { what, .. }, .. }) => {
            assert!(what.starts_with("itc.d: machine check"), "{what}")
        }
        other => panic!("expected a machine-check stop, got {other:?}"),
    }
    let body = format!(
        "{}\tmovl r3={rr:#x} ;;\n\tmov rr[r2]=r3 ;;\n{DT_ON}\tld8 r8=[r2] ;;",
        insert(VA, RR1, pte, 0, "itc.d r6"),
        rr = 0x56 << 8 | 12 << 2
    );
    let r = run_program(&body, "", &harness(true));
    assert_eq!(reg(&r, "r30"), 0x1000, "rid 0x56 has no translation");
}

/// SDM V3 itc/itr: reserved bits or a reserved memory attribute in r2, an unsupported page size
/// in cr.itir and a TR slot past the implemented ones are Reserved Register/Field faults
/// (General Exception 0x5400, ISR.code 0x30).
#[test]
fn insertion_reserved_fields() {
    for (pte, key_ps, ins) in [
        (P | 1 << 2, 12, "itc.d r6"),
        (P | 1 << 50, 12, "itc.i r6"),
        (P, 15, "itc.d r6"),
        (P, 12, "mov r7=8 ;;\n\titr.d dtr[r7]=r6"),
    ] {
        let body = format!(
            "\tmovl r2={VA:#x} ;;\n\tmov cr.ifa=r2\n\tmov r5={itir} ;;\n\tmov cr.itir=r5 ;;\n\
            \tmovl r6={pte:#x} ;;\n\t{ins} ;;",
            itir = key_ps << 2
        );
        let r = run_program(&body, "", &harness(true));
        assert_eq!((reg(&r, "r30"), reg(&r, "cr.isr") & 0xFFFF), (0x5400, 0x30), "{pte:#x} {key_ps} {ins}");
    }
}

/// The code page `far` (physical) mapped at `va` (region 2) for the fetch tests, and an rfi to
/// `target` with PSR.it, PSR.ic, bank 1 and cpl 0. itr0 maps the first 64 KB (the text with
/// the IVT) to itself, as a kernel maps its own text, so the handlers can be fetched.
fn fetch_body(pte: u64, va: u64, target: u64) -> String {
    fetch_body_at(pte, va, target, 1 << 36 | 1 << 44 | 1 << 13)
}

/// [`fetch_body`] entering with PSR `psr`.
fn fetch_body_at(pte: u64, va: u64, target: u64, psr: u64) -> String {
    format!(
        "\tmovl r2={va:#x} ;;\n\tmovl r3={rr:#x} ;;\n\tmov rr[r2]=r3 ;;\n\tsrlz.d ;;\n\
        \tmovl r21={page:#x} ;;\n\tmov cr.ifa=r21\n\tmov r5=12<<2 ;;\n\tmov cr.itir=r5 ;;\n\
        \tmovl r22=far ;;\n\tmovl r6={pte:#x} ;;\n\tor r6=r6,r22 ;;\n\titc.i r6 ;;\n\tsrlz.i ;;\n\
        \tmov cr.ifa=r0\n\tmov r5=16<<2 ;;\n\tmov cr.itir=r5\n\tmovl r6={ivt_pte:#x} ;;\n\titr.i itr[r0]=r6 ;;\n\
        \tmovl r23={psr:#x}\n\tmovl r24={target:#x} ;;\n\tmov cr.ipsr=r23\n\tmov cr.iip=r24\n\tmov cr.ifs=r0 ;;\n\trfi ;;",
        rr = 0x77 << 8 | 12 << 2,
        page = va & !0xFFF,
        ivt_pte = P | A | D | ar(3)
    )
}

/// SDM V2 4.1: with PSR.it the fetch goes through the ITLB: code at a virtual page runs from
/// its physical page, IP-relative branches stay in the virtual page (mov r=ip shows it).
#[test]
fn fetch_through_the_itlb() {
    let va = 0x4000_0000_0000_0000;
    let far = "\tmov r8=42\n\tbr.cond.sptk.few l2 ;;\n\tmov r8=1 ;;\nl2:\n\tmov r9=ip ;;";
    let r = run_program(&fetch_body(P | A | D | ar(3), va, va), far, &harness(true));
    assert_eq!(reg(&r, "r8"), 42, "the branch skipped `mov r8=1`");
    assert_eq!(reg(&r, "r9") & !0xFFF, va, "ip is virtual: {:#x}", reg(&r, "r9"));
}

/// Fetch faults: a miss is an Alternate Instruction TLB fault (0x0c00) with cr.ifa = the bundle
/// and ISR.x; a page without execute rights an Instruction Access Rights fault (0x5200); an
/// entry with a = 0 an Instruction Access Bit fault (0x2400).
#[test]
fn fetch_faults() {
    let va = 0x4000_0000_0000_0000;
    let r = run_program(&fetch_body(P | A | D | ar(3), va, va + 0x1010), "", &harness(true));
    let (vector, isr, ifa, itir, _) = faulted(&r);
    assert_eq!(vector, 0x0c00);
    assert_eq!((ifa, isr & (ISR_X | ISR_R | ISR_W)), (va + 0x1010, ISR_X));
    assert_eq!(itir, 0x77 << 8 | 12 << 2);
    for (pte, vector) in [(P | A | D | ar(2), 0x5200), (P | D | ar(3), 0x2400), (P | A | D | ar(3) | pl(0), 0)] {
        let r = run_program(&fetch_body(pte, va, va), "\tmov r8=42 ;;", &harness(true));
        if vector == 0 {
            assert_eq!(reg(&r, "r8"), 42);
        } else {
            assert_eq!(reg(&r, "r30"), vector, "pte {pte:#x}");
            assert_eq!(reg(&r, "cr.isr") & ISR_X, ISR_X);
        }
    }
}

/// SDM V3 probe: probe.r/probe.w answer whether the access is allowed at the level
/// max(operand, cpl) from the DTLB, whatever PSR.dt; a miss faults (ISR.na, code 2).
#[test]
fn probe_answers_from_the_dtlb() {
    // ar 4: privileged read-write, user read only.
    let body = format!(
        "{}\tmovl r4={VA:#x}\n\tmov r9=3 ;;\n\tprobe.r r8=r4,r9\n\tprobe.w r10=r4,r9\n\
        \tprobe.w r11=r4,0\n\tprobe.r r14=r4,3 ;;\n\tssm 0x2000 ;;\n\tsrlz.d ;;\n\tadds r4=0x1000,r4 ;;\n\
        \tprobe.r r15=r4,0 ;;",
        insert(VA, RR1, PA | P | A | D | ar(4), 0, "itc.d r6")
    );
    let r = run_program(&body, "", &harness(true));
    assert_eq!((reg(&r, "r8"), reg(&r, "r10"), reg(&r, "r11"), reg(&r, "r14")), (1, 0, 1, 1));
    let (vector, isr, ifa, ..) = faulted(&r);
    assert_eq!((vector, ifa), (0x1000, VA + 0x1000), "the probe of an unmapped page faults");
    assert_eq!(isr & (ISR_NA | 0xF), ISR_NA | 2);
}

/// SDM V3 probe: the .fault forms raise what the access would (here access rights at pl 3 and
/// the dirty bit for a write), with ISR.na and code 5; with PSR.dt = 0 they do nothing.
#[test]
fn probe_fault_forms() {
    let ins = insert(VA, RR1, PA | P | A | ar(2), 0, "itc.d r6");
    let r = run_program(&format!("{ins}{DT_ON}\tmovl r4={VA:#x} ;;\n\tprobe.r.fault r4,3 ;;"), "", &harness(true));
    let (vector, isr, ifa, ..) = faulted(&r);
    assert_eq!((vector, ifa, isr & (ISR_NA | 0xF)), (0x5300, VA, ISR_NA | 5));
    let r = run_program(&format!("{ins}{DT_ON}\tmovl r4={VA:#x} ;;\n\tprobe.w.fault r4,0 ;;"), "", &harness(true));
    assert_eq!(reg(&r, "r30"), 0x2000);
    let r =
        run_program(&format!("{ins}\tmovl r4={VA:#x} ;;\n\tprobe.rw.fault r4,3 ;;\n\tmov r8=5 ;;"), "", &harness(true));
    assert_eq!(reg(&r, "r8"), 5, "no fault with PSR.dt = 0");
}

/// SDM V3 tpa, tak, thash, ttag: tpa gives the physical address, tak the key in bits 31:8 (1
/// without a present translation), thash the short-format VHPT address and ttag a tag with
/// bit 63 clear that differs between regions ids.
#[test]
fn tpa_tak_thash_ttag() {
    let body = format!(
        "{}\tmovl r4={va:#x} ;;\n\ttpa r8=r4\n\ttak r9=r4\n\tthash r10=r4\n\tttag r11=r4 ;;\n\
        \tmovl r12=0x3000000000000000 ;;\n\ttak r14=r12\n\tttag r15=r12 ;;",
        insert(VA, RR1, PA | P | A | D | ar(2), 0x123, "itc.d r6"),
        va = VA + 0x234
    );
    let r = run_program(&body, "", &harness(true));
    assert_eq!(reg(&r, "r8"), PA + 0x234);
    assert_eq!(reg(&r, "r9"), 0x123 << 8);
    assert_eq!(reg(&r, "r10"), short_hash(VA + 0x234));
    assert_eq!(reg(&r, "r11") >> 63, 0);
    assert_eq!(reg(&r, "r14"), 1, "no translation in region 1's neighbour");
    assert_ne!(reg(&r, "r11"), reg(&r, "r15"));
    // tpa of an unmapped page: a TLB miss fault with ISR.na and code 0.
    let body = format!(
        "\tmovl r4={VA:#x} ;;\n\tmovl r3={RR1:#x} ;;\n\tmov rr[r4]=r3 ;;\n\tssm 0x2000 ;;\n\tsrlz.d ;;\n\ttpa r8=r4 ;;"
    );
    let r = run_program(&body, "", &harness(true));
    let (vector, isr, ifa, ..) = faulted(&r);
    assert_eq!((vector, ifa, isr & (ISR_NA | 0xF)), (0x1000, VA, ISR_NA));
}

/// ref §9: tpa, tak and the inserts and purges need cpl 0 (Privileged Operation, 0x5400 code
/// 0x10); thash, ttag and probe do not.
#[test]
fn privilege_at_cpl_3() {
    let cfg = with_harness(
        "translation = true\ncpl = 3\npsr = \"0x100300002000\"\n\
        [[region]]\nname = \"stack\"\nbase = \"0x70000000\"\nsize = \"0x10000\"\nperms = \"rw\"\n\
        [registers]\nr12 = \"stack.top-16\"\nb0 = \"sentinel\"\n\"cr.iva\" = \"ivt\"\n",
    );
    for insn in ["tpa r8=r0", "tak r8=r0", "ptc.e r0", "ptr.i r0,r0", "ptc.g r0,r0"] {
        let r = run_program(&format!("\t{insn} ;;"), "", &cfg);
        assert_eq!((reg(&r, "r30"), reg(&r, "cr.isr") & 0xFFFF), (0x5400, 0x10), "{insn}");
    }
    let r = run_program("\tmovl r2=0x2000000000001000 ;;\n\tthash r8=r2\n\tttag r9=r2 ;;\n\tmov r10=7 ;;", "", &cfg);
    assert_eq!(reg(&r, "r10"), 7, "thash and ttag are unprivileged");
}

/// With translation off (the default) a kernel path running with PSR.dt/PSR.it and no TLB
/// entries keeps its flat addresses: nothing faults, and inserts still fill the TLB, so tak
/// sees them.
#[test]
fn translation_off_keeps_flat_addresses() {
    let body = format!(
        "{}\tssm 0x22000 ;;\n\tsrlz.d ;;\n\tmovl r4={PA:#x} ;;\n\tld8 r8=[r4] ;;\n\
        \tmovl r5={VA:#x} ;;\n\ttak r9=r5\n\tprobe.w r10=r5,3 ;;",
        insert(VA, RR1, PA | P | A | D | ar(2), 0x9, "itc.d r6")
    );
    let r = run_program(&body, "", &harness(false));
    assert_eq!(reg(&r, "r8"), 0x1122_3344_5566_7788, "untranslated");
    assert_eq!(reg(&r, "r9"), 0x9 << 8);
    assert_eq!(reg(&r, "r10"), 1, "probe answers 1 for a flat address space");
}

/// With translation on and PSR.rt, the RSE's spills are made untranslated, which is right only
/// for an identity-mapped backing store: flushrs spilling to a page the DTLB does not map to
/// itself stops the run with a clear error; with an identity entry it proceeds.
#[test]
fn rse_references_need_an_identity_mapped_backing_store() {
    let cfg = with_harness(
        "translation = true\npsr = \"0x100008000000\"\n\
        [[region]]\nname = \"rbs\"\nbase = \"0x71000000\"\nsize = \"0x10000\"\nperms = \"rw\"\n\
        [registers]\nb0 = \"sentinel\"\n\"ar.bspstore\" = \"rbs\"\n\"cr.iva\" = \"ivt\"\n",
    );
    let call = "\talloc r9=ar.pfs,0,8,0,0 ;;\n\tmov r32=5 ;;\n\tbr.call.sptk.many b1=g ;;\n\tmov ar.pfs=r9 ;;\n\
        \tbr.cond.sptk.many done ;;\ng:\n\tflushrs ;;\n\tbr.ret.sptk.many b1 ;;\ndone:\n";
    match try_run_cfg(&program(call, ""), &cfg) {
        Err(RunError::Exec { error: ExecError::Unimplemented { what, .. }, .. }) => {
            assert!(what.contains("RSE reference at 0x71000000"), "{what}")
        }
        other => panic!("expected the RSE stop, got {other:?}"),
    }
    let map = insert(0x7100_0000, 0, 0x7100_0000 | P | A | D | ar(2), 0, "itc.d r6");
    let r = run_cfg(&program(&format!("{map}{call}"), ""), &cfg);
    assert_eq!(r.stop, "returned to the sentinel");
}

/// SDM V3 epc, ref §4: with translation on, epc promotes to the privilege level of its page's
/// ITLB entry when that entry has access rights 7 (execute, promote) and a more privileged pl;
/// from a page with other rights it changes nothing (the privileged `mov r8=psr` then faults).
#[test]
fn epc_promotes_through_the_itlb_entry() {
    let va = 0x4000_0000_0000_0000;
    let user = 1u64 << 36 | 1 << 44 | 1 << 13 | 3 << 32;
    let pfs = "\tmovl r25=0xc000000000000000 ;;\n\tmov ar.pfs=r25 ;;\n";
    let far = "\tepc ;;\n\tmov r8=psr ;;\n\tmov r9=7 ;;";
    let r = run_program(&format!("{pfs}{}", fetch_body_at(P | A | ar(7) | pl(0), va, va, user)), far, &harness(true));
    assert_eq!((reg(&r, "r9"), reg(&r, "r30")), (7, 0), "promoted: the psr read ran");
    let r = run_program(&format!("{pfs}{}", fetch_body_at(P | A | ar(5) | pl(0), va, va, user)), far, &harness(true));
    assert_eq!((reg(&r, "r30"), reg(&r, "cr.isr") & 0xFFFF), (0x5400, 0x10), "not promoted");
}
