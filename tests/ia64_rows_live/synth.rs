//! Instances of one table row as assembly text: completers and operand values chosen per
//! `OpKind` (boundaries first, then random values), predicated where the row allows it.
//!
//! Everything here reads the row generically; the match over `OpKind` is exhaustive on
//! purpose, so a kind added to the table later fails to compile here instead of being
//! skipped silently.

use arch_ia64::regs::{ar_name, cr_name};
use arch_ia64::table::{Flags, Form, OpKind};
use emu_core::rng::Xorshift64;

/// One synthesised instruction of a row.
#[derive(Debug, Clone)]
pub struct Instance {
    /// Index of the row in `table().forms`.
    pub row: usize,
    /// The label that starts this instance's bundle (a symbol, so objdump heads it too).
    pub label: String,
    /// The instruction line (with its predicate, no stop).
    pub text: String,
}

/// The generator of the instances of row `key`: seeded from the key (FNV-1a) so that rows
/// added later do not change the instances of the others.
pub fn rng_for_key(key: &str) -> Xorshift64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in key.bytes() {
        h = (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3);
    }
    Xorshift64::new(h | 1)
}

/// Which value of each operand an instance takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Pick {
    /// The smallest legal value.
    Low,
    /// The largest legal value.
    High,
    /// A random legal value.
    Random,
}

/// The registers of one instance, kept distinct: gas refuses several forms whose
/// operands coincide (two predicate targets, a load's target and its updated base, ...).
#[derive(Default)]
struct Used {
    gr: Vec<i128>,
    fr: Vec<i128>,
    pr: Vec<i128>,
    br: Vec<i128>,
}

/// The first value from `want` upwards (wrapping inside `lo..=hi`) not in `used`.
fn distinct(used: &mut Vec<i128>, want: i128, lo: i128, hi: i128) -> i128 {
    let mut v = want;
    for _ in lo..=hi {
        if !used.contains(&v) {
            break;
        }
        v = if v >= hi { lo } else { v + 1 };
    }
    used.push(v);
    v
}

fn pick(p: Pick, rng: &mut Xorshift64, lo: i128, hi: i128) -> i128 {
    match p {
        Pick::Low => lo,
        Pick::High => hi,
        Pick::Random => rng.range(lo, hi),
    }
}

/// A number as assembly text (hexadecimal where the disassembler shows hex).
fn num(v: i128, hex: bool) -> String {
    match (hex, v < 0) {
        (true, true) => format!("-0x{:x}", -v),
        (true, false) => format!("0x{v:x}"),
        (false, _) => v.to_string(),
    }
}

/// A branch target near the instance's own label: itself, forward or back a few bundles.
fn target(p: Pick, rng: &mut Xorshift64, label: &str) -> String {
    match p {
        Pick::Low => label.to_string(),
        Pick::High => format!("{label}+0x40"),
        Pick::Random => format!("{label}-0x{:x}", 16 * rng.range(1, 8)),
    }
}

