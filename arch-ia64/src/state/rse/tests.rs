//! RSE tests: NaT-collection arithmetic against a slot-by-slot walk, frame bookkeeping,
//! deep call chains that overflow the physical file, and the Linux syscall round trip of
//! reference §10.

use super::*;
use emu_core::memory::{Endian, Perms};
use std::error::Error;

type TestResult = Result<(), Box<dyn Error>>;

const USER_RBS: u64 = 0x6000_0000_0000_0000;
const KERNEL_RBS: u64 = 0xA000_0000_0100_0000;
const OTHER_RBS: u64 = 0xA000_0000_0200_0000;
const RBS_SIZE: u64 = 0x10_0000;

fn memory() -> Result<Memory, Box<dyn Error>> {
    let mut mem = Memory::new(Endian::Little);
    mem.map(USER_RBS, RBS_SIZE, Perms::RW, "user-rbs")?;
    mem.map(KERNEL_RBS, RBS_SIZE, Perms::RW, "kernel-rbs")?;
    mem.map(OTHER_RBS, RBS_SIZE, Perms::RW, "other-rbs")?;
    Ok(mem)
}

/// Deterministic register contents for frame `tag`, register offset `i`.
fn content(tag: u64, i: usize) -> (u64, bool) {
    let v = tag.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ ((i as u64) << 40 | i as u64);
    (v, matches!((tag + 3 * i as u64) % 5, 0))
}

fn fill_frame(rf: &mut RegFile, tag: u64, from: usize, to: usize) -> Result<(), RseError> {
    for i in from..to {
        let (v, nat) = content(tag, i);
        rf.write(32 + i as u8, v, nat)?;
    }
    Ok(())
}

fn check_frame(rf: &RegFile, tag: u64, from: usize, to: usize) -> Result<(), RseError> {
    for i in from..to {
        assert_eq!(rf.read(32 + i as u8)?, content(tag, i), "frame {tag} r{}", 32 + i);
    }
    Ok(())
}

fn check_invariants(rf: &RegFile) {
    let used = rf.ndirty() + rf.nclean() + u16::from(rf.cfm().sof);
    assert!(used <= STACKED_PHYS, "partitions overflow: {used}");
    assert_eq!(regs_between(rf.bspstore(), rf.bsp()), u64::from(rf.ndirty()));
    assert!(!is_collection(rf.bsp()), "BSP on a collection slot: {:#x}", rf.bsp());
}

/// One caller frame on the shadow stack.
struct Level {
    pfm: u64,
    tag: u64,
    sol: usize,
    bsp: u64,
}

/// Build `depth` nested frames of varying size (locals then a call each), filling every
/// register; returns the shadow stack.
fn nest(rf: &mut RegFile, mem: &mut Memory, depth: usize, tag0: u64) -> Result<Vec<Level>, RseError> {
    let mut levels = Vec::new();
    for d in 0..depth {
        let sof = 8 + (d * 13) % 41;
        let sol = sof - 1 - d % 5;
        rf.alloc(sof as u8, sol as u8, 0, mem)?;
        let tag = tag0 + d as u64;
        fill_frame(rf, tag, 0, sof)?;
        let bsp = rf.bsp();
        let pfm = rf.call();
        assert_eq!(rf.bsp(), bsp_after_push(bsp, sol as u64));
        assert_eq!(rf.cfm().sof as usize, sof - sol);
        check_invariants(rf);
        levels.push(Level { pfm: pfm.to_bits(), tag, sol, bsp });
    }
    Ok(levels)
}

/// Return through every level, checking each caller's locals and BSP.
fn unwind(rf: &mut RegFile, mem: &mut Memory, levels: &mut Vec<Level>) -> Result<(), RseError> {
    while let Some(l) = levels.pop() {
        rf.ret(l.pfm, mem)?;
        assert_eq!(rf.bsp(), l.bsp, "BSP after return to frame {}", l.tag);
        check_invariants(rf);
        check_frame(rf, l.tag, 0, l.sol)?;
    }
    Ok(())
}

fn walk_push(mut p: u64, n: u64) -> u64 {
    for _ in 0..n {
        if is_collection(p) {
            p += 8;
        }
        p += 8;
    }
    if is_collection(p) {
        p += 8;
    }
    p
}

