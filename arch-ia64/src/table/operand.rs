//! Operand kinds: where each operand lives in a slot, its range, and how it is shown.
//!
//! One kind serves the encoder, the decoder and the formatter, so a field is described
//! once (split immediates as in `reference/ia64-encoding.md` section 4).

use super::field::{f, Field};

/// The raw bits an instruction occupies: its slot, and for MLX forms the L slot too.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Raw {
    /// The 41-bit instruction slot (slot 2 for MLX forms).
    pub slot: u64,
    /// The 41-bit L slot of an MLX bundle (0 otherwise).
    pub long: u64,
}

/// What an operand is, for the assembler's matching and the formatter.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum OpClass {
    /// A general register.
    Gr,
    /// A floating-point register.
    Fr,
    /// A predicate register.
    Pr,
    /// A branch register.
    Br,
    /// An application register.
    Ar,
    /// A control register.
    Cr,
    /// `[rN]`.
    Mem,
    /// An indirect register file indexed by a general register, `file[rN]` (`rr`, `pkr`, `dbr`,
    /// `ibr`, `pmc`, `pmd`, `cpuid`, `msr`, and the translation registers `dtr`/`itr`).
    Ind(&'static str),
    /// A fixed register name written literally (`ar.pfs`, `pr`, `psr.l`, ...).
    Fixed(&'static str),
    /// An immediate shown in decimal.
    Dec,
    /// An immediate shown in hexadecimal.
    Hex,
    /// An IP-relative target, shown as address and symbol.
    Target,
    /// An immediate some of whose values have names (`@rev` for mux1's mbtype4), shown by
    /// name when it has one and in hexadecimal otherwise, as objdump does (multimedia, issue 12).
    Named(&'static [(&'static str, i64)]),
    /// A data access hint register `dahr0`-`dahr7` (Itanium 9500; later forms, issue 12).
    Dahr,
}

/// Every operand kind of the instruction table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[allow(missing_docs)] // each variant is documented by its row in `spec()`
pub enum OpKind {
    R1,
    R2,
    R3,
    R3Addl,
    F1,
    F2,
    F3,
    F4,
    P1,
    P2,
    B1,
    B2,
    Ar3,
    Cr3,
    Mem3,
    IndRr,
    IndPkr,
    IndDbr,
    IndIbr,
    IndPmc,
    IndPmd,
    IndCpuid,
    IndDtr,
    IndItr,
    IndMsr,
    Gr0,
    ArPfs,
    ArCcv,
    /// ar.csd, the implied second half of ld16/st16/cmp8xchg16 (memory forms, issue 12).
    ArCsd,
    PrAll,
    PrRot,
    Psr,
    PsrL,
    PsrUm,
    Ip,
    One,
    PairInc8,
    PairInc16,
    Imm8,
    Imm9Ld,
    Imm9St,
    Imm14,
    Imm22,
    Imm21,
    Imm21Dec,
    Imm24,
    Imm1,
    Imm2,
    Inc3,
    Mask17,
    Imm44,
    Imm64,
    Imm62,
    Pos6,
    CPos6c,
    CPos6b,
    CPos6d,
    Len6,
    Len4,
    Count2,
    Count6,
    Tgt25,
    Tgt25Chk,
    Tgt64,
    Tag13,
    /// brp's tag (B6/B7: timm7a 12:6 and t2e 34:33; gas's TAG13b). Branch hints, issue 12.
    Tag13b,
    Sof,
    Sol,
    Sor,
    // multimedia (issue 12)
    Cnt2Shladd,
    Cnt2Pmpy,
    Cnt5,
    CCnt5,
    Mbtype4,
    Mhtype8,
    ImmU5Tf,
    // F unit (issue 12)
    Fclass9,
    Amask7,
    Omask7,
    Tgt25F,
    // later forms (issue 12)
    /// lfetch.count's line count 1..64, encoded minus one in bits 6-11.
    LfCount,
    /// lfetch.count's stride in bytes, a signed multiple of 64 in bits 13-17.
    LfStride,
    /// `dahr[r3]`, read by `mov r1=dahr[r3]`.
    IndDahr,
    /// `dahr0`-`dahr7` written by `mov dahrN=imm16` (bits 23-25).
    DahrN,
    /// The 16-bit immediate of `mov dahrN=imm16`: bits 6-9, 12-22 and 36.
    ImmU16Dahr,
}