/// The text of operand `kind` (and the value it takes) for one instance. `ctx` carries
/// the instance's picks; `pos` is the position value chosen so far (for pos + len <= 64).
#[allow(clippy::too_many_lines)] // one arm per operand kind, by design
fn operand(
    kind: OpKind,
    p: Pick,
    rng: &mut Xorshift64,
    used: &mut Used,
    label: &str,
    pos: &mut Option<i128>,
) -> String {
    use OpKind::*;
    let gr_out = |used: &mut Used, rng: &mut Xorshift64| {
        let v = pick(p, rng, 1, 127);
        format!("r{}", distinct(&mut used.gr, v, 1, 127))
    };
    let gr_in = |used: &mut Used, rng: &mut Xorshift64| {
        let v = pick(p, rng, 0, 127);
        format!("r{}", distinct(&mut used.gr, v, 0, 127))
    };
    // The position and length of a bit field must fit in the 64-bit register.
    let len = |rng: &mut Xorshift64, pos: &Option<i128>, lo: i128, hi: i128| {
        let hi = pos.map_or(hi, |q| hi.min(64 - q)).max(lo);
        pick(p, rng, lo, hi).to_string()
    };
    let fixed_pos = |rng: &mut Xorshift64, pos: &mut Option<i128>| {
        let v = pick(p, rng, 0, 63);
        *pos = Some(v);
        v.to_string()
    };
    match kind {
        R1 => gr_out(used, rng),
        R2 | R3 => gr_in(used, rng),
        R3Addl => format!("r{}", distinct(&mut used.gr, pick(p, rng, 0, 3), 0, 3)),
        // f0 and f1 are constant: only sources may name them.
        F1 => format!("f{}", distinct(&mut used.fr, pick(p, rng, 2, 127), 2, 127)),
        F2 | F3 | F4 => format!("f{}", distinct(&mut used.fr, pick(p, rng, 0, 127), 0, 127)),
        P1 | P2 => format!("p{}", distinct(&mut used.pr, pick(p, rng, 1, 63), 1, 63)),
        B1 | B2 => format!("b{}", distinct(&mut used.br, pick(p, rng, 0, 7), 0, 7)),
        Ar3 => {
            let v = pick(p, rng, 0, 127);
            ar_name(v as u8).map_or_else(|| format!("ar{v}"), str::to_string)
        }
        Cr3 => {
            let v = pick(p, rng, 0, 127);
            cr_name(v as u8).map_or_else(|| format!("cr{v}"), str::to_string)
        }
        // A memory base is read (and maybe updated): r0 would be an update of r0.
        Mem3 => format!("[r{}]", distinct(&mut used.gr, pick(p, rng, 1, 127), 1, 127)),
        IndRr | IndPkr | IndDbr | IndIbr | IndPmc | IndPmd | IndCpuid | IndDtr | IndItr | IndMsr | IndDahr => {
            let file = match kind.spec().class {
                arch_ia64::table::OpClass::Ind(f) => f,
                other => panic!("{kind:?} is an indirect file but has class {other:?}"),
            };
            format!("{file}[r{}]", distinct(&mut used.gr, pick(p, rng, 0, 127), 0, 127))
        }
        Gr0 => "r0".to_string(),
        ArPfs => "ar.pfs".to_string(),
        ArCcv => "ar.ccv".to_string(),
        PrAll => "pr".to_string(),
        PrRot => "pr.rot".to_string(),
        Psr => "psr".to_string(),
        PsrL => "psr.l".to_string(),
        PsrUm => "psr.um".to_string(),
        Ip => "ip".to_string(),
        One => "1".to_string(),
        PairInc8 => "8".to_string(),
        PairInc16 => "16".to_string(),
        Imm8 | Imm9Ld | Imm9St | Imm14 | Imm22 | Imm21Dec | Imm1 | Imm2 | Count6 | Sol | Sor | Cnt2Shladd | Cnt5
        | CCnt5 | ImmU5Tf => {
            let s = kind.spec();
            num(pick(p, rng, s.min, s.max), false)
        }
        Imm21 | Imm24 | Mhtype8 | Fclass9 | Amask7 | Omask7 => {
            let s = kind.spec();
            num(pick(p, rng, s.min, s.max), true)
        }
        Cnt2Pmpy => {
            const COUNTS: [i128; 4] = [0, 7, 15, 16];
            num(COUNTS[pick(p, rng, 0, 3) as usize], false)
        }
        Mbtype4 => {
            let names = arch_ia64::table::operand::MBTYPE4_NAMES;
            names[pick(p, rng, 0, names.len() as i128 - 1) as usize].0.to_string()
        }
        ArCsd => "ar.csd".to_string(),
        Inc3 => {
            const INC: [i128; 8] = [-16, -8, -4, -1, 1, 4, 8, 16];
            num(INC[pick(p, rng, 0, 7) as usize], false)
        }
        // Bit 0 (p0) is dropped by gas; keep it clear so the text shows what is encoded.
        Mask17 => num(pick(p, rng, 0, 0xffff) * 2, true),
        Imm44 => num(pick(p, rng, -(1 << 27), (1 << 27) - 1) << 16, true),
        Imm64 => num(pick(p, rng, 0, i128::from(u64::MAX)), true),
        Imm62 => num(pick(p, rng, 0, (1 << 62) - 1), true),
        Pos6 | CPos6b | CPos6c | CPos6d => fixed_pos(rng, pos),
        Len6 => len(rng, pos, 1, 64),
        Len4 => len(rng, pos, 1, 16),
        Count2 => num(pick(p, rng, 1, 4), false),
        Tgt25 | Tgt25Chk | Tgt64 | Tag13 | Tag13b | Tgt25F => target(p, rng, label),
        // alloc is written with i,l,o,r; the row holds sof, sol and sor (see `alloc_sizes`).
        Sof => alloc_sizes(p, rng),
        // later forms (issue 12): lfetch.count's count, and its stride as a multiple of 64
        // (gas warns on others and drops the low bits).
        LfCount => num(pick(p, rng, 1, 64), false),
        LfStride => num(pick(p, rng, -16, 15) * 64, false),
        DahrN => format!("dahr{}", pick(p, rng, 0, 7)),
        ImmU16Dahr => num(pick(p, rng, 0, 0xffff), false),
    }
}