fn walk_pop(mut p: u64, n: u64) -> u64 {
    for _ in 0..n {
        p -= 8;
        if is_collection(p) {
            p -= 8;
        }
    }
    p
}

#[test]
fn collection_arithmetic_matches_a_slot_walk() {
    for base in [0x1000u64, 0x6000_0000_0000_0e00, USER_RBS + 0x1F0] {
        for k in 0..64u64 {
            let a = base + 8 * k;
            for n in 0..200u64 {
                let pushed = walk_push(a, n);
                assert_eq!(bsp_after_push(a, n), pushed, "push {a:#x} {n}");
                assert_eq!(regs_between(a, pushed), n, "between {a:#x} {pushed:#x}");
                if !is_collection(a) {
                    assert_eq!(bsp_after_pop(pushed, n), a, "pop {pushed:#x} {n}");
                    assert_eq!(bsp_after_pop(a, n), walk_pop(a, n), "pop walk {a:#x} {n}");
                }
            }
        }
    }
}

#[test]
fn push_then_pop_composes_across_0x1f8() {
    for k in 0..64u64 {
        let a = USER_RBS + 8 * k;
        for x in 0..100u64 {
            for y in (0..100u64).step_by(7) {
                assert_eq!(bsp_after_pop(bsp_after_push(a, x + y), y), bsp_after_push(a, x));
            }
        }
    }
    assert_eq!(regs_between(0x200, 0x100), 0);
}

#[test]
fn cfm_bits_round_trip() {
    let c = Cfm { sof: 96, sol: 40, sor: 5, rrb_gr: 39, rrb_fr: 90, rrb_pr: 47 };
    let bits = c.to_bits();
    assert_eq!(bits & 0x7F, 96);
    assert_eq!(bits >> 7 & 0x7F, 40);
    assert_eq!(bits >> 14 & 0xF, 5);
    assert_eq!(bits >> 18 & 0x7F, 39);
    assert_eq!(bits >> 25 & 0x7F, 90);
    assert_eq!(bits >> 32 & 0x3F, 47);
    assert_eq!(Cfm::from_bits(bits | 0xFFF0_0000_0000_0000), c);
}

#[test]
fn static_banked_and_frame_errors() -> TestResult {
    let mut mem = memory()?;
    let mut rf = RegFile::new();
    rf.set_bspstore(USER_RBS);
    assert_eq!(rf.read(0)?, (0, false));
    assert_eq!(rf.write(0, 1, false), Err(RseError::WriteR0));
    rf.write(15, 0x15, true)?;
    rf.set_bank(1);
    rf.write(16, 0x116, false)?;
    rf.set_bank(0);
    rf.write(16, 0x16, true)?;
    assert_eq!(rf.read(16)?, (0x16, true));
    assert_eq!(rf.read_banked(16, 1), Some((0x116, false)));
    rf.set_bank(1);
    assert_eq!(rf.read(16)?, (0x116, false));
    assert_eq!(rf.read(15)?, (0x15, true));
    assert_eq!(rf.res(16), Res::gr_banked(16, 1));
    assert_eq!(rf.res(3), Res::gr_static(3));
    assert_eq!(rf.read(32), Err(RseError::OutsideFrame { reg: 32, sof: 0 }));
    assert_eq!(rf.read(128), Err(RseError::NoSuchRegister(128)));
    rf.alloc(10, 4, 1, &mut mem)?;
    assert_eq!(rf.write(42, 1, false), Err(RseError::OutsideFrame { reg: 42, sof: 10 }));
    rf.write(41, 7, true)?;
    assert_eq!(rf.read(41)?, (7, true));
    assert!(matches!(rf.alloc(97, 0, 0, &mut mem), Err(RseError::FrameTooLarge { .. })));
    assert!(matches!(rf.alloc(8, 9, 0, &mut mem), Err(RseError::LocalsExceedFrame { .. })));
    assert!(matches!(rf.alloc(15, 0, 2, &mut mem), Err(RseError::RotatingExceedsFrame { .. })));
    rf.set_rrb(1, 0, 0);
    assert!(matches!(rf.alloc(16, 0, 2, &mut mem), Err(RseError::SorChangeWithRrb { .. })));
    assert_eq!(rf.cfm().sof, 10, "a failed alloc leaves the frame");
    Ok(())
}

