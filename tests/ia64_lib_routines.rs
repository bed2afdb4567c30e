//! Every routine of arch/ia64/lib in Debian's linux-source-6.1, built by acctemu alone
//! (acctemu's preprocessor with the kernel build's flags, its assembler with `-x
//! -mconstant-gp`, its linker), called on at least 1,000 random inputs each on the Itanium 2 model as a C caller
//! calls them: memory, return value and the preserved registers must equal the independent
//! Rust references of `ia64_lib/reference.rs`. The user-access routines also run into the
//! unmapped page after their buffers, where the kernel's fault path
//! (`arch_ia64::kernel_extable`: `__ex_table` fixups, psr.ed for `lfetch.fault`) makes them
//! return their documented error values.
//!
//! Two behaviours of the 6.1 code differ from its contract, and the test checks them exactly
//! where they occur rather than hiding them: `__do_clear_user` loses the caller's ar.lc
//! (`clear_user_loses_lc`), and the CONFIG_ITANIUM `__copy_user` can fault on a store no
//! `__ex_table` entry covers (`copy_user_oops`).
//!
//! Not covered: overlapping copies (no routine here allows them: memcpy and copy_user are
//! specified without overlap), `__strnlen_user` with a limit of 0 (its loop count would be
//! 2^64), division by zero and the overflowing signed quotient (undefined in C), and the
//! cost of the kernel's fault path (fixups are applied without running the interruption).
//!
//! `cargo test --test ia64_lib_routines -- --nocapture` prints the case counts and the cycles
//! per call at a few sizes.

#[path = "ia64_lib/build.rs"]
mod build;
#[path = "ia64_lib/call.rs"]
mod call;
mod common;
#[path = "common/kernel_corpus.rs"]
mod kernel_corpus;
#[path = "ia64_lib/link.rs"]
mod link;
#[path = "ia64_lib/reference.rs"]
mod reference;

use call::{buf, call, read, write, Lib, BUF_SIZE, VARS};
use emu_core::rng::Xorshift64;
use std::sync::OnceLock;

/// The two images: the `CONFIG_ITANIUM` objects with the rest of `lib-y`, and the
/// `CONFIG_MCKINLEY` ones (they define `memcpy`, `__copy_user` and `copy_page` again).
struct Images {
    itanium: Lib,
    mckinley: Lib,
}

fn images() -> Option<&'static Images> {
    static IMAGES: OnceLock<Option<Images>> = OnceLock::new();
    IMAGES
        .get_or_init(|| {
            let tree = common::kernel_source()?;
            let mck = ["copy_page_mck", "memcpy_mck"];
            let itanium_only = ["copy_page", "copy_user", "memcpy"];
            let built: Vec<(String, Vec<u8>)> =
                build::OBJECTS.iter().map(|o| (o.name.to_string(), build::build(&tree, o))).collect();
            let data = [("ia64_i_cache_stride_shift", VARS), ("ia64_cache_stride_shift", VARS + 8)];
            let pick = |keep: &dyn Fn(&str) -> bool| -> Vec<(String, Vec<u8>)> {
                built.iter().filter(|(n, _)| keep(n)).cloned().collect()
            };
            let itanium = link::link("itanium", &pick(&|n| !mck.contains(&n)), &data);
            let mckinley = link::link("mckinley", &pick(&|n| !itanium_only.contains(&n)), &data);
            Some(Images { itanium: Lib::new(itanium), mckinley: Lib::new(mckinley) })
        })
        .as_ref()
}

/// Cases per routine (the floor the issue sets).
const CASES: usize = 1000;

/// The outcome of one routine's cases.
struct Tally {
    routine: &'static str,
    cases: usize,
    faulting: usize,
    /// Faults the kernel's fault path handled: table fixups, and psr.ed deferrals.
    handled: usize,
    deferred: usize,
    failures: Vec<String>,
}

impl Tally {
    fn new(routine: &'static str) -> Tally {
        Tally { routine, cases: 0, faulting: 0, handled: 0, deferred: 0, failures: Vec::new() }
    }

    /// Records one case: `Err` is a difference from the reference, described.
    fn case(&mut self, faulting: bool, what: impl FnOnce() -> String, result: Result<(), String>) {
        self.cases += 1;
        self.faulting += usize::from(faulting);
        if let Err(e) = result {
            if self.failures.len() < 5 {
                self.failures.push(format!("{}: {e}", what()));
            } else if self.failures.len() == 5 {
                self.failures.push("...".into());
            }
        }
    }

    fn finish(self) {
        let bad = self.failures.len();
        eprintln!(
            "{:<22} {:>5} cases ({:>4} into unmapped pages; {:>4} __ex_table fixups, {:>4} psr.ed deferrals): {}",
            self.routine,
            self.cases,
            self.faulting,
            self.handled - self.deferred,
            self.deferred,
            if bad == 0 { "all equal to the reference".to_string() } else { "DIFFERENCES".to_string() }
        );
        assert!(self.cases >= CASES, "{}: only {} cases", self.routine, self.cases);
        assert!(bad == 0, "{} differs from the reference:\n{}", self.routine, self.failures.join("\n"));
    }
}

/// Compares a value with its reference.
fn same<T: PartialEq + std::fmt::Debug>(what: &str, got: T, want: T) -> Result<(), String> {
    if got == want {
        Ok(())
    } else {
        Err(format!("{what}: got {got:x?}, reference {want:x?}"))
    }
}

/// Compares memory with its reference, naming the first differing offset.
fn same_bytes(what: &str, got: &[u8], want: &[u8]) -> Result<(), String> {
    match got.iter().zip(want).position(|(a, b)| a != b) {
        None if got.len() == want.len() => Ok(()),
        None => Err(format!("{what}: {} bytes, reference {}", got.len(), want.len())),
        Some(i) => Err(format!("{what}: first difference at byte {i}: {:#04x}, reference {:#04x}", got[i], want[i])),
    }
}