/// `i,l,o,r` for alloc: a frame of at most 96 registers, rotating part a multiple of 8 no
/// larger than the frame.
fn alloc_sizes(p: Pick, rng: &mut Xorshift64) -> String {
    let (i, l, o) = match p {
        Pick::Low => (0, 0, 0),
        Pick::High => (32, 32, 32),
        Pick::Random => {
            let i = rng.range(0, 32);
            let l = rng.range(0, 32);
            (i, l, rng.range(0, 96 - i - l))
        }
    };
    let r = pick(p, rng, 0, (i + l + o) / 8) * 8;
    format!("{i},{l},{o},{r}")
}

/// How many instances a row gets: four, or one per spelling of its longest completer.
fn instance_count(form: &Form) -> usize {
    form.comps.iter().map(|c| c.opts.len() + usize::from(c.implied.is_some())).max().unwrap_or(0).clamp(4, 16)
}

/// The instances of row `row` (`key` seeds the random choices).
pub fn instances(row: usize, form: &Form, key: &str) -> Vec<Instance> {
    let mut rng = rng_for_key(key);
    let n = instance_count(form);
    (0..n)
        .map(|k| {
            let p = match k {
                0 => Pick::Low,
                1 => Pick::High,
                _ => Pick::Random,
            };
            let label = format!("R{row}_{k}");
            let mnemonic = mnemonic(form, k, &mut rng);
            let mut used = Used::default();
            let mut pos = None;
            let mut text = String::new();
            // Predicated and unpredicated where the row allows both.
            if k % 2 == 1 && !form.flags.has(Flags::NO_QP) {
                text.push_str(&format!("(p{}) ", rng.range(1, 63)));
            }
            text.push_str(&mnemonic);
            let render =
                |kinds: &[OpKind], rng: &mut Xorshift64, used: &mut Used, pos: &mut Option<i128>| -> Vec<String> {
                    let mut out = Vec::new();
                    for kind in kinds {
                        // The sizes after sof are written by `alloc_sizes`.
                        if matches!(kind, OpKind::Sol | OpKind::Sor) && kinds.contains(&OpKind::Sof) {
                            continue;
                        }
                        out.push(operand(*kind, p, rng, used, &label, pos));
                    }
                    out
                };
            let outs = render(form.outs, &mut rng, &mut used, &mut pos);
            let ins = render(form.ins, &mut rng, &mut used, &mut pos);
            match (outs.is_empty(), ins.is_empty()) {
                (true, true) => {}
                (true, false) => text.push_str(&format!(" {}", ins.join(","))),
                (false, true) => text.push_str(&format!(" {}", outs.join(","))),
                (false, false) => text.push_str(&format!(" {}={}", outs.join(","), ins.join(","))),
            }
            Instance { row, label, text }
        })
        .collect()
}

/// The mnemonic with completers: instance `k` takes the `k`-th spelling of each completer
/// (wrapping), so every spelling appears; an implied completer is also written omitted.
fn mnemonic(form: &Form, k: usize, rng: &mut Xorshift64) -> String {
    let mut out = String::new();
    let mut parts = form.name.split("{}");
    out.push_str(parts.next().unwrap_or(""));
    for (comp, rest) in form.comps.iter().zip(parts) {
        let n = comp.opts.len() + usize::from(comp.implied.is_some());
        let choice = if k < 16 { k % n } else { rng.range(0, n as i128 - 1) as usize };
        if let Some((spelling, _)) = comp.opts.get(choice) {
            out.push_str(spelling);
        }
        out.push_str(rest);
    }
    out
}