/// How an operand's value maps onto its field bits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Code {
    /// The value, as is, over the pieces (registers, plain immediates).
    Plain,
    /// value - 1 (lengths, shladd count).
    MinusOne,
    /// 63 - value (the complemented positions of dep).
    SixtyThreeMinus,
    /// (value - bundle address) / 16, i.e. a bundle displacement.
    Bundles,
    /// fetchadd's increment code.
    Inc3,
    /// Value shifted right by this many bits, low bits required zero.
    Shifted(u32),
    /// The value is fixed; nothing is encoded (literal operand text).
    Literal(i64),
    /// The 64-bit movl immediate scattered over the X and L slots.
    Imm64,
    /// The 62-bit break.x/nop.x immediate over X and L.
    Imm62,
    /// The 60-bit brl displacement over X and L.
    Tgt64,
    /// The index of the value in this list (pmpyshr2's shift counts 0, 7, 15, 16).
    Choice(&'static [i64]),
    /// 31 - value (the complemented count of pshl2/pshl4 by an immediate).
    ThirtyOneMinus,
    /// value - this (tf's feature number 32..63 as 0..31).
    Bias(i64),
}

/// The description of one operand kind.
#[derive(Debug, Clone, Copy)]
pub struct OpSpec {
    /// What it is.
    pub class: OpClass,
    /// Field pieces in value-bit order (least significant piece first).
    pieces: &'static [Field],
    /// Whether the encoded value is signed (its top bit sign-extends on decode).
    signed: bool,
    /// How the value maps onto the encoded bits.
    code: Code,
    /// The smallest and largest value the assembler accepts.
    pub min: i128,
    /// See `min`.
    pub max: i128,
    /// The range as shown in "out of range" messages.
    pub range_text: &'static str,
}

const fn spec(
    class: OpClass,
    pieces: &'static [Field],
    signed: bool,
    code: Code,
    min: i128,
    max: i128,
    range_text: &'static str,
) -> OpSpec {
    OpSpec { class, pieces, signed, code, min, max, range_text }
}

const F_IMM8: &[Field] = &[Field::new(13, 7), Field::new(36, 1)];
const F_IMM9LD: &[Field] = &[Field::new(13, 7), Field::new(27, 1), Field::new(36, 1)];
const F_IMM9ST: &[Field] = &[Field::new(6, 7), Field::new(27, 1), Field::new(36, 1)];
const F_IMM14: &[Field] = &[Field::new(13, 7), Field::new(27, 6), Field::new(36, 1)];
const F_IMM22: &[Field] = &[Field::new(13, 7), Field::new(27, 9), Field::new(22, 5), Field::new(36, 1)];
const F_IMM21: &[Field] = &[Field::new(6, 20), Field::new(36, 1)];
const F_HINT_M: &[Field] = &[Field::new(6, 4), Field::new(12, 14), Field::new(36, 1)];
const F_IMM24: &[Field] = &[Field::new(6, 21), Field::new(31, 2), Field::new(36, 1)];
const F_TGT25: &[Field] = &[Field::new(13, 20), Field::new(36, 1)];
const F_TGT25C: &[Field] = &[Field::new(6, 7), Field::new(20, 13), Field::new(36, 1)];
const F_MASK17: &[Field] = &[Field::new(6, 7), Field::new(24, 8), Field::new(36, 1)];
const F_IMM44: &[Field] = &[Field::new(6, 27), Field::new(36, 1)];
const F_BIT36: &[Field] = &[Field::new(36, 1)];
const F_13_2: &[Field] = &[Field::new(13, 2)];
const F_13_3: &[Field] = &[Field::new(13, 3)];
const F_13_7: &[Field] = &[Field::new(13, 7)];
const F_14_6: &[Field] = &[Field::new(14, 6)];
const F_20_6: &[Field] = &[Field::new(20, 6)];
const F_20_7: &[Field] = &[Field::new(20, 7)];
const F_24_9: &[Field] = &[Field::new(24, 9)];
/// brp's tag (branch hints, issue 12).
const F_TAG13B: &[Field] = &[Field::new(6, 7), Field::new(33, 2)];
const F_27_2: &[Field] = &[Field::new(27, 2)];
const F_27_4: &[Field] = &[Field::new(27, 4)];
const F_27_6: &[Field] = &[Field::new(27, 6)];
const F_31_6: &[Field] = &[Field::new(31, 6)];
// multimedia (issue 12)
const F_30_2: &[Field] = &[Field::new(30, 2)];
const F_14_5: &[Field] = &[Field::new(14, 5)];
const F_20_5: &[Field] = &[Field::new(20, 5)];
const F_20_4: &[Field] = &[Field::new(20, 4)];
const F_20_8: &[Field] = &[Field::new(20, 8)];
/// mux1's named permutations (SDM vol. 3 mux, Table "Mux permutations for 8-bit elements").
pub const MBTYPE4_NAMES: &[(&str, i64)] = &[("@brcst", 0), ("@mix", 8), ("@shuf", 9), ("@alt", 0xa), ("@rev", 0xb)];
// F unit (issue 12): fclass9 is fc2 (bits 33-34, low) and fclass7c (bits 20-26); fchkf's
// target is imm20a (bits 6-25) and s (bit 36).
const F_FCLASS9: &[Field] = &[Field::new(33, 2), Field::new(20, 7)];
const F_20_7B: &[Field] = &[Field::new(20, 7)];
const F_TGT25F: &[Field] = &[Field::new(6, 20), Field::new(36, 1)];