fn bytes(rng: &mut Xorshift64, n: usize) -> Vec<u8> {
    let mut out: Vec<u8> = (0..n.div_ceil(8)).flat_map(|_| rng.next_u64().to_le_bytes()).collect();
    out.truncate(n);
    out
}

/// A size up to `max`, small sizes (where the routines' head and tail code lives) as often
/// as large ones.
fn size(rng: &mut Xorshift64, max: u64) -> u64 {
    match rng.below(3) {
        0 => rng.below(33),
        1 => rng.below(257),
        _ => rng.below(max + 1),
    }
}

/// Bytes around a destination `[at, at + len)` that must stay as they were: 64 on either
/// side, within the region.
fn window(region: u64, at: u64, len: u64) -> (u64, u64) {
    let lo = at.saturating_sub(64).max(region);
    let hi = (at + len + 64).min(region + BUF_SIZE);
    (lo, hi)
}

// ---------------------------------------------------------------- division

/// Operands for the division routines: every bit width, signs, and the edge values.
fn operand(rng: &mut Xorshift64, wide: bool) -> u64 {
    let v = match rng.below(6) {
        0 => rng.next_u64(),
        1 => rng.next_u64() >> rng.below(64),
        2 => rng.below(17),
        3 => (rng.below(17)).wrapping_neg(),
        4 => [0, 1, u64::MAX, i64::MAX as u64, i64::MIN as u64, u64::from(u32::MAX), 0x8000_0000, 0x7fff_ffff]
            [rng.index(8)],
        _ => 1u64 << rng.below(64),
    };
    if wide {
        v
    } else {
        // The 32-bit routines extend their operands themselves (`sxt4`/`zxt4`): the high half
        // of the register is garbage the caller may leave.
        (v & 0xffff_ffff) | rng.next_u64() << 32
    }
}

fn division(name: &'static str, signed: bool, modulo: bool, wide: bool) {
    let Some(img) = images() else { return };
    let lib = &img.itanium;
    let entry = lib.addr(name);
    let mut rng = Xorshift64::new(0xd1f0 ^ name.len() as u64 ^ u64::from(signed) << 8 ^ u64::from(modulo) << 9);
    let mut t = Tally::new(name);
    let mut m = lib.machine();
    while t.cases < CASES {
        let (a, b) = (operand(&mut rng, wide), operand(&mut rng, wide));
        let (ea, eb) = if wide {
            (a, b)
        } else if signed {
            (a as i32 as i64 as u64, b as i32 as i64 as u64)
        } else {
            (a as u32 as u64, b as u32 as u64)
        };
        // Division by zero and the one overflowing quotient are undefined in C.
        let min = if wide { i64::MIN as u64 } else { i32::MIN as i64 as u64 };
        if eb == 0 || (signed && ea == min && eb == u64::MAX) {
            continue;
        }
        let want = reference::divide(signed, modulo, wide, ea, eb);
        let got = call(lib, &mut m, entry, &[a, b], &mut rng).and_then(|r| {
            r.preserved()?;
            same("r8", r.r8, want)
        });
        t.case(false, || format!("{name}({a:#x}, {b:#x})"), got);
    }
    t.finish();
}

#[test]
fn divsi3() {
    division("__divsi3", true, false, false);
}
#[test]
fn udivsi3() {
    division("__udivsi3", false, false, false);
}
#[test]
fn modsi3() {
    division("__modsi3", true, true, false);
}
#[test]
fn umodsi3() {
    division("__umodsi3", false, true, false);
}
#[test]
fn divdi3() {
    division("__divdi3", true, false, true);
}
#[test]
fn udivdi3() {
    division("__udivdi3", false, false, true);
}
#[test]
fn moddi3() {
    division("__moddi3", true, true, true);
}
#[test]
fn umoddi3() {
    division("__umoddi3", false, true, true);
}

// ---------------------------------------------------------------- copies

/// Where a user-access case puts its buffers: inside the regions, or running into the
/// unmapped page after the source's or the destination's region.
#[derive(Clone, Copy, PartialEq, Debug)]
enum Fault {
    None,
    Source,
    Destination,
}

fn fault_kind(rng: &mut Xorshift64, user: bool) -> Fault {
    match (user, rng.below(4)) {
        (true, 0) => Fault::Source,
        (true, 1) => Fault::Destination,
        _ => Fault::None,
    }
}

/// A buffer start in `region` for `len` bytes: anywhere with any alignment, or (`fault`) so
/// that only `room < len` bytes are mapped, the rest in the unmapped page after the region.
fn place(rng: &mut Xorshift64, region: u64, len: u64, fault: bool) -> (u64, u64) {
    if fault && len > 0 {
        let room = rng.below(len);
        (region + BUF_SIZE - room, room)
    } else {
        let slack = BUF_SIZE - len - 128;
        (region + 64 + rng.below(slack / 16) * 16 + rng.below(16), len)
    }
}