#[test]
fn rotation_renames_only_the_rotating_region() -> TestResult {
    let mut mem = memory()?;
    let mut rf = RegFile::new();
    rf.set_bspstore(USER_RBS);
    rf.alloc(20, 20, 2, &mut mem)?;
    for i in 0..20u8 {
        rf.write(32 + i, u64::from(i), false)?;
    }
    rf.set_rrb(3, 0, 0);
    // r32+i now names the register written as r32+(i+3)%16 inside the rotating 16.
    for i in 0..16u8 {
        assert_eq!(rf.read(32 + i)?.0, u64::from((i + 3) % 16));
        assert_eq!(rf.res(32 + i), Res::gr_stacked(u16::from((i + 3) % 16) + rf.bof()));
    }
    for i in 16..20u8 {
        assert_eq!(rf.read(32 + i)?.0, u64::from(i));
    }
    rf.set_rrb(0, 0, 0);
    let pfm = rf.call();
    assert_eq!(pfm.sor, 2);
    assert_eq!(rf.cfm(), Cfm::default(), "call clears rrb and sor (all locals)");
    rf.ret(pfm.to_bits(), &mut mem)?;
    assert_eq!(rf.read(35)?.0, 3);
    Ok(())
}

#[test]
fn frame_arithmetic_of_call_cover_ret() -> TestResult {
    let mut mem = memory()?;
    let mut rf = RegFile::new();
    rf.set_bspstore(USER_RBS + 0x1E0); // slot 60: the first frames cross a collection
    let start = rf.bsp();
    rf.alloc(12, 7, 0, &mut mem)?;
    let pfm = rf.call();
    assert_eq!(rf.bsp(), bsp_after_push(start, 7));
    assert_eq!(rf.bsp(), USER_RBS + 0x1E0 + 8 * 8, "7 registers plus the slot-63 collection");
    assert_eq!(rf.cfm(), Cfm { sof: 5, ..Cfm::default() });
    assert_eq!(rf.ndirty(), 7);
    assert_eq!(rf.res(32), Res::gr_stacked(7));
    let ifm = rf.cover();
    assert_eq!(ifm.sof, 5);
    assert_eq!(rf.ndirty(), 12);
    assert_eq!(rf.cfm(), Cfm::default());
    rf.rfi_restore(ifm.to_bits(), &mut mem)?;
    assert_eq!(rf.ndirty(), 7);
    rf.ret(pfm.to_bits(), &mut mem)?;
    assert_eq!(rf.bsp(), start);
    assert_eq!(rf.ndirty(), 0);
    assert_eq!(rf.cfm().to_bits(), pfm.to_bits());
    assert_eq!((rf.rse_stores(), rf.rse_loads()), (0, 0));
    Ok(())
}

#[test]
fn cover_and_rfi_restore_keep_values() -> TestResult {
    let mut mem = memory()?;
    let mut rf = RegFile::new();
    rf.set_bspstore(USER_RBS + 0x1F0);
    rf.alloc(30, 20, 0, &mut mem)?;
    fill_frame(&mut rf, 77, 0, 30)?;
    let bsp = rf.bsp();
    let ifm = rf.cover();
    assert_eq!(rf.bsp(), bsp_after_push(bsp, 30));
    // A handler that uses the whole file forces the covered frame out to memory.
    rf.alloc(96, 96, 0, &mut mem)?;
    fill_frame(&mut rf, 5, 0, 96)?;
    assert_eq!(rf.ndirty(), 0);
    assert!(rf.rse_stores() >= 31, "30 registers and a collection");
    rf.alloc(0, 0, 0, &mut mem)?;
    rf.rfi_restore(ifm.to_bits(), &mut mem)?;
    assert_eq!(rf.bsp(), bsp);
    assert_eq!(rf.cfm(), ifm);
    check_frame(&rf, 77, 0, 30)?;
    check_invariants(&rf);
    Ok(())
}

