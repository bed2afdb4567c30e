//! The multimedia instructions (issue 12) against an independent per-element reference.
//!
//! Each form is assembled once, predecoded, and executed by the emulator's semantic dispatch
//! on at least 2,000 pseudo-random operand pairs (fixed-seed xorshift, biased toward the
//! element boundaries where saturation and rounding matter), plus pairs with NaT sources.
//! The reference below is written from the SDM vol. 3 instruction pages (padd, psub, pavg,
//! pavgsub, pcmp, pshladd2, pshradd2, pmpyshr2, pmpy2, mix, pack, unpack, pmin, pmax, psad1,
//! mux, pshr, pshl, popcnt, clz, czx) in the plainest terms: elements as arrays of i64,
//! saturation by clamping wide arithmetic. It shares no code with `arch-ia64/src/exec/mm.rs`.
//! A few whole runs check the forms also execute predicated through the full CPU.

#[path = "ia64_exec/helpers.rs"]
#[allow(dead_code)] // the shared helpers serve several test files
mod helpers;
#[path = "common/ia64_unit.rs"]
#[allow(dead_code)] // not every test file uses every helper
mod ia64_unit;

use arch_ia64::exec::op::Op;
use arch_ia64::exec::predecode::Exec;
use arch_ia64::exec::Trap;
use emu_core::rng::Xorshift64;
use helpers::{nat, reg, run};
use ia64_unit::exec_gr;

/// Operand pairs per form (the brief's minimum).
const PAIRS: usize = 2000;
/// Extra pairs per form with NaT sources.
const NAT_PAIRS: usize = 64;

/// Multimedia operands drawn from the shared fixed-seed generator.
trait MmOperands {
    /// A 64-bit operand: uniformly random, or (one time in three) built from boundary
    /// elements 0, 1, 0x7f.., 0x80.., 0xff.. of a random width, so that saturation, rounding
    /// and equal elements all occur.
    fn operand(&mut self) -> u64;
}

impl MmOperands for Xorshift64 {
    fn operand(&mut self) -> u64 {
        if !self.next_u64().is_multiple_of(3) {
            return self.next_u64();
        }
        let bytes = [1usize, 2, 4][(self.next_u64() % 3) as usize];
        let mut v = 0u64;
        for i in 0..8 / bytes {
            let w = bytes * 8;
            let max = if w == 64 { u64::MAX } else { (1u64 << w) - 1 };
            let e = match self.next_u64() % 6 {
                0 => 0,
                1 => 1,
                2 => max >> 1,
                3 => (max >> 1) + 1,
                4 => max,
                _ => self.next_u64() & max,
            };
            v |= e << (i * w);
        }
        v
    }
}

/// The elements of `x`, `n` bytes each, element 0 first, zero-extended.
fn uel(x: u64, n: usize) -> Vec<i64> {
    let w = n * 8;
    (0..8 / n).map(|i| ((x >> (i * w)) & ((1u64 << w) - 1)) as i64).collect()
}

/// The elements of `x`, sign-extended.
fn sel(x: u64, n: usize) -> Vec<i64> {
    let w = n * 8;
    uel(x, n).into_iter().map(|e| if e >> (w - 1) & 1 == 1 { e - (1i64 << w) } else { e }).collect()
}

/// Packs elements (each cut to `n` bytes), element 0 lowest.
fn join(els: &[i64], n: usize) -> u64 {
    let w = n * 8;
    els.iter().enumerate().fold(0u64, |v, (i, e)| v | (((*e as u64) & ((1u64 << w) - 1)) << (i * w)))
}

fn smin(n: usize) -> i64 {
    -(1i64 << (n * 8 - 1))
}

fn smax(n: usize) -> i64 {
    (1i64 << (n * 8 - 1)) - 1
}

fn umax(n: usize) -> i64 {
    (1i64 << (n * 8)) - 1
}