/// memcpy(dst, src, n) -> dst, or __copy_user(to, from, n) -> bytes not copied.
///
/// The user side of a faulting case is the lower address, as in the kernel, where user
/// addresses lie below region 7 (the McKinley fixup tells a load fault from a store fault by
/// the order of the two addresses). `zero_tail`: the routine zero-fills the destination
/// past a failed load (the CONFIG_ITANIUM one does, as its failure code says); see
/// `reference::user_copy`.
///
/// `unguarded`: every case is a destination fault with `to` 8 modulo 16 away from `from`,
/// the cases `copy_user_oops` is about.
fn copy(lib: &Lib, routine: &'static str, user: bool, zero_tail: bool, seed: u64, unguarded: bool) {
    let entry = lib.addr(if user { "__copy_user" } else { "memcpy" });
    let mut rng = Xorshift64::new(seed);
    let mut t = Tally::new(routine);
    let (mut may_oops, mut oopses) = (0, 0);
    while t.cases < CASES {
        let n = size(&mut rng, 4096);
        let fault = if unguarded { Fault::Destination } else { fault_kind(&mut rng, user) };
        let swap = match fault {
            Fault::None => rng.bool(),
            Fault::Source => false,
            Fault::Destination => true,
        };
        let (src_region, dst_region) = if swap { (buf(1), buf(0)) } else { (buf(0), buf(1)) };
        let (src, src_room) = place(&mut rng, src_region, n, fault == Fault::Source);
        let (dst, dst_room) = place(&mut rng, dst_region, n, fault == Fault::Destination);
        let src = if unguarded { (src & !15) | ((dst & 15) ^ 8) } else { src };
        let mut m = lib.machine();
        let data = bytes(&mut rng, src_room as usize);
        write(&mut m, src, &data);
        let (lo, hi) = window(dst_region, dst, n);
        let before = bytes(&mut rng, (hi - lo) as usize);
        write(&mut m, lo, &before);
        let mut want = before;
        let at = (dst - lo) as usize;
        let left = reference::user_copy(&mut want[at..], dst_room, &data, n, zero_tail);
        let ret = if user { left } else { dst };
        let end = dst_region + BUF_SIZE;
        let oops = zero_tail && copy_user_oops(dst, src, n, fault, end);
        let got = match call(lib, &mut m, entry, &[dst, src, n], &mut rng) {
            Err(e) if oops => {
                if e.starts_with(call::OOPS) && e.contains(&format!("access at {end:#x}:")) {
                    oopses += 1;
                    Ok(())
                } else {
                    Err(format!("expected the oops of copy_user_oops, got: {e}"))
                }
            }
            Ok(_) if oops => Err("returned where copy_user_oops predicts an oops".into()),
            got => got.and_then(|r| {
                t.handled += r.fixups;
                t.deferred += r.deferred;
                r.preserved()?;
                same("r8", r.r8, ret)?;
                same_bytes("destination", &read(&m, lo, (hi - lo) as usize), &want)
            }),
        };
        may_oops += usize::from(oops);
        t.case(fault != Fault::None && n > 0, || format!("{routine}({dst:#x}, {src:#x}, {n}) {fault:?}"), got);
    }
    if zero_tail {
        eprintln!(
            "{routine}: {oopses} oopses (a store at an instruction without an __ex_table entry), \
             where copy_user_oops predicts {may_oops}"
        );
    }
    t.finish();
}

/// Whether the CONFIG_ITANIUM `__copy_user(to, from, n)` stores into the unmapped page at
/// `end` from an instruction `__ex_table` does not cover (in the kernel, an oops), a bug of
/// the 6.1 routine (arch/ia64/lib/copy_user.S): above 16 bytes (`COPY_BREAK`), its "same
/// alignment" test compares the addresses modulo 8, the head then copies until `from` is
/// 16-byte aligned, and the 16-byte loop guards its store to `dst1` but not the one to
/// `dst2 = dst1 + 8`, assuming (its comment says so) that a page boundary can only fall on
/// `dst1`. When `to` is 8 modulo 16 away from `from`, `dst1` is 8 modulo 16 in the loop, and
/// the boundary falls on `dst2` whenever the loop reaches it.
fn copy_user_oops(dst: u64, src: u64, n: u64, fault: Fault, end: u64) -> bool {
    if fault != Fault::Destination || n <= 16 || (dst ^ src) & 15 != 8 {
        return false;
    }
    let head = (16 - (src & 15)) & 15;
    let (loop_dst, chunks) = (dst + head, (n - head) / 16);
    // The loop's k-th `dst2` store is at loop_dst + 16k + 8; `end` is 16-byte aligned and
    // loop_dst is 8 modulo 16, so the boundary is on one of them if the loop gets that far.
    loop_dst + 8 <= end && end < loop_dst + 8 + 16 * chunks
}

#[test]
fn memcpy() {
    let Some(img) = images() else { return };
    copy(&img.itanium, "memcpy", false, false, 0x3e3c, false);
}
#[test]
fn memcpy_mck() {
    let Some(img) = images() else { return };
    copy(&img.mckinley, "memcpy (mck)", false, false, 0x3e3d, false);
}
#[test]
fn copy_user() {
    let Some(img) = images() else { return };
    copy(&img.itanium, "__copy_user", true, true, 0xc0c0, false);
}
/// The cases of `copy_user_oops` on their own: the oops happens exactly where predicted.
#[test]
fn copy_user_unguarded_store() {
    let Some(img) = images() else { return };
    copy(&img.itanium, "__copy_user (to 8 mod 16 from from)", true, true, 0xc0c2, true);
}
/// The same kind of cases for the McKinley routine, whose fixup covers them.
#[test]
fn copy_user_mck_unguarded_store() {
    let Some(img) = images() else { return };
    copy(&img.mckinley, "__copy_user (mck, to 8 mod 16 from from)", true, false, 0xc0c3, true);
}
#[test]
fn copy_user_mck() {
    let Some(img) = images() else { return };
    copy(&img.mckinley, "__copy_user (mck)", true, false, 0xc0c1, false);
}