#[test]
fn deep_call_chains_spill_and_fill_through_memory() -> TestResult {
    for start in [0u64, 0x100, 0x1C8, 0x1F0, 0x1F8, 0x3F0] {
        let mut mem = memory()?;
        let mut rf = RegFile::new();
        rf.set_bspstore(USER_RBS + start);
        let mut levels = nest(&mut rf, &mut mem, 45, 1000)?;
        rf.alloc(60, 50, 0, &mut mem)?;
        fill_frame(&mut rf, 9999, 0, 60)?;
        let stores = rf.rse_stores();
        assert!(stores > 500, "deep chain spilled only {stores}");
        assert!(rf.bspstore() > USER_RBS + start + 0x200, "spills crossed collection slots");
        unwind(&mut rf, &mut mem, &mut levels)?;
        assert!(rf.rse_loads() > 400, "unwinding filled only {}", rf.rse_loads());
        assert_eq!(rf.bsp(), bsp_after_push(USER_RBS + start, 0));
    }
    Ok(())
}

#[test]
fn flushrs_writes_the_backing_store_and_loadrs_reads_it() -> TestResult {
    let mut mem = memory()?;
    let mut rf = RegFile::new();
    let start = USER_RBS + 0x1D0;
    rf.set_bspstore(start);
    let mut levels = nest(&mut rf, &mut mem, 3, 50)?;
    rf.alloc(9, 9, 0, &mut mem)?;
    fill_frame(&mut rf, 49, 0, 9)?;
    let ifm = rf.cover();
    rf.flushrs(&mut mem)?;
    assert_eq!(rf.bspstore(), rf.bsp());
    assert_eq!(rf.ndirty(), 0);
    // Every caller's locals are at their backing-store addresses, NaTs in the collections.
    for l in &levels {
        for i in 0..l.sol {
            let addr = bsp_after_push(l.bsp, i as u64);
            let (v, nat) = content(l.tag, i);
            assert_eq!(read_u64(&mem, addr)?, v);
            let coll = addr | GROUP_TOP;
            let bits = if coll >= rf.bspstore() { rf.rnat() } else { read_u64(&mem, coll)? };
            assert_eq!(bits >> slot(addr) & 1 != 0, nat, "NaT of frame {} reg {i}", l.tag);
        }
    }
    // Drop everything in the file, then pull it back from memory.
    let top = rf.bsp();
    rf.set_bspstore(top);
    assert_eq!(rf.nclean(), 0);
    let loads = rf.rse_loads();
    rf.loadrs(top - start, &mem)?;
    assert_eq!(rf.bspstore(), start);
    assert_eq!(u64::from(rf.ndirty()), regs_between(start, top));
    assert!(rf.rse_loads() - loads >= u64::from(rf.ndirty()));
    rf.rfi_restore(ifm.to_bits(), &mut mem)?;
    check_frame(&rf, 49, 0, 9)?;
    unwind(&mut rf, &mut mem, &mut levels)?;
    Ok(())
}

#[test]
fn loadrs_checks_and_zero_count() -> TestResult {
    let mut mem = memory()?;
    let mut rf = RegFile::new();
    rf.set_bspstore(USER_RBS);
    rf.alloc(10, 10, 0, &mut mem)?;
    assert!(matches!(rf.loadrs(8, &mem), Err(RseError::LoadrsWithFrame { .. })));
    rf.cover();
    assert!(matches!(rf.loadrs(0x3FF8, &mem), Err(RseError::LoadrsTooLarge { .. })));
    rf.loadrs(0, &mem)?;
    assert_eq!((rf.ndirty(), rf.nclean(), rf.bspstore()), (0, 0, rf.bsp()));
    assert_eq!(rf.ninvalid(), STACKED_PHYS);
    Ok(())
}

#[test]
fn faults_come_back_typed() -> TestResult {
    let mut mem = memory()?;
    let mut rf = RegFile::new();
    rf.set_bspstore(0x10); // unmapped
    rf.alloc(90, 90, 0, &mut mem)?;
    rf.call();
    let err = rf.alloc(20, 0, 0, &mut mem);
    assert!(matches!(err, Err(RseError::Memory(MemFault { addr: 0x10, .. }))), "{err:?}");
    Ok(())
}

/// State the syscall round trip must preserve.
#[derive(Debug, PartialEq)]
struct UserView {
    bsp: u64,
    bspstore: u64,
    rnat: u64,
    cfm: Cfm,
    regs: Vec<(u64, bool)>,
}