// later forms (issue 12): measured with gas/objdump 2.40 (corpus `lfetch_count.S`).
const F_6_6: &[Field] = &[Field::new(6, 6)];
const F_13_5: &[Field] = &[Field::new(13, 5)];
const F_23_3: &[Field] = &[Field::new(23, 3)];
const F_DAHR_IMM: &[Field] = &[Field::new(6, 4), Field::new(12, 11), Field::new(36, 1)];

const R7: i128 = 127;
const I64_MIN: i128 = i64::MIN as i128;
const U64_MAX: i128 = u64::MAX as i128;

impl OpKind {
    /// This kind's description.
    pub fn spec(self) -> OpSpec {
        // The fixed application-register operands, numbered as in `crate::regs`.
        const PFS: i64 = crate::regs::ar::PFS as i64;
        const CCV: i64 = crate::regs::ar::CCV as i64;
        const CSD: i64 = crate::regs::ar::CSD as i64;
        use Code::{Bundles, Literal, MinusOne, Plain, Shifted, SixtyThreeMinus};
        use OpClass::*;
        use OpKind::*;
        match self {
            R1 => spec(Gr, &[f::R1], false, Plain, 0, R7, "r0-r127"),
            R2 => spec(Gr, &[f::R2], false, Plain, 0, R7, "r0-r127"),
            R3 => spec(Gr, &[f::R3], false, Plain, 0, R7, "r0-r127"),
            R3Addl => spec(Gr, &[f::R3_ADDL], false, Plain, 0, 3, "r0-r3"),
            F1 => spec(Fr, &[f::R1], false, Plain, 0, R7, "f0-f127"),
            F2 => spec(Fr, &[f::R2], false, Plain, 0, R7, "f0-f127"),
            F3 => spec(Fr, &[f::R3], false, Plain, 0, R7, "f0-f127"),
            F4 => spec(Fr, &[f::F4], false, Plain, 0, R7, "f0-f127"),
            P1 => spec(Pr, &[f::P1], false, Plain, 0, 63, "p0-p63"),
            P2 => spec(Pr, &[f::P2], false, Plain, 0, 63, "p0-p63"),
            B1 => spec(Br, &[f::B1], false, Plain, 0, 7, "b0-b7"),
            B2 => spec(Br, &[f::B2], false, Plain, 0, 7, "b0-b7"),
            Ar3 => spec(Ar, &[f::R3], false, Plain, 0, R7, "ar0-ar127"),
            Cr3 => spec(Cr, &[f::R3], false, Plain, 0, R7, "cr0-cr127"),
            Mem3 => spec(Mem, &[f::R3], false, Plain, 0, R7, "[r0]-[r127]"),
            // The indirect files are indexed by r3 in every form (M42/M43, SDM vol. 3 4.4.8).
            IndRr => spec(Ind("rr"), &[f::R3], false, Plain, 0, R7, "rr[r0]-rr[r127]"),
            IndPkr => spec(Ind("pkr"), &[f::R3], false, Plain, 0, R7, "pkr[r0]-pkr[r127]"),
            IndDbr => spec(Ind("dbr"), &[f::R3], false, Plain, 0, R7, "dbr[r0]-dbr[r127]"),
            IndIbr => spec(Ind("ibr"), &[f::R3], false, Plain, 0, R7, "ibr[r0]-ibr[r127]"),
            IndPmc => spec(Ind("pmc"), &[f::R3], false, Plain, 0, R7, "pmc[r0]-pmc[r127]"),
            IndPmd => spec(Ind("pmd"), &[f::R3], false, Plain, 0, R7, "pmd[r0]-pmd[r127]"),
            IndCpuid => spec(Ind("cpuid"), &[f::R3], false, Plain, 0, R7, "cpuid[r0]-cpuid[r127]"),
            IndDtr => spec(Ind("dtr"), &[f::R3], false, Plain, 0, R7, "dtr[r0]-dtr[r127]"),
            IndItr => spec(Ind("itr"), &[f::R3], false, Plain, 0, R7, "itr[r0]-itr[r127]"),
            IndMsr => spec(Ind("msr"), &[f::R3], false, Plain, 0, R7, "msr[r0]-msr[r127]"),
            // The r0 of parallel compares against zero (A7): written, never encoded.
            Gr0 => spec(Fixed("r0"), &[], false, Literal(0), 0, 0, "r0"),
            ArPfs => spec(Fixed("ar.pfs"), &[], false, Literal(PFS), PFS as i128, PFS as i128, "ar.pfs"),
            ArCcv => spec(Fixed("ar.ccv"), &[], false, Literal(CCV), CCV as i128, CCV as i128, "ar.ccv"),
            ArCsd => spec(Fixed("ar.csd"), &[], false, Literal(CSD), CSD as i128, CSD as i128, "ar.csd"),
            PrAll => spec(Fixed("pr"), &[], false, Literal(0), 0, 0, "pr"),
            PrRot => spec(Fixed("pr.rot"), &[], false, Literal(0), 0, 0, "pr.rot"),
            Psr => spec(Fixed("psr"), &[], false, Literal(0), 0, 0, "psr"),
            PsrL => spec(Fixed("psr.l"), &[], false, Literal(0), 0, 0, "psr.l"),
            PsrUm => spec(Fixed("psr.um"), &[], false, Literal(0), 0, 0, "psr.um"),
            Ip => spec(Fixed("ip"), &[], false, Literal(0), 0, 0, "ip"),
            One => spec(Dec, &[], false, Literal(1), 1, 1, "1"),
            // The implied base update of ldfps (8) and ldfpd/ldfp8 (16): written, never encoded.
            PairInc8 => spec(Dec, &[], false, Literal(8), 8, 8, "8"),
            PairInc16 => spec(Dec, &[], false, Literal(16), 16, 16, "16"),
            Imm8 => spec(Dec, F_IMM8, true, Plain, -128, 127, "-128..127"),
            Imm9Ld => spec(Dec, F_IMM9LD, true, Plain, -256, 255, "-256..255"),
            Imm9St => spec(Dec, F_IMM9ST, true, Plain, -256, 255, "-256..255"),
            Imm14 => spec(Dec, F_IMM14, true, Plain, -8192, 8191, "-8192..8191"),
            Imm22 => spec(Dec, F_IMM22, true, Plain, -2097152, 2097151, "-2097152..2097151"),
            Imm21 => spec(Hex, F_IMM21, false, Plain, 0, 0x1f_ffff, "0..0x1fffff"),
            // hint.m's immediate, which objdump alone shows in decimal. gas 2.40 takes 19 bits
            // ("should be a 19-bit unsigned") and, with objdump 2.40, places them at 6-9, 12-25
            // and 36, not over M48's contiguous imm21 (rows-live test, issue 12).
            Imm21Dec => spec(Dec, F_HINT_M, false, Plain, 0, 0x7_ffff, "0..0x7ffff"),
            Imm24 => spec(Hex, F_IMM24, false, Plain, 0, 0xff_ffff, "0..0xffffff"),
            Imm1 => spec(Dec, F_BIT36, true, Plain, -1, 0, "0 or -1"),
            Imm2 => spec(Dec, F_13_2, false, Plain, 0, 3, "0..3"),
            Inc3 => spec(Dec, F_13_3, false, Code::Inc3, -16, 16, "-16, -8, -4, -1, 1, 4, 8 or 16"),
            Mask17 => spec(
                Hex,
                F_MASK17,
                true,
                Shifted(1),
                -0x20000,
                0x1ffff,
                "a 17-bit mask of p1-p16 (bit 16 extends to p16-p63)",
            ),
            Imm44 => {
                spec(Hex, F_IMM44, true, Shifted(16), -(1 << 43), (1 << 43) - 1, "a 44-bit signed multiple of 0x10000")
            }
            Imm64 => spec(Hex, &[], false, Code::Imm64, I64_MIN, U64_MAX, "a 64-bit value"),
            Imm62 => spec(Hex, &[], false, Code::Imm62, 0, (1 << 62) - 1, "0..0x3fffffffffffffff"),
            Pos6 => spec(Dec, F_14_6, false, Plain, 0, 63, "0..63"),
            CPos6c => spec(Dec, F_20_6, false, SixtyThreeMinus, 0, 63, "0..63"),
            CPos6b => spec(Dec, F_14_6, false, SixtyThreeMinus, 0, 63, "0..63"),
            CPos6d => spec(Dec, F_31_6, false, SixtyThreeMinus, 0, 63, "0..63"),
            Len6 => spec(Dec, F_27_6, false, MinusOne, 1, 64, "1..64"),
            Len4 => spec(Dec, F_27_4, false, MinusOne, 1, 16, "1..16"),
            Count2 => spec(Dec, F_27_2, false, MinusOne, 1, 4, "1..4"),
            Count6 => spec(Dec, F_27_6, false, Plain, 0, 63, "0..63"),
            Tgt25 => spec(Target, F_TGT25, true, Bundles, -(1 << 24), (1 << 24) - 16, "within 16 MiB of the bundle"),
            Tgt25Chk => {
                spec(Target, F_TGT25C, true, Bundles, -(1 << 24), (1 << 24) - 16, "within 16 MiB of the bundle")
            }
            Tgt64 => spec(Target, &[], true, Code::Tgt64, I64_MIN, U64_MAX, "a 64-bit address"),
            Tag13 => spec(Target, F_24_9, true, Bundles, -4096, 4080, "within 4 KiB of the bundle"),
            Tag13b => spec(Target, F_TAG13B, true, Bundles, -4096, 4080, "within 4 KiB of the bundle"),
            Sof => spec(Dec, F_13_7, false, Plain, 0, 96, "0..96"),
            Sol => spec(Dec, F_20_7, false, Plain, 0, 96, "0..96"),
            Sor => spec(Dec, F_27_4, false, Shifted(3), 0, 96, "0..96 in multiples of 8"),
            // multimedia (issue 12); the range texts are gas's operand descriptions.
            Cnt2Shladd => spec(Dec, F_27_2, false, MinusOne, 1, 3, "a 2-bit count (1-3)"),
            Cnt2Pmpy => spec(Dec, F_30_2, false, Code::Choice(&[0, 7, 15, 16]), 0, 16, "a count (0, 7, 15, or 16)"),
            Cnt5 => spec(Dec, F_14_5, false, Plain, 0, 31, "a 5-bit count (0-31)"),
            CCnt5 => spec(Dec, F_20_5, false, Code::ThirtyOneMinus, 0, 31, "a 5-bit count (0-31)"),
            Mbtype4 => spec(
                Named(MBTYPE4_NAMES),
                F_20_4,
                false,
                Plain,
                0,
                15,
                "a mix type (@rev, @mix, @shuf, @alt, or @brcst)",
            ),
            Mhtype8 => spec(Hex, F_20_8, false, Plain, 0, 255, "an 8-bit mix type"),
            ImmU5Tf => spec(Dec, F_14_5, false, Code::Bias(32), 32, 63, "a 5-bit unsigned (32 + (0-31))"),
            // F unit (issue 12).
            Fclass9 => spec(Hex, F_FCLASS9, false, Plain, 0, 0x1ff, "0..0x1ff"),
            Amask7 => spec(Hex, F_13_7, false, Plain, 0, 0x7f, "0..0x7f"),
            Omask7 => spec(Hex, F_20_7B, false, Plain, 0, 0x7f, "0..0x7f"),
            Tgt25F => spec(Target, F_TGT25F, true, Bundles, -(1 << 24), (1 << 24) - 16, "within 16 MiB of the bundle"),
            // later forms (issue 12); the range texts are gas's operand descriptions. gas checks
            // the stride's range (-1024..960) before dropping its low 6 bits.
            LfCount => spec(Dec, F_6_6, false, MinusOne, 1, 64, "lfetch count"),
            LfStride => spec(Dec, F_13_5, true, Shifted(6), -1024, 960, "lfetch stride"),
            IndDahr => spec(Ind("dahr"), &[f::R3], false, Plain, 0, R7, "dahr[r0]-dahr[r127]"),
            DahrN => spec(OpClass::Dahr, F_23_3, false, Plain, 0, 7, "dahr0-dahr7"),
            ImmU16Dahr => spec(Dec, F_DAHR_IMM, false, Plain, 0, 0xffff, "a 16-bit unsigned"),
        }
    }