/// memset(dst, c, n) -> dst, or __do_clear_user(to, n) -> bytes not cleared.
fn set(routine: &'static str, user: bool, seed: u64) {
    let Some(img) = images() else { return };
    let lib = &img.itanium;
    let entry = lib.addr(if user { "__do_clear_user" } else { "memset" });
    let mut rng = Xorshift64::new(seed);
    let mut t = Tally::new(routine);
    let mut t_lc = 0;
    while t.cases < CASES {
        let n = size(&mut rng, 4096);
        let fault = if user && rng.below(3) == 0 { Fault::Destination } else { Fault::None };
        let (dst, room) = place(&mut rng, buf(1), n, fault == Fault::Destination);
        // memset's int converted to unsigned char: bits above the low byte must not matter.
        let c = if user { 0 } else { rng.next_u64() as u32 as i32 as i64 as u64 };
        let mut m = lib.machine();
        let (lo, hi) = window(buf(1), dst, n);
        let mut want = bytes(&mut rng, (hi - lo) as usize);
        write(&mut m, lo, &want);
        let (done, left) = reference::user_copy_count(n, u64::MAX, room);
        let at = (dst - lo) as usize;
        want[at..at + done as usize].fill(c as u8);
        let args = if user { vec![dst, n] } else { vec![dst, c, n] };
        let got = call(lib, &mut m, entry, &args, &mut rng).and_then(|r| {
            t.handled += r.fixups;
            t.deferred += r.deferred;
            if user && clear_user_loses_lc(dst, n, fault) {
                // The kernel's own bug, reproduced exactly: see `clear_user_loses_lc`.
                t_lc += 1;
                let lc = [("ar.lc".to_string(), r.clobbered.first().map_or(0, |c| c.1), u128::from(n - 1))];
                same("clobbered", &r.clobbered[..], &lc[..])?;
            } else {
                r.preserved()?;
            }
            same("r8", r.r8, if user { left } else { dst })?;
            same_bytes("destination", &read(&m, lo, (hi - lo) as usize), &want)
        });
        t.case(fault != Fault::None && n > 0, || format!("{routine}({dst:#x}, {c:#x}, {n}) {fault:?}"), got);
    }
    if user {
        eprintln!("{routine}: ar.lc lost in {t_lc} cases, as the kernel's code does (see clear_user_loses_lc)");
    }
    t.finish();
}

/// Whether `__do_clear_user(to, n)` returns with the caller's ar.lc lost, a bug of the
/// 6.1 routine (arch/ia64/lib/clear_user.S): for `n > 16` it sets ar.lc to `n - 1` for its
/// byte loop before branching to the long path, and when fewer than 16 bytes remain after the
/// head stores that align `to` to 16 bytes, the long path branches to its tail past the
/// `mov ar.lc=saved_lc`, and returns without restoring ar.lc (ar.lc is preserved in the
/// software conventions). A store fault leaves through the fixup, which restores it.
fn clear_user_loses_lc(to: u64, n: u64, fault: Fault) -> bool {
    let head = (16 - (to & 15)) & 15;
    fault == Fault::None && n > 16 && n - head < 16
}

#[test]
fn memset() {
    set("memset", false, 0x5e7);
}
#[test]
fn clear_user() {
    set("__do_clear_user", true, 0xc1ea);
}

/// copy_page(to, from) and clear_page(page) on whole pages (16 KiB, [`build::PAGE`]).
fn page(lib: &Lib, routine: &'static str, clear: bool, seed: u64) {
    const PAGE: u64 = build::PAGE;
    let entry = lib.addr(if clear { "clear_page" } else { "copy_page" });
    let mut rng = Xorshift64::new(seed);
    let mut t = Tally::new(routine);
    while t.cases < CASES {
        let to = buf(1) + PAGE * rng.below(BUF_SIZE / PAGE);
        let from = buf(0) + PAGE * rng.below(BUF_SIZE / PAGE);
        let mut m = lib.machine();
        let data = bytes(&mut rng, PAGE as usize);
        write(&mut m, from, &data);
        // The bytes beside the target are filled too, so a stray store shows.
        let (lo, hi) = window(buf(1), to, PAGE);
        let mut want = bytes(&mut rng, (hi - lo) as usize);
        write(&mut m, lo, &want);
        let at = (to - lo) as usize;
        let page = &mut want[at..at + PAGE as usize];
        if clear {
            page.fill(0);
        } else {
            page.copy_from_slice(&data);
        }
        let args = if clear { vec![to] } else { vec![to, from] };
        let got = call(lib, &mut m, entry, &args, &mut rng)
            .and_then(|r| r.preserved())
            .and_then(|_| same_bytes("target page and its neighbours", &read(&m, lo, (hi - lo) as usize), &want));
        t.case(false, || format!("{routine}({to:#x}, {from:#x})"), got);
    }
    t.finish();
}

#[test]
fn copy_page() {
    let Some(img) = images() else { return };
    page(&img.itanium, "copy_page", false, 0xc09a);
}
#[test]
fn copy_page_mck() {
    let Some(img) = images() else { return };
    page(&img.mckinley, "copy_page (mck)", false, 0xc09b);
}
#[test]
fn clear_page() {
    let Some(img) = images() else { return };
    page(&img.itanium, "clear_page", true, 0xc1e9);
}

// ---------------------------------------------------------------- strings

/// A string of `len` non-NUL bytes (`nul`: followed by a NUL), as bytes.
fn string(rng: &mut Xorshift64, len: usize, nul: bool) -> Vec<u8> {
    let mut s: Vec<u8> = (0..len).map(|_| (rng.below(255) + 1) as u8).collect();
    if nul {
        s.push(0);
    }
    s
}