fn view(rf: &RegFile) -> Result<UserView, RseError> {
    let regs = (0..rf.cfm().sof).map(|i| rf.read(32 + i)).collect::<Result<_, _>>()?;
    Ok(UserView { bsp: rf.bsp(), bspstore: rf.bspstore(), rnat: rf.rnat(), cfm: rf.cfm(), regs })
}

/// How the kernel behaves between entry and exit.
#[derive(Clone, Copy, Debug)]
enum Kernel {
    /// Shallow handler: the user registers stay in the file.
    Light,
    /// Deep call chain: the user registers spill into the kernel RBS.
    Deep,
    /// Schedules: flushrs, another task runs on its own RBS, then switch back.
    Schedules,
}

fn kernel_work(rf: &mut RegFile, mem: &mut Memory, kind: Kernel, outs: usize) -> Result<(), Box<dyn Error>> {
    // break_fault: br.call ia64_syscall_setup; its frame takes the user outputs as inputs.
    let pfm_user = rf.call();
    rf.alloc((outs + 6) as u8, (outs + 6) as u8, 0, mem)?;
    fill_frame(rf, 7000, outs, outs + 6)?;
    let depth = match kind {
        Kernel::Light => 2,
        Kernel::Deep | Kernel::Schedules => 30,
    };
    let pfm_setup = rf.call();
    let mut levels = nest(rf, mem, depth, 8000)?;
    if let Kernel::Schedules = kind {
        // switch_to: flush, save, run another task on its RBS, come back and return.
        let pfm_switch = rf.call();
        rf.flushrs(mem)?;
        let (bs, rnat) = (rf.bspstore(), rf.rnat());
        rf.alloc(0, 0, 0, mem)?;
        rf.set_bspstore(OTHER_RBS + 0x88);
        let mut other = nest(rf, mem, 20, 500)?;
        rf.alloc(96, 96, 0, mem)?;
        fill_frame(rf, 666, 0, 96)?;
        rf.alloc(10, 10, 0, mem)?;
        unwind(rf, mem, &mut other)?;
        rf.flushrs(mem)?;
        rf.alloc(0, 0, 0, mem)?;
        rf.set_bspstore(bs);
        rf.set_rnat(rnat);
        rf.loadrs(0, mem)?;
        rf.ret(pfm_switch.to_bits(), mem)?;
    }
    unwind(rf, mem, &mut levels)?;
    rf.ret(pfm_setup.to_bits(), mem)?;
    check_frame(rf, 7000, outs, outs + 6)?;
    rf.ret(pfm_user.to_bits(), mem)?;
    Ok(())
}

#[test]
fn linux_syscall_round_trip_preserves_the_user_stack() -> TestResult {
    let kinds = [Kernel::Light, Kernel::Deep, Kernel::Schedules];
    for (n, user_start) in [0x0u64, 0x1E8, 0x1F8, 0x7C0].into_iter().enumerate() {
        for kind in kinds {
            for krbs in [KERNEL_RBS, KERNEL_RBS + 0x1D8] {
                let mut mem = memory()?;
                let mut rf = RegFile::new();
                rf.set_bspstore(USER_RBS + user_start);
                // Deep enough that some user frames are already in the user RBS.
                let mut levels = nest(&mut rf, &mut mem, 8 + 3 * n, 100)?;
                let outs = 4;
                rf.alloc(11 + outs as u8, 11, 0, &mut mem)?;
                fill_frame(&mut rf, 99, 0, 11 + outs)?;
                // Make RNAT distinctive without touching bits of registers already spilled.
                let unspilled = !0u64 << slot(rf.bspstore());
                rf.set_rnat(rf.rnat() | (0x5A5A_5A5A_5A5A_5A5A & unspilled));
                let before = view(&rf)?;
                assert!(rf.ndirty() > 0 && rf.bspstore() > USER_RBS + user_start, "dirty and spilled user frames");

                // Entry (break_fault): save BSPSTORE/RNAT, switch to the kernel RBS.
                let (user_bspstore, user_rnat) = (rf.bspstore(), rf.rnat());
                rf.set_bspstore(krbs);
                assert_eq!(rf.bsp(), bsp_after_push(krbs, u64::from(rf.ndirty())));
                kernel_work(&mut rf, &mut mem, kind, outs)?;

                // Exit (ia64_leave_syscall): cover, loadrs the dirty bytes, back to user RBS.
                let ifm = rf.cover();
                rf.alloc(0, 0, 0, &mut mem)?;
                let loads = rf.rse_loads();
                rf.loadrs(rf.bsp() - krbs, &mem)?;
                assert_eq!(rf.bspstore(), krbs);
                if !matches!(kind, Kernel::Light) {
                    assert!(rf.rse_loads() > loads, "loadrs reloaded spilled user registers");
                }
                rf.set_bspstore(user_bspstore);
                rf.set_rnat(user_rnat);
                rf.rfi_restore(ifm.to_bits(), &mut mem)?;

                assert_eq!(view(&rf)?, before, "user start {user_start:#x}, {kind:?}, krbs {krbs:#x}");
                check_invariants(&rf);
                // The rest of the user stack is consistent too.
                unwind(&mut rf, &mut mem, &mut levels)?;
            }
        }
    }
    Ok(())
}