fn clamp(v: i64, lo: i64, hi: i64) -> i64 {
    if v < lo {
        lo
    } else if v > hi {
        hi
    } else {
        v
    }
}

/// One form under test: its source line (r8 is the target, r9/r10 the sources) and the
/// reference computing r8 from r9 and r10.
struct Case {
    line: String,
    /// Whether r10 is a source (the unary forms and immediate shifts read only r9).
    reads_r10: bool,
    reference: Box<dyn Fn(u64, u64) -> u64>,
}

fn case(line: impl Into<String>, reads_r10: bool, f: impl Fn(u64, u64) -> u64 + 'static) -> Case {
    Case { line: line.into(), reads_r10, reference: Box::new(f) }
}

/// Element size from a mnemonic's first digit.
fn size_in(name: &str) -> usize {
    name.chars().find(|c| c.is_ascii_digit()).and_then(|c| c.to_digit(10)).unwrap_or(1) as usize
}

fn elementwise(a: u64, b: u64, n: usize, f: impl Fn(i64, i64, i64, i64) -> i64) -> u64 {
    let (ua, ub, sa, sb) = (uel(a, n), uel(b, n), sel(a, n), sel(b, n));
    let r: Vec<i64> = (0..8 / n).map(|i| f(ua[i], ub[i], sa[i], sb[i])).collect();
    join(&r, n)
}