#[test]
fn strlen() {
    let Some(img) = images() else { return };
    let lib = &img.itanium;
    let entry = lib.addr("strlen");
    let mut rng = Xorshift64::new(0x57e1);
    let mut t = Tally::new("strlen");
    while t.cases < CASES {
        let len = size(&mut rng, 3000) as usize;
        let s = string(&mut rng, len, true);
        // A third end at the last byte of the region: the routine's speculative loads run
        // into the unmapped page and must be deferred, not fault.
        let at_end = rng.below(3) == 0;
        let at =
            if at_end { buf(0) + BUF_SIZE - s.len() as u64 } else { place(&mut rng, buf(0), s.len() as u64, false).0 };
        let mut m = lib.machine();
        // Garbage after the NUL, so reading past it shows.
        write(&mut m, at, &s);
        if !at_end {
            let tail = bytes(&mut rng, 32);
            write(&mut m, at + s.len() as u64, &tail);
        }
        let got = call(lib, &mut m, entry, &[at], &mut rng).and_then(|r| {
            t.handled += r.fixups;
            t.deferred += r.deferred;
            r.preserved()?;
            same("r8", r.r8, reference::strlen(&s))
        });
        t.case(at_end, || format!("strlen({at:#x}) of {len} bytes"), got);
    }
    t.finish();
}

#[test]
fn strnlen_user() {
    let Some(img) = images() else { return };
    let lib = &img.itanium;
    let entry = lib.addr("__strnlen_user");
    let mut rng = Xorshift64::new(0x57e2);
    let mut t = Tally::new("__strnlen_user");
    while t.cases < CASES {
        let len = size(&mut rng, 2000) as usize;
        let nul = rng.below(4) != 0;
        let s = string(&mut rng, len, nul);
        // The limit: below, at and above the length. The routine loops ar.lc = N - 1 times,
        // so N = 0 (an ar.lc of 2^64 - 1) is outside its contract.
        let n = match rng.below(3) {
            0 => 1 + rng.below(len as u64 + 1),
            1 => len as u64 + 1,
            _ => len as u64 + 1 + rng.below(64),
        };
        let fault = !nul || rng.below(4) == 0;
        let (at, readable) = if fault {
            (buf(0) + BUF_SIZE - s.len() as u64, s.len())
        } else {
            (place(&mut rng, buf(0), s.len() as u64 + 64, false).0, s.len() + 64)
        };
        let mut m = lib.machine();
        write(&mut m, at, &s);
        let mut view = s.clone();
        if !fault {
            let tail = bytes(&mut rng, 64);
            write(&mut m, at + s.len() as u64, &tail);
            view.extend_from_slice(&tail);
        }
        let want = reference::strnlen_user(&view[..readable], n);
        let got = call(lib, &mut m, entry, &[at, n], &mut rng).and_then(|r| {
            t.handled += r.fixups;
            t.deferred += r.deferred;
            r.preserved()?;
            same("r8", r.r8, want)
        });
        t.case(fault, || format!("__strnlen_user({at:#x}, {n}) of {len} bytes, NUL {nul}"), got);
    }
    t.finish();
}

#[test]
fn strncpy_from_user() {
    let Some(img) = images() else { return };
    let lib = &img.itanium;
    let entry = lib.addr("__strncpy_from_user");
    let mut rng = Xorshift64::new(0x57e3);
    let mut t = Tally::new("__strncpy_from_user");
    while t.cases < CASES {
        let len = size(&mut rng, 2000) as usize;
        let nul = rng.below(4) != 0;
        let s = string(&mut rng, len, nul);
        let n = match rng.below(3) {
            0 => rng.below(len as u64 + 1),
            1 => len as u64 + 1,
            _ => len as u64 + rng.below(64),
        };
        let fault = match rng.below(4) {
            0 => Fault::Source,
            1 => Fault::Destination,
            _ => Fault::None,
        };
        // The source region holds the string, then (unless it faults) random bytes.
        let (src, readable) = if fault == Fault::Source {
            (buf(0) + BUF_SIZE - s.len() as u64, s.len())
        } else {
            (place(&mut rng, buf(0), s.len() as u64 + 64, false).0, s.len() + 64)
        };
        let (dst, dst_room) = place(&mut rng, buf(1), n, fault == Fault::Destination);
        let mut m = lib.machine();
        write(&mut m, src, &s);
        let mut view = s.clone();
        if fault != Fault::Source {
            let tail = bytes(&mut rng, 64);
            write(&mut m, src + s.len() as u64, &tail);
            view.extend_from_slice(&tail);
        }
        let (lo, hi) = window(buf(1), dst, n);
        let mut want = bytes(&mut rng, (hi - lo) as usize);
        write(&mut m, lo, &want);
        let at = (dst - lo) as usize;
        let ret = reference::strncpy_from_user(&mut want[at..], dst_room as usize, &view[..readable], n);
        let got = call(lib, &mut m, entry, &[dst, src, n], &mut rng).and_then(|r| {
            t.handled += r.fixups;
            t.deferred += r.deferred;
            r.preserved()?;
            same("r8", r.r8, ret)?;
            same_bytes("destination", &read(&m, lo, (hi - lo) as usize), &want)
        });
        t.case(
            fault != Fault::None,
            || format!("__strncpy_from_user({dst:#x}, {src:#x}, {n}) of {len}, {fault:?}"),
            got,
        );
    }
    t.finish();
}

// ---------------------------------------------------------------- checksums

#[test]
fn do_csum() {
    let Some(img) = images() else { return };
    let lib = &img.itanium;
    let entry = lib.addr("do_csum");
    let mut rng = Xorshift64::new(0xc5c5);
    let mut t = Tally::new("do_csum");
    while t.cases < CASES {
        let n = size(&mut rng, 4096);
        let at = place(&mut rng, buf(0), n, false).0;
        // All-0xff and all-zero data reach the ends of the ones'-complement range.
        let data = match rng.below(8) {
            0 => vec![0xff; n as usize],
            1 => vec![0; n as usize],
            _ => bytes(&mut rng, n as usize),
        };
        let mut m = lib.machine();
        write(&mut m, at, &data);
        let got = call(lib, &mut m, entry, &[at, n], &mut rng).and_then(|r| {
            r.preserved()?;
            same("r8", r.r8, reference::do_csum(&data))
        });
        t.case(false, || format!("do_csum({at:#x}, {n})"), got);
    }
    t.finish();
}