    /// The bits of the slot this operand occupies (for the table's overlap checks).
    pub fn slot_mask(self) -> u64 {
        let s = self.spec();
        let pieces = s.pieces.iter().fold(0, |m, p| m | p.mask());
        match s.code {
            Code::Imm64 => {
                pieces
                    | Field::new(13, 7).mask()
                    | Field::new(27, 9).mask()
                    | Field::new(21, 6).mask()
                    | f::BIT36.mask()
            }
            Code::Imm62 => Field::new(6, 20).mask() | f::BIT36.mask(),
            Code::Tgt64 => Field::new(13, 20).mask() | f::BIT36.mask(),
            Code::Inc3 => Field::new(13, 3).mask(),
            _ => pieces,
        }
    }

    /// Whether this operand is written literally and encodes nothing.
    pub fn is_literal(self) -> bool {
        matches!(self.spec().code, Code::Literal(_))
    }
}

/// Why a value does not fit an operand.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OperandError {
    /// Outside the operand's range; the text says what the range is.
    OutOfRange(&'static str),
    /// A displacement or rotating size that is not a multiple of its unit.
    Misaligned(&'static str),
}

fn scatter(pieces: &[Field], mut v: u64) -> u64 {
    let mut bits = 0;
    for p in pieces {
        bits |= p.put(v);
        v >>= p.len;
    }
    bits
}

fn gather(pieces: &[Field], bits: u64, signed: bool) -> i64 {
    let mut v: u64 = 0;
    let mut width = 0u32;
    for p in pieces {
        v |= p.get(bits) << width;
        width += u32::from(p.len);
    }
    if signed && width > 0 && width < 64 {
        let shift = 64 - width;
        ((v << shift) as i64) >> shift
    } else {
        v as i64
    }
}

fn width(pieces: &[Field]) -> u32 {
    pieces.iter().map(|p| u32::from(p.len)).sum()
}

impl OpKind {
    /// Places `value` into `raw`. `ip` is the address of the bundle holding the instruction.
    pub fn insert(self, raw: &mut Raw, value: i64, ip: u64) -> Result<(), OperandError> {
        let s = self.spec();
        let v = i128::from(value);
        let unsigned_ok = s.code == Code::Imm64 && v >= 0;
        // A bundle displacement is checked below, after subtracting the bundle address: the
        // value itself is an address (rows-live test, issue 12).
        let displacement = s.code == Code::Bundles;
        if (v < s.min || v > s.max) && !unsigned_ok && !displacement {
            return Err(OperandError::OutOfRange(s.range_text));
        }
        let encoded: i64 = match s.code {
            // F unit (issue 12): gas adds both signs to an fclass mask that names a class
            // (zero, unnormal, normal, infinity) but no sign, since such a mask would match nothing.
            Code::Plain if self == OpKind::Fclass9 && value & 0x3c != 0 && value & 3 == 0 => value | 3,
            Code::Plain => value,
            Code::MinusOne => value - 1,
            Code::SixtyThreeMinus => 63 - value,
            Code::Literal(_) => return Ok(()),
            Code::Choice(list) => match list.iter().position(|c| *c == value) {
                Some(i) => i as i64,
                None => return Err(OperandError::OutOfRange(s.range_text)),
            },
            Code::ThirtyOneMinus => 31 - value,
            Code::Bias(b) => value - b,
            // pr0 is constant, so gas drops bit 0 of a predicate mask instead of refusing it.
            // lfetch.count's stride loses its low 6 bits the same way (gas warns; later forms).
            Code::Shifted(n) if matches!(self, OpKind::Mask17 | OpKind::LfStride) => value >> n,
            Code::Shifted(n) => {
                if value & ((1 << n) - 1) != 0 {
                    return Err(OperandError::Misaligned(s.range_text));
                }
                value >> n
            }
            Code::Bundles => {
                let d = value.wrapping_sub(ip as i64);
                if d & 15 != 0 {
                    return Err(OperandError::Misaligned("a bundle address (multiple of 16)"));
                }
                let d = d >> 4;
                let w = width(s.pieces);
                let lim = 1i64 << (w - 1);
                // The tag of mov-to-br keeps only the low bits, like gas.
                if !matches!(self, OpKind::Tag13 | OpKind::Tag13b) && (d < -lim || d >= lim) {
                    return Err(OperandError::OutOfRange(s.range_text));
                }
                d
            }
            Code::Inc3 => {
                let code = match value.unsigned_abs() {
                    16 => 0,
                    8 => 1,
                    4 => 2,
                    1 => 3,
                    _ => return Err(OperandError::OutOfRange(s.range_text)),
                };
                raw.slot |= Field::new(15, 1).put(u64::from(value < 0)) | Field::new(13, 2).put(code);
                return Ok(());
            }
            Code::Imm64 => {
                let v = value as u64;
                raw.slot |= Field::new(13, 7).put(v)
                    | Field::new(27, 9).put(v >> 7)
                    | Field::new(22, 5).put(v >> 16)
                    | Field::new(21, 1).put(v >> 21)
                    | f::BIT36.put(v >> 63);
                raw.long = (v >> 22) & ((1 << 41) - 1);
                return Ok(());
            }
            Code::Imm62 => {
                let v = value as u64;
                raw.slot |= Field::new(6, 20).put(v) | f::BIT36.put(v >> 20);
                raw.long = (v >> 21) & ((1 << 41) - 1);
                return Ok(());
            }
            Code::Tgt64 => {
                let d = value.wrapping_sub(ip as i64);
                if d & 15 != 0 {
                    return Err(OperandError::Misaligned("a bundle address (multiple of 16)"));
                }
                let d = (d >> 4) as u64;
                raw.slot |= Field::new(13, 20).put(d) | f::BIT36.put(d >> 59);
                raw.long = ((d >> 20) & ((1 << 39) - 1)) << 2;
                return Ok(());
            }
        };
        raw.slot |= scatter(s.pieces, encoded as u64);
        Ok(())
    }

    /// The operand's value in `raw`. `ip` is the address of the bundle holding it.
    pub fn extract(self, raw: Raw, ip: u64) -> i64 {
        let s = self.spec();
        match s.code {
            Code::Plain => gather(s.pieces, raw.slot, s.signed),
            Code::MinusOne => gather(s.pieces, raw.slot, false) + 1,
            Code::SixtyThreeMinus => 63 - gather(s.pieces, raw.slot, false),
            Code::Literal(v) => v,
            Code::Choice(list) => list.get(gather(s.pieces, raw.slot, false) as usize).copied().unwrap_or(0),
            Code::ThirtyOneMinus => 31 - gather(s.pieces, raw.slot, false),
            Code::Bias(b) => gather(s.pieces, raw.slot, false) + b,
            Code::Shifted(n) => gather(s.pieces, raw.slot, s.signed) << n,
            Code::Bundles => (ip as i64).wrapping_add(gather(s.pieces, raw.slot, true) << 4),
            Code::Inc3 => {
                let mag = [16, 8, 4, 1][Field::new(13, 2).get(raw.slot) as usize];
                if Field::new(15, 1).get(raw.slot) == 1 {
                    -mag
                } else {
                    mag
                }
            }
            Code::Imm64 => {
                let v = Field::new(13, 7).get(raw.slot)
                    | Field::new(27, 9).get(raw.slot) << 7
                    | Field::new(22, 5).get(raw.slot) << 16
                    | Field::new(21, 1).get(raw.slot) << 21
                    | (raw.long & ((1 << 41) - 1)) << 22
                    | f::BIT36.get(raw.slot) << 63;
                v as i64
            }
            Code::Imm62 => {
                let v =
                    Field::new(6, 20).get(raw.slot) | f::BIT36.get(raw.slot) << 20 | (raw.long & ((1 << 41) - 1)) << 21;
                v as i64
            }
            Code::Tgt64 => {
                let d = Field::new(13, 20).get(raw.slot)
                    | ((raw.long >> 2) & ((1 << 39) - 1)) << 20
                    | f::BIT36.get(raw.slot) << 59;
                let d = ((d << 4) as i64) >> 4;
                (ip as i64).wrapping_add(d << 4)
            }
        }
    }
}