/// Every case: each real multimedia row, with every immediate value that changes behaviour.
fn cases() -> Vec<Case> {
    let mut v = Vec::new();
    for op in ["padd", "psub"] {
        let sign: i64 = if op == "padd" { 1 } else { -1 };
        for n in [1usize, 2, 4] {
            v.push(case(format!("{op}{n} r8=r9,r10"), true, move |a, b| {
                elementwise(a, b, n, |ua, ub, _, _| ua + sign * ub)
            }));
            if n == 4 {
                continue;
            }
            v.push(case(format!("{op}{n}.sss r8=r9,r10"), true, move |a, b| {
                elementwise(a, b, n, |_, _, sa, sb| clamp(sa + sign * sb, smin(n), smax(n)))
            }));
            v.push(case(format!("{op}{n}.uuu r8=r9,r10"), true, move |a, b| {
                elementwise(a, b, n, |ua, ub, _, _| clamp(ua + sign * ub, 0, umax(n)))
            }));
            v.push(case(format!("{op}{n}.uus r8=r9,r10"), true, move |a, b| {
                elementwise(a, b, n, |ua, _, _, sb| clamp(ua + sign * sb, 0, umax(n)))
            }));
        }
    }
    for n in [1usize, 2] {
        // SDM pavg: the sum's low bit is ORed into the halved sum; .raz adds 1 first.
        v.push(case(format!("pavg{n} r8=r9,r10"), true, move |a, b| {
            elementwise(a, b, n, |ua, ub, _, _| ((ua + ub) / 2) | ((ua + ub) % 2))
        }));
        v.push(case(format!("pavg{n}.raz r8=r9,r10"), true, move |a, b| {
            elementwise(a, b, n, |ua, ub, _, _| (ua + ub + 1) / 2)
        }));
        // SDM pavgsub: the (n*8+1)-bit difference halved (borrow into the top bit), low bit ORed.
        v.push(case(format!("pavgsub{n} r8=r9,r10"), true, move |a, b| {
            elementwise(a, b, n, |ua, ub, _, _| {
                let d = ua - ub;
                d.div_euclid(2) | d.rem_euclid(2)
            })
        }));
    }
    for n in [1usize, 2, 4] {
        v.push(case(format!("pcmp{n}.eq r8=r9,r10"), true, move |a, b| {
            elementwise(a, b, n, |ua, ub, _, _| if ua == ub { -1 } else { 0 })
        }));
        v.push(case(format!("pcmp{n}.gt r8=r9,r10"), true, move |a, b| {
            elementwise(a, b, n, |_, _, sa, sb| if sa > sb { -1 } else { 0 })
        }));
    }
    for count in 1..=3i64 {
        // SDM pshladd2: the shift saturates on its own; only an in-range shift is then added.
        v.push(case(format!("pshladd2 r8=r9,{count},r10"), true, move |a, b| {
            elementwise(a, b, 2, |_, _, sa, sb| {
                let s = sa * (1 << count);
                if s > smax(2) || s < smin(2) {
                    clamp(s, smin(2), smax(2))
                } else {
                    clamp(s + sb, smin(2), smax(2))
                }
            })
        }));
        v.push(case(format!("pshradd2 r8=r9,{count},r10"), true, move |a, b| {
            elementwise(a, b, 2, |_, _, sa, sb| clamp(sa.div_euclid(1 << count) + sb, smin(2), smax(2)))
        }));
    }
    for count in [0u32, 7, 15, 16] {
        v.push(case(format!("pmpyshr2 r8=r9,r10,{count}"), true, move |a, b| {
            elementwise(a, b, 2, |_, _, sa, sb| (sa * sb).div_euclid(1 << count))
        }));
        v.push(case(format!("pmpyshr2.u r8=r9,r10,{count}"), true, move |a, b| {
            elementwise(a, b, 2, |ua, ub, _, _| (ua * ub) / (1 << count))
        }));
    }
    for (c, first) in [("r", 0usize), ("l", 1)] {
        v.push(case(format!("pmpy2.{c} r8=r9,r10"), true, move |a, b| {
            let (x, y) = (sel(a, 2), sel(b, 2));
            join(&[x[first] * y[first], x[first + 2] * y[first + 2]], 4)
        }));
    }
    for n in [1usize, 2, 4] {
        for (c, odd) in [("r", 0usize), ("l", 1)] {
            // SDM mix: r3's chosen element of each pair at the even position, r2's at the odd.
            v.push(case(format!("mix{n}.{c} r8=r9,r10"), true, move |a, b| {
                let (x, y) = (uel(a, n), uel(b, n));
                let r: Vec<i64> = (0..8 / n).map(|i| if i % 2 == 0 { y[i + odd] } else { x[i - 1 + odd] }).collect();
                join(&r, n)
            }));
        }
        for (c, high) in [("l", false), ("h", true)] {
            // SDM unpack: the low or high halves interleaved, r3's at even positions.
            v.push(case(format!("unpack{n}.{c} r8=r9,r10"), true, move |a, b| {
                let (x, y) = (uel(a, n), uel(b, n));
                let base = if high { 4 / n } else { 0 };
                let r: Vec<i64> =
                    (0..8 / n).map(|i| if i % 2 == 0 { y[base + i / 2] } else { x[base + i / 2] }).collect();
                join(&r, n)
            }));
        }
    }
    // SDM pack: r2's elements to the low half of the result, r3's to the high half.
    v.push(case("pack2.sss r8=r9,r10", true, |a, b| {
        let r: Vec<i64> = sel(a, 2).into_iter().chain(sel(b, 2)).map(|e| clamp(e, smin(1), smax(1))).collect();
        join(&r, 1)
    }));
    v.push(case("pack2.uss r8=r9,r10", true, |a, b| {
        let r: Vec<i64> = sel(a, 2).into_iter().chain(sel(b, 2)).map(|e| clamp(e, 0, umax(1))).collect();
        join(&r, 1)
    }));
    v.push(case("pack4.sss r8=r9,r10", true, |a, b| {
        let r: Vec<i64> = sel(a, 4).into_iter().chain(sel(b, 4)).map(|e| clamp(e, smin(2), smax(2))).collect();
        join(&r, 2)
    }));
    v.push(case("pmin1.u r8=r9,r10", true, |a, b| elementwise(a, b, 1, |ua, ub, _, _| ua.min(ub))));
    v.push(case("pmax1.u r8=r9,r10", true, |a, b| elementwise(a, b, 1, |ua, ub, _, _| ua.max(ub))));
    v.push(case("pmin2 r8=r9,r10", true, |a, b| elementwise(a, b, 2, |_, _, sa, sb| sa.min(sb))));
    v.push(case("pmax2 r8=r9,r10", true, |a, b| elementwise(a, b, 2, |_, _, sa, sb| sa.max(sb))));
    v.push(case("psad1 r8=r9,r10", true, |a, b| {
        uel(a, 1).iter().zip(uel(b, 1)).map(|(x, y)| (x - y).abs()).sum::<i64>() as u64
    }));
    // SDM mux, "Mux permutations for 8-bit elements": result byte i comes from byte src[i].
    for (t, src) in [
        ("@brcst", [0usize, 0, 0, 0, 0, 0, 0, 0]),
        ("@mix", [0, 4, 2, 6, 1, 5, 3, 7]),
        ("@shuf", [0, 4, 1, 5, 2, 6, 3, 7]),
        ("@alt", [0, 2, 4, 6, 1, 3, 5, 7]),
        ("@rev", [7, 6, 5, 4, 3, 2, 1, 0]),
    ] {
        v.push(case(format!("mux1 r8=r9,{t}"), false, move |a, _| {
            let x = uel(a, 1);
            join(&src.map(|s| x[s]), 1)
        }));
    }
    for sel8 in [0u64, 0x1b, 0xe4, 0xff, 0x55, 0xaa, 0x39, 0xc6] {
        v.push(case(format!("mux2 r8=r9,{sel8:#x}"), false, move |a, _| {
            let x = uel(a, 2);
            let r: Vec<i64> = (0..4).map(|i| x[((sel8 >> (2 * i)) & 3) as usize]).collect();
            join(&r, 2)
        }));
    }
    for name in ["pshr2", "pshr4", "pshr2.u", "pshr4.u", "pshl2", "pshl4"] {
        let n = size_in(name);
        let (left, unsigned) = (name.starts_with("pshl"), name.ends_with(".u"));
        // SDM pshr/pshl: a count beyond the element width clears the element (pshl, pshr.u)
        // or fills it with the sign (pshr).
        let shift = move |x: u64, count: u64| {
            let w = (n * 8) as u64;
            let els = if unsigned || left { uel(x, n) } else { sel(x, n) };
            let r: Vec<i64> = els
                .into_iter()
                .map(|e| match (left, unsigned, count >= w) {
                    (true, _, true) | (false, true, true) => 0,
                    (false, false, true) => {
                        if e < 0 {
                            -1
                        } else {
                            0
                        }
                    }
                    (true, _, false) => e * (1i64 << count),
                    (false, _, false) => e.div_euclid(1i64 << count),
                })
                .collect();
            join(&r, n)
        };
        v.push(case(format!("{name} r8=r9,r10"), true, shift));
        for count in [0u64, 1, 7, 15, 16, 31] {
            v.push(case(format!("{name} r8=r9,{count}"), false, move |a, _| shift(a, count)));
        }
    }
    v.push(case("popcnt r8=r9", false, |a, _| (0..64).filter(|i| a >> i & 1 == 1).count() as u64));
    for (name, n, left) in [("czx1.l", 1usize, true), ("czx1.r", 1, false), ("czx2.l", 2, true), ("czx2.r", 2, false)] {
        // SDM czx: the index of the first zero element counted from the left (most
        // significant = 0) or the right; the element count when none is zero.
        v.push(case(format!("{name} r8=r9"), false, move |a, _| {
            let e = uel(a, n);
            let k = e.len();
            let order: Vec<usize> = if left { (0..k).rev().collect() } else { (0..k).collect() };
            order.iter().position(|i| e[*i] == 0).unwrap_or(k) as u64
        }));
    }
    v
}