#[test]
fn ip_fast_csum() {
    let Some(img) = images() else { return };
    let lib = &img.itanium;
    let entry = lib.addr("ip_fast_csum");
    let mut rng = Xorshift64::new(0x1bc5);
    let mut t = Tally::new("ip_fast_csum");
    let mut high_set = 0;
    while t.cases < CASES {
        // Mostly the fast case (a 4-byte aligned 20-byte header), also every other length
        // and alignment, which the routine hands to do_csum.
        let (ihl, align) = if rng.bool() { (5, 4 * rng.below(4)) } else { (1 + rng.below(15), rng.below(16)) };
        let at = buf(0) + 64 + 16 * rng.below(1000) + align;
        let data = bytes(&mut rng, 4 * ihl as usize);
        let mut m = lib.machine();
        write(&mut m, at, &data);
        let got = call(lib, &mut m, entry, &[at, ihl], &mut rng).and_then(|r| {
            r.preserved()?;
            // `__sum16 ip_fast_csum(...)`: the value is the low 16 bits. The routine leaves
            // bits 16-63 set (it complements the whole register), which a C caller, reading
            // an unsigned short, ignores; they are counted and printed.
            high_set += usize::from(r.r8 >> 16 == 0xffff_ffff_ffff);
            same("r8 (bits 0-15)", r.r8 & 0xffff, reference::ip_fast_csum(&data))
        });
        t.case(false, || format!("ip_fast_csum({at:#x}, {ihl})"), got);
    }
    eprintln!("ip_fast_csum: r8 bits 16-63 all ones in {high_set} of {} cases (the C type is 16 bits)", t.cases);
    t.finish();
}

#[test]
fn csum_ipv6_magic() {
    let Some(img) = images() else { return };
    let lib = &img.itanium;
    let entry = lib.addr("csum_ipv6_magic");
    let mut rng = Xorshift64::new(0x1bc6);
    let mut t = Tally::new("csum_ipv6_magic");
    while t.cases < CASES {
        let saddr: [u8; 16] = bytes(&mut rng, 16).try_into().expect("16 bytes");
        let daddr: [u8; 16] = bytes(&mut rng, 16).try_into().expect("16 bytes");
        let len = if rng.bool() { rng.below(65536) as u32 } else { rng.next_u64() as u32 };
        let proto = rng.next_u64() as u8;
        let sum = rng.next_u64() as u32;
        let (sa, da) = (buf(0) + 8 * rng.below(512), buf(1) + 8 * rng.below(512));
        let mut m = lib.machine();
        write(&mut m, sa, &saddr);
        write(&mut m, da, &daddr);
        let args = [sa, da, u64::from(len), u64::from(proto), u64::from(sum)];
        let got = call(lib, &mut m, entry, &args, &mut rng).and_then(|r| {
            r.preserved()?;
            same("r8", r.r8, reference::csum_ipv6_magic(&saddr, &daddr, len, proto, sum))
        });
        t.case(false, || format!("csum_ipv6_magic({sa:#x}, {da:#x}, {len:#x}, {proto}, {sum:#x})"), got);
    }
    t.finish();
}

// ---------------------------------------------------------------- xor and cache flushes

#[test]
fn xor() {
    let Some(img) = images() else { return };
    let lib = &img.itanium;
    let mut rng = Xorshift64::new(0x0a0a);
    for k in 2..=5usize {
        let name: &'static str = ["xor_ia64_2", "xor_ia64_3", "xor_ia64_4", "xor_ia64_5"][k - 2];
        let entry = lib.addr(name);
        let mut t = Tally::new(name);
        while t.cases < CASES {
            // The routines move 8-byte words, `bytes / 8` of them (at least one).
            let n = 8 * (1 + size(&mut rng, 511));
            let at: Vec<u64> = (0..k as u64).map(|i| buf(i) + 8 * rng.below((BUF_SIZE - n) / 8)).collect();
            let mut m = lib.machine();
            let blocks: Vec<Vec<u8>> = (0..k).map(|_| bytes(&mut rng, n as usize)).collect();
            for (a, b) in at.iter().zip(&blocks) {
                write(&mut m, *a, b);
            }
            let (lo, hi) = window(buf(0), at[0], n);
            let mut want = read(&m, lo, (hi - lo) as usize);
            let off = (at[0] - lo) as usize;
            let others: Vec<&[u8]> = blocks[1..].iter().map(Vec::as_slice).collect();
            reference::xor_into(&mut want[off..off + n as usize], &others);
            let mut args = vec![n];
            args.extend(&at);
            let got = call(lib, &mut m, entry, &args, &mut rng).and_then(|r| {
                r.preserved()?;
                same_bytes("p1", &read(&m, lo, (hi - lo) as usize), &want)?;
                // The others are only read.
                for (i, (a, b)) in at.iter().zip(&blocks).enumerate().skip(1) {
                    same_bytes(&format!("p{}", i + 1), &read(&m, *a, n as usize), b)?;
                }
                Ok(())
            });
            t.case(false, || format!("{name}({n}, {at:x?})"), got);
        }
        t.finish();
    }
}