/// Where logical `r` must live under the file's current BOF, CFM and bank, from the
/// architecture's rules directly (the lazily rebuilt map must agree after any sequence).
fn expected_physical(rf: &RegFile, r: u8) -> usize {
    let c = rf.cfm();
    match r {
        0..=15 => usize::from(r),
        16..=31 => usize::from(r - 16) + if rf.bank() == 0 { BANK0 } else { BANK1 },
        _ if r - 32 < c.sof => STACKED + rf.phys(usize::from(r - 32)),
        _ => OUTSIDE,
    }
}

/// Random calls, returns, allocs, covers, rename-base and bank changes, with the map read
/// after some of them only (so rebuilds span several frame changes): every register's
/// physical index, value and scoreboard resource agree with the direct computation.
#[test]
fn lazy_rename_map_follows_every_frame_change() -> TestResult {
    let mut mem = memory()?;
    let mut rf = RegFile::new();
    rf.set_bspstore(USER_RBS);
    let mut pfms = Vec::new();
    let mut seed = 0x0123_4567_89ab_cdefu64;
    for step in 0..4000u32 {
        seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        let pick = (seed >> 33) as u32;
        match pick % 7 {
            0 | 1 => {
                let sof = (pick >> 4) % 40;
                let sol = (pick >> 10) % (sof + 1);
                let sor = if rf.cfm().rrb_gr == 0 { ((pick >> 16) % (sof / 8 + 1)) as u8 } else { rf.cfm().sor };
                if rf.alloc(sof as u8, sol as u8, sor, &mut mem).is_ok() {
                    fill_frame(&mut rf, u64::from(step), 0, sof as usize)?;
                }
            }
            2 => pfms.push(rf.call().to_bits()),
            3 => {
                if let Some(pfm) = pfms.pop() {
                    rf.ret(pfm, &mut mem)?;
                }
            }
            4 => {
                let rotating = u32::from(rf.cfm().sor) * 8;
                let rrb = if rotating == 0 { 0 } else { (pick >> 8) % rotating };
                rf.set_rrb(rrb as u8, 0, 0);
            }
            5 => rf.set_bank((pick >> 8) as u8 & 1),
            _ => {
                if (pick >> 8).is_multiple_of(8) {
                    pfms.push(rf.cover().to_bits());
                }
            }
        }
        if !(pick >> 20).is_multiple_of(3) {
            continue;
        }
        for r in 0..128u8 {
            let want = expected_physical(&rf, r);
            assert_eq!(usize::from(rf.physical(r)), want, "step {step} r{r}");
            let got = rf.read_or_zero(r);
            let model = if want == OUTSIDE { (0, false) } else { (rf.values[want], rf.nats[want]) };
            assert_eq!(got, model, "step {step} r{r}");
            let res = if want == OUTSIDE {
                Res::gr_stacked(rf.phys(usize::from(r - 32)) as u16)
            } else {
                Res::gr_physical(want as u16)
            };
            assert_eq!(rf.res(r), res, "step {step} r{r}");
        }
    }
    Ok(())
}