/// The predecoded record of the single multimedia instruction in `line`.
fn compile(line: &str) -> (Exec, u64) {
    // (tf is an Op::Mm too: it lives in the multimedia slice's files.)
    ia64_unit::compile(line, |op| matches!(op, Op::Mm(_)))
}

/// Every multimedia form on 2,000 random operand pairs and 64 pairs with NaT sources.
#[test]
fn every_multimedia_form_matches_the_per_element_reference() {
    let mut rng = Xorshift64::new(0x2545_F491_4F6C_DD1D);
    let all = cases();
    let mut total = 0usize;
    let mut nat_total = 0usize;
    let mut failures = Vec::new();
    let mut mismatches = 0usize;
    for c in &all {
        let (e, ip) = compile(&c.line);
        for k in 0..PAIRS + NAT_PAIRS {
            let (a, b) = (rng.operand(), rng.operand());
            // Register counts of the variable shifts: mostly within 0..40, sometimes huge.
            let b = if c.line.contains("pshr") || c.line.contains("pshl") {
                if rng.next_u64().is_multiple_of(4) {
                    b
                } else {
                    b % 40
                }
            } else {
                b
            };
            let (na, nb) = if k >= PAIRS {
                (rng.next_u64().is_multiple_of(2), rng.next_u64().is_multiple_of(2))
            } else {
                (false, false)
            };
            let want = (c.reference)(a, b);
            let want_nat = na || (nb && c.reads_r10);
            match exec_gr(&e, ip, (a, na), (b, nb)) {
                Ok((got, got_nat)) => {
                    if (got, got_nat) != (want, want_nat) {
                        mismatches += 1;
                    }
                    if (got, got_nat) != (want, want_nat) && failures.len() < 20 {
                        failures.push(format!(
                            "{}: r9={a:#018x}{} r10={b:#018x}{}: got {got:#018x}{} want {want:#018x}{}",
                            c.line,
                            if na { " (NaT)" } else { "" },
                            if nb { " (NaT)" } else { "" },
                            if got_nat { " NaT" } else { "" },
                            if want_nat { " NaT" } else { "" },
                        ));
                    }
                }
                Err(t) => panic!("{}: execution stopped: {t:?}", c.line),
            }
            if k < PAIRS {
                total += 1;
            } else {
                nat_total += 1;
            }
        }
    }
    assert!(failures.is_empty(), "{mismatches} mismatches, first ones:\n{}", failures.join("\n"));
    assert!(all.len() >= 100, "only {} forms", all.len());
    assert_eq!(total, all.len() * PAIRS);
    eprintln!("{} forms, {total} random pairs and {nat_total} NaT pairs agree", all.len());
}