/// The address (bundle | slot) of the first instruction of `entry`'s code whose mnemonic is
/// `mnemonic`.
fn find_insn(lib: &Lib, entry: u64, mnemonic: &str) -> u64 {
    let code = lib
        .image
        .sections
        .iter()
        .find(|s| s.addr <= entry && entry < s.addr + s.size())
        .expect("the routine's section");
    for at in (entry..code.addr + code.size()).step_by(16) {
        let off = (at - code.addr) as usize;
        let b: [u8; 16] = code.data[off..off + 16].try_into().expect("a bundle");
        let bundle = arch_ia64::decode::decode_bundle(b).expect("decodable code");
        for (slot, s) in bundle.slots.iter().enumerate() {
            if let arch_ia64::decode::Slot::Insn(i) = s {
                if i.form().mnemonic(i.raw.slot).as_deref() == Some(mnemonic) {
                    return at | slot as u64;
                }
            }
        }
    }
    panic!("no {mnemonic} after {entry:#x}");
}

/// flush_icache_range(start, end) and clflush_cache_range(start, size): `fc.i` / `fc` once
/// per cache line of the stride `ia64_*cache_stride_shift` gives, counted by the profile;
/// r8 is the line count minus one (the loop count the routine computes). No memory changes.
fn flush(name: &'static str, fc: &str, size_arg: bool, seed: u64) {
    let Some(img) = images() else { return };
    let lib = &img.itanium;
    let entry = lib.addr(name);
    let fc_at = find_insn(lib, entry, fc);
    let mut rng = Xorshift64::new(seed);
    let mut t = Tally::new(name);
    while t.cases < CASES {
        let shift = 5 + rng.below(4) as u32;
        let start = buf(0) + rng.below(BUF_SIZE / 2);
        let len = 1 + size(&mut rng, 8192);
        let mut m = lib.machine();
        m.cpu.enable_profile();
        let var = if size_arg { VARS + 8 } else { VARS };
        m.mem.write_u64(var, u64::from(shift)).expect("the variable page");
        let before = read(&m, buf(0), BUF_SIZE as usize);
        let lines = reference::lines_covering(start, start + len - 1, shift);
        let args = [start, if size_arg { len } else { start + len }];
        let got = call(lib, &mut m, entry, &args, &mut rng).and_then(|r| {
            r.preserved()?;
            same("r8", r.r8, lines - 1)?;
            let runs = m.cpu.profile().and_then(|p| p.groups.get(&fc_at)).map_or(0, |g| g.runs);
            same(&format!("{fc} executions"), runs, lines)?;
            same_bytes("memory", &read(&m, buf(0), BUF_SIZE as usize), &before)
        });
        t.case(false, || format!("{name}({:#x}, {:#x}), stride 2^{shift}", args[0], args[1]), got);
    }
    t.finish();
}

#[test]
fn flush_icache_range() {
    flush("flush_icache_range", "fc.i", false, 0xf1c1);
}
#[test]
fn clflush_cache_range() {
    flush("clflush_cache_range", "fc", true, 0xf1c2);
}

// ---------------------------------------------------------------- cycles

/// One row of the cycles table: the routine, its image, how to call it for a size (the
/// arguments, after preparing memory), and the r8 it must return.
type Setup = fn(&mut emu_core::cpu::Machine<arch_ia64::cpu::Ia64Cpu>, u64) -> (Vec<u64>, Option<u64>);

fn cycles_row(lib: &Lib, label: &str, entry: &str, sizes: &[u64], setup: Setup) -> String {
    let entry = lib.addr(entry);
    let mut rng = Xorshift64::new(0xcc);
    let mut row = format!("{label:<24}");
    for &n in sizes {
        let mut m = lib.machine();
        let (args, want) = setup(&mut m, n);
        let r = call(lib, &mut m, entry, &args, &mut rng).unwrap_or_else(|e| panic!("{label}({n}): {e}"));
        assert!(r.clobbered.is_empty() || label == "__do_clear_user", "{label}({n}): {:?}", r.preserved());
        assert_eq!(r.fixups, 0, "{label}({n}): a call within mapped memory took a fault");
        if let Some(w) = want {
            assert_eq!(r.r8, w, "{label}({n}): r8");
        }
        row.push_str(&format!(" {n:>5} {:>6} {:>6} |", r.cycles, r.insns));
    }
    row
}