/// The Itanium 9500 multiplies, clz and tf (test feature), which the Itanium 2 modelled predates,
/// raise Illegal Operation (General Exception, ISR.code 0), never a wrong value. (mux1's
/// reserved mbtype4 values fault the same way: `tests/ia64_multimedia_vectors.rs`.)
#[test]
fn later_multimedia_forms_are_an_illegal_operation() {
    for (line, word) in [
        ("mpy4 r8=r9,r10", "mpy4"),
        ("mpyshl4 r8=r9,r10", "mpyshl4"),
        ("clz r8=r9", "clz"),
        ("tf.z p6,p7=40", "tf (test feature 40)"),
    ] {
        let (e, ip) = compile(line);
        match exec_gr(&e, ip, (1, false), (2, false)) {
            Err(Trap::Guest(i)) => {
                assert_eq!((i.vector, i.code), (0x5400, 0), "{line}");
                assert!(i.what.contains(word), "{line}: {}", i.what);
            }
            other => panic!("{line}: expected an Illegal Operation fault, got {other:?}"),
        }
    }
}

/// Whole runs through the CPU: a predicated-off multimedia op leaves its target alone, a
/// predicated-on one writes it, and a NaT source gives a NaT target.
#[test]
fn predicated_multimedia_forms_run_through_the_cpu() {
    let body = "\tmovl r9=0x7f7f7f7f01020304\n\tmovl r10=0x0101010101010101\n\tmov r14=7\n\tmov r15=7 ;;\n\
                \tcmp.eq p6,p7=r0,r0 ;;\n\
                \t(p6) padd1.sss r14=r9,r10\n\t(p7) padd1.sss r15=r9,r10\n\t(p6) mux1 r16=r9,@rev\n\t(p6) popcnt r17=r10 ;;\n\
                \tmovl r3=0x123450000 ;;\n\tld8.s r18=[r3] ;;\n\tpadd2 r19=r18,r10\n\tpsad1 r20=r9,r10 ;;\n";
    let r = run(body);
    assert_eq!(reg(&r, "r14"), 0x7f7f7f7f02030405, "padd1.sss saturates the 0x7f bytes");
    assert_eq!(reg(&r, "r15"), 7, "predicated off: r15 unchanged");
    assert_eq!(reg(&r, "r16"), 0x04030201_7f7f7f7f);
    assert_eq!(reg(&r, "r17"), 8);
    assert!(nat(&r, "r18"), "ld8.s of an unmapped address defers a NaT");
    assert!(nat(&r, "r19"), "a NaT source gives a NaT target");
    assert_eq!(reg(&r, "r20"), 3 + 2 + 1 + 4 * 0x7e);
}