/// Prints the cycles and instructions per call on the Itanium 2 model at a few sizes
/// (`--nocapture`), from the call to the return at the sentinel. (The model keeps no cache
/// state between calls: a second identical call costs the same, so one call is shown.)
#[test]
fn cycles_per_call() {
    let Some(img) = images() else { return };
    let sizes = [8, 64, 512, 4096];
    let mut out = String::from("routine                  (bytes, cycles, instructions) per call\n");
    let rows: Vec<(&Lib, &str, &str, Setup)> = vec![
        (&img.itanium, "memcpy", "memcpy", |_, n| (vec![buf(1) + 8, buf(0), n], Some(buf(1) + 8))),
        (&img.mckinley, "memcpy (mck)", "memcpy", |_, n| (vec![buf(1) + 8, buf(0), n], Some(buf(1) + 8))),
        (&img.itanium, "memcpy misaligned", "memcpy", |_, n| (vec![buf(1) + 3, buf(0) + 1, n], Some(buf(1) + 3))),
        (&img.mckinley, "memcpy (mck) misaligned", "memcpy", |_, n| {
            (vec![buf(1) + 3, buf(0) + 1, n], Some(buf(1) + 3))
        }),
        (&img.itanium, "__copy_user", "__copy_user", |_, n| (vec![buf(1), buf(0), n], Some(0))),
        (&img.mckinley, "__copy_user (mck)", "__copy_user", |_, n| (vec![buf(1), buf(0), n], Some(0))),
        (&img.itanium, "memset", "memset", |_, n| (vec![buf(1), 0x5a, n], Some(buf(1)))),
        (&img.itanium, "__do_clear_user", "__do_clear_user", |_, n| (vec![buf(1), n], Some(0))),
        (&img.itanium, "strlen", "strlen", |m, n| {
            write(m, buf(0), &vec![b'a'; n as usize]);
            (vec![buf(0)], Some(n))
        }),
        (&img.itanium, "__strnlen_user", "__strnlen_user", |m, n| {
            write(m, buf(0), &vec![b'a'; n as usize]);
            (vec![buf(0), n + 1], Some(n + 1))
        }),
        (&img.itanium, "__strncpy_from_user", "__strncpy_from_user", |m, n| {
            write(m, buf(0), &vec![b'a'; n as usize]);
            (vec![buf(1), buf(0), n + 1], Some(n))
        }),
        (&img.itanium, "do_csum", "do_csum", |_, n| (vec![buf(0), n], Some(0))),
        (&img.itanium, "xor_ia64_2", "xor_ia64_2", |_, n| (vec![n, buf(0), buf(1)], None)),
        (&img.itanium, "xor_ia64_5", "xor_ia64_5", |_, n| (vec![n, buf(0), buf(1), buf(2), buf(3), buf(4)], None)),
        (&img.itanium, "flush_icache_range", "flush_icache_range", |m, n| {
            m.mem.write_u64(VARS, 5).expect("variable page");
            (vec![buf(0), buf(0) + n], Some(n.div_ceil(32) - 1))
        }),
        (&img.itanium, "clflush_cache_range", "clflush_cache_range", |m, n| {
            m.mem.write_u64(VARS + 8, 7).expect("variable page");
            (vec![buf(0), n], Some(n.div_ceil(128) - 1))
        }),
    ];
    for (lib, label, entry, setup) in rows {
        out.push_str(&cycles_row(lib, label, entry, &sizes, setup));
        out.push('\n');
    }
    // Fixed-size routines.
    let fixed: Vec<(&Lib, &str, &str, Setup)> = vec![
        (&img.itanium, "copy_page (16 KiB)", "copy_page", |_, _| (vec![buf(1), buf(0)], None)),
        (&img.mckinley, "copy_page (mck)", "copy_page", |_, _| (vec![buf(1), buf(0)], None)),
        (&img.itanium, "clear_page (16 KiB)", "clear_page", |_, _| (vec![buf(1)], None)),
        (&img.itanium, "ip_fast_csum (ihl 5)", "ip_fast_csum", |_, _| (vec![buf(0), 5], None)),
        (&img.itanium, "csum_ipv6_magic", "csum_ipv6_magic", |_, _| (vec![buf(0), buf(1), 1280, 6, 0], None)),
        (&img.itanium, "__divsi3 (1e9 / 7)", "__divsi3", |_, _| (vec![1_000_000_000, 7], Some(1_000_000_000 / 7))),
        (&img.itanium, "__udivsi3", "__udivsi3", |_, _| (vec![4_000_000_000, 7], Some(4_000_000_000 / 7))),
        (&img.itanium, "__modsi3", "__modsi3", |_, _| (vec![1_000_000_000, 7], Some(1_000_000_000 % 7))),
        (&img.itanium, "__umodsi3", "__umodsi3", |_, _| (vec![4_000_000_000, 7], Some(4_000_000_000 % 7))),
        (&img.itanium, "__divdi3 (1e18 / 7)", "__divdi3", |_, _| {
            (vec![1_000_000_000_000_000_000, 7], Some(1_000_000_000_000_000_000 / 7))
        }),
        (&img.itanium, "__udivdi3", "__udivdi3", |_, _| (vec![u64::MAX, 7], Some(u64::MAX / 7))),
        (&img.itanium, "__moddi3", "__moddi3", |_, _| {
            (vec![1_000_000_000_000_000_000, 7], Some(1_000_000_000_000_000_000 % 7))
        }),
        (&img.itanium, "__umoddi3", "__umoddi3", |_, _| (vec![u64::MAX, 7], Some(u64::MAX % 7))),
    ];
    for (lib, label, entry, setup) in fixed {
        out.push_str(&cycles_row(lib, label, entry, &[0], setup));
        out.push('\n');
    }
    eprintln!("{out}");
}

/// The command-line way to time one call: `acctemu run OBJ --entry F --set cfm=N --set
/// r32=...` (the `cfm` override gives the routine its arguments' frame), on the object
/// acctemu builds from the tree.
#[test]
fn the_command_line_runs_a_routine_with_its_arguments() {
    let Some(tree) = common::kernel_source() else { return };
    let obj = build::OBJECTS.iter().find(|o| o.name == "memcpy_mck").expect("listed");
    let dir = build::scratch().join("cli");
    std::fs::create_dir_all(&dir).expect("scratch directory");
    let path = dir.join("memcpy_mck.o");
    std::fs::write(&path, build::build(&tree, obj)).expect("object");
    let harness = dir.join("harness.toml");
    let mut text = arch_ia64::run::DEFAULT_HARNESS.to_string();
    text.push_str("\n[[region]]\nname = \"buf\"\nbase = \"0x80000000\"\nsize = \"0x10000\"\nperms = \"rw\"\n");
    std::fs::write(&harness, text).expect("harness");
    let (p, h) = (path.to_string_lossy().to_string(), harness.to_string_lossy().to_string());
    let args = ["run", "-v", &p, "--entry", "memcpy", "--harness", &h, "--set", "cfm=3"];
    let sets = ["--set", "r32=0x80008000", "--set", "r33=0x80000003", "--set", "r34=1000"];
    let out = common::acctemu(&[&args[..], &sets[..]].concat());
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout.contains("returned to the sentinel"), "{stdout}");
    assert!(stdout.contains("r8: \"0x0000000080008000\""), "memcpy returns its destination:\n{stdout}");
    let cycles = stdout.lines().find(|l| l.starts_with("cycles")).expect("a cycle count");
    eprintln!("acctemu run memcpy_mck.o --entry memcpy (1000 bytes, source 3 bytes off): {cycles}");
}