fn timeline(body: &str) -> emu_core::timing::Timeline {
    use arch_ia64::run::{run_source, RunConfig};
    let src = format!("\t.text\nf:\n{body}\n\tbr.ret.sptk.many b0\n\t;;\n");
    let cfg = RunConfig { timeline: true, ..RunConfig::default() };
    match run_source("t.S", &src, &cfg) {
        Ok(r) => match r.timeline {
            Some(t) => t,
            None => panic!("no timeline recorded"),
        },
        Err(e) => panic!("{e}\n{src}"),
    }
}

/// The cycle at which the slot whose disassembly starts with `text` issued.
fn cycle_of(t: &emu_core::timing::Timeline, text: &str) -> u64 {
    match t.groups.iter().find(|g| g.slots.iter().any(|s| s.text.starts_with(text))) {
        Some(g) => g.first_cycle,
        None => panic!("no `{text}` in the timeline:\n{t}"),
    }
}

/// Reference section 2 and 5: an MM ALU result (mmalua 2) reaches an integer ALU consumer
/// after 3 cycles ([GCC] bypass "MM ops->ialu 3", [KAPI] +1); an immediate parallel shift
/// (mmshfi 1) after 2.
#[test]
fn a_multimedia_result_feeds_an_integer_op_after_the_mm_latency_plus_one() {
    let t = timeline("\tpadd1 r8=r9,r10\n\t;;\n\tadd r11=r8,r0\n\t;;");
    assert_eq!(cycle_of(&t, "add r11=r8,r0"), cycle_of(&t, "padd1 r8=r9,r10") + 3, "{t}");
    let t = timeline("\tpshl2 r8=r9,3\n\t;;\n\tadd r11=r8,r0\n\t;;");
    assert_eq!(cycle_of(&t, "add r11=r8,r0"), cycle_of(&t, "pshl2 r8=r9,3") + 2, "{t}");
}

/// Reference section 1: pmpy/popcnt (MMMUL) issue on I0 only, so two in one instruction
/// group take two cycles, while two MM shifts (I0 and I1) share one.
#[test]
fn two_multimedia_multiplies_in_one_group_split_but_two_mm_shifts_do_not() {
    let t = timeline("\tnop.m 0\n\tpopcnt r8=r9\n\tpmpy2.r r10=r11,r12\n\t;;");
    assert_eq!(cycle_of(&t, "pmpy2.r r10=r11,r12"), cycle_of(&t, "popcnt r8=r9") + 1, "{t}");
    let t = timeline("\tnop.m 0\n\tmix1.l r8=r9,r10\n\tmux1 r11=r12,@rev\n\t;;");
    assert_eq!(cycle_of(&t, "mux1 r11=r12,@rev"), cycle_of(&t, "mix1.l r8=r9,r10"), "{t}");
}
