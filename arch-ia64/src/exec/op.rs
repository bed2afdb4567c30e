//! The operations the executor performs: one variant per semantic function, with the
//! completer choices that change behaviour as small payloads. Every real table row maps to
//! one `Op` in `predecode.rs`; forms that differ only in encoding share an `Op`.

/// A compare relation (after gas's pseudo-op rewriting only eq, lt, ltu remain for normal
/// compares; parallel compares against r0 have all four signed relations).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rel {
    /// Equal.
    Eq,
    /// Not equal (parallel forms).
    Ne,
    /// Signed less than.
    Lt,
    /// Unsigned less than.
    Ltu,
    /// Signed greater than (r0 forms: 0 > r3).
    Gt,
    /// Signed less or equal (r0 forms).
    Le,
    /// Signed greater or equal (r0 forms).
    Ge,
}

/// How a compare, tbit or tnat writes its two predicates (SDM vol. 3, Table 2 "cmp").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CmpType {
    /// p1 = result, p2 = !result (only when qp is true).
    Normal,
    /// As normal, but both cleared first when qp is false.
    Unc,
    /// Both cleared when the result is false.
    And,
    /// Both set when the result is true.
    Or,
    /// p1 set, p2 cleared when the result is true.
    OrAndcm,
}

/// What a load does besides loading.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LoadKind {
    /// Plain, .bias, .acq (the ALAT types are [`Op::LoadAlat`]).
    Plain,
    /// .s and .sa: a fault is deferred as a NaT in the target.
    Speculative,
    /// ld8.fill: the NaT comes from ar.unat.
    Fill,
}

/// The speculative and ALAT types of a load (memory forms, issue 12).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AlatLoad {
    /// `.s` (FP loads only here; the integer `.s` is [`LoadKind::Speculative`]).
    Speculative,
    /// `.a`: allocates an ALAT entry.
    Advanced,
    /// `.sa`: speculative and advanced; a deferred fault allocates nothing.
    SpecAdvanced,
    /// `.c.nc`: reloads on a miss and then allocates; the entry stays.
    CheckNoClear,
    /// `.c.clr` (and `.c.clr.acq`): reloads on a miss; a hit removes the entry.
    CheckClear,
}

/// How the base register is updated after a memory access.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Update {
    /// No update.
    None,
    /// base += r2 (operand 2 is the register).
    Reg,
    /// base += imm9 (operand 2 is the immediate).
    Imm,
}

/// Floating-point memory formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FpFormat {
    /// 80-bit extended (ldfe/stfe).
    Extended,
    /// 64-bit integer into the significand (ldf8/stf8).
    Integer,
    /// IEEE single.
    Single,
    /// IEEE double.
    Double,
    /// The 16-byte register spill image (ldf.fill/stf.spill).
    Spill,
}

/// Branch kinds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BrKind {
    /// br.cond / brl.cond / br (IP-relative or indirect).
    Cond,
    /// br.ia (to IA-32: unsupported beyond the transfer itself).
    Ia,
    /// br.call / brl.call.
    Call,
    /// br.ret.
    Ret,
    /// br.cloop.
    Cloop,
    /// br.cexit.
    Cexit,
    /// br.ctop.
    Ctop,
    /// br.wexit.
    Wexit,
    /// br.wtop.
    Wtop,
}

/// One executable operation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[allow(missing_docs)] // operand order of each variant is the table row's display order
pub enum Op {
    Add {
        plus_one: bool,
    },
    Sub {
        minus_one: bool,
    },
    Addp4,
    And,
    Andcm,
    Or,
    Xor,
    Shladd {
        p4: bool,
    },
    /// adds/addl: imm + r3.
    AddImm,
    /// sub r1=imm8,r3.
    SubImm,
    AndImm,
    AndcmImm,
    OrImm,
    XorImm,
    Addp4Imm,
    Cmp {
        rel: Rel,
        ctype: CmpType,
        four: bool,
        imm: bool,
        zero: bool,
    },
    Tbit {
        nz: bool,
        ctype: CmpType,
    },
    Tnat {
        nz: bool,
        ctype: CmpType,
    },
    ShlVar,
    ShrVar {
        signed: bool,
    },
    Shrp,
    Extr {
        signed: bool,
    },
    DepZ,
    DepZImm,
    DepImm1,
    Dep,
    Zxt(u8),
    Sxt(u8),
    Movl,
    Load {
        size: u8,
        kind: LoadKind,
        update: Update,
        acquire: bool,
    },
    Store {
        size: u8,
        spill: bool,
        update: Update,
        release: bool,
    },
    LoadFp {
        format: FpFormat,
        update: Update,
    },
    // memory forms (issue 12): the ALAT and speculative loads, the 16-byte accesses.
    /// ld.a/.sa/.c.nc/.c.clr/.c.clr.acq.
    LoadAlat {
        size: u8,
        kind: AlatLoad,
        update: Update,
    },
    /// ldf.s/.a/.sa/.c.nc/.c.clr.
    LoadFpAlat {
        format: FpFormat,
        kind: AlatLoad,
        update: Update,
    },
    /// chk.a.nc/.clr on a GR or an FR; operand 1 is the recovery target.
    ChkA {
        fp: bool,
        clr: bool,
    },
    /// invala (the whole ALAT).
    Invala,
    /// invala.e r1/f1.
    InvalaE {
        fp: bool,
    },
    /// ld16: low 8 bytes to r1, high 8 to ar.csd.
    Load16,
    /// st16: r2 then ar.csd.
    Store16,
    /// cmp8xchg16.
    Cmp8xchg16,
    /// ldfps/ldfpd/ldfp8: two values of `format` into f1 and f2; operand 3 (M12) is the
    /// implied base update.
    LoadFpPair {
        format: FpFormat,
        update: Update,
    },
    StoreFp {
        format: FpFormat,
        update: Update,
    },
    /// lfetch: a prefetch hint. `fault`: the `.fault` form, which raises what a load would;
    /// operand 0 is `[r3]`, operand 1 the r2 or imm9 of the update forms.
    Lfetch {
        fault: bool,
        update: Update,
    },
    Xchg {
        size: u8,
    },
    Cmpxchg {
        size: u8,
    },
    Fetchadd {
        size: u8,
    },
    Getf {
        kind: u8,
    },
    Setf {
        kind: u8,
    },
    MovToAr,
    MovToArImm,
    MovFromAr,
    MovToCr,
    MovFromCr,
    MovToPsrL,
    MovToPsrUm,
    MovFromPsr,
    MovFromPsrUm,
    Sum,
    Rum,
    Ssm,
    Rsm,
    MovToBr,
    MovFromBr,
    MovToPr,
    MovToPrRot,
    MovFromPr,
    MovFromIp,
    Nop,
    Break,
    ChkS {
        fp: bool,
    },
    /// srlz, sync.i, mf, fwb, invala, fc: ordering/cache operations with no architectural
    /// effect in a single-CPU model without caches or an ALAT.
    Fence,
    Flushrs,
    Loadrs,
    Alloc,
    Probe {
        write: bool,
        imm: bool,
    },
    /// probe.r.fault / probe.w.fault / probe.rw.fault: the access checked.
    ProbeFault {
        read: bool,
        write: bool,
    },
    Thash,
    Ttag,
    Tpa,
    Tak,
    /// `mov file[r3]=r2` (rr, pkr, dbr, ibr, pmc, pmd).
    MovToInd(crate::state::indirect::File),
    /// `mov r1=file[r3]` (rr, pkr, dbr, ibr, pmc, pmd, cpuid).
    MovFromInd(crate::state::indirect::File),
    /// `mov msr[r3]=r2` / `mov r1=msr[r3]` (model-specific: stops the run).
    MovMsr,
    /// A TLB insertion or purge.
    Tlb(TlbOp),
    Branch {
        kind: BrKind,
        indirect: bool,
    },
    Cover,
    Clrrrb {
        pr_only: bool,
    },
    Rfi,
    Bsw {
        bank: u8,
    },
    Epc,
    Fmerge {
        kind: u8,
    },
    /// fma/fms/fnma (and their pseudo-ops): `pc` 1 = `.s`, 2 = `.d`, 0 = the status field's
    /// precision; `sf` the status field completer (bits 35:34, FP unit (issue 12)).
    Fma {
        sub: bool,
        neg: bool,
        pc: u8,
        sf: u8,
    },
    /// xma.l / xma.h / xma.hu (xmpy is xma with f2 = f0): a 64 x 64 -> 128-bit integer
    /// multiply-add on the significands.
    Xma {
        high: bool,
        unsigned: bool,
    },
    // multimedia (issue 12)
    /// A parallel (multimedia) operation, `exec/mm.rs`.
    Mm(MmOp),
    // F unit (issue 12). Executed bit-exactly in `fp_bits.rs`:
    /// fselect: f1 = f3 & f4 | f2 & ~f4 on the significands (operands f1, f3, f4, f2).
    Fselect,
    /// The F9 significand operations of op 0 (fmix, fsxt, fswap, fand, ...).
    FpBits(FpBitsOp),
    /// fpmerge.s (0), .ns (1), .se (2): the merges on both singles of a pair.
    Fpmerge {
        kind: u8,
    },
    /// fclass.m (`.unc`): operands p1, p2, f2, fclass9.
    Fclass {
        unc: bool,
    },
    /// fsetc.sf: operands amask7, omask7.
    Fsetc {
        sf: u8,
    },
    /// fclrf.sf.
    Fclrf {
        sf: u8,
    },
    /// The arithmetic F forms, executed by the FP arithmetic core (`sf` is the status field).
    FpArith {
        kind: FpArithOp,
        sf: u8,
    },
    // semantics ids in the row (issue 12): forms the checker and the scoreboard tell apart.
    /// srlz.d / srlz.i: executed as the other fences (the model has no serialisation state).
    Srlz {
        /// `srlz.i` rather than `srlz.d`.
        instr: bool,
    },
    /// brp / brp.ret: a branch-predict hint with no architectural effect.
    Brp,
    /// vmsw.0 / vmsw.1: sets PSR.vm. Itanium 2 does not implement PSR.vm, so it takes an
    /// Illegal Operation fault (SDM rev 2.3 vol. 3 p. 3:273, checked before the privilege level).
    Vmsw {
        /// The value PSR.vm would take.
        vm: bool,
    },
}

/// The F9 bit operations on significands (result exponent 0x1003E, sign 0).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[allow(missing_docs)] // named after the mnemonics
pub enum FpBitsOp {
    MixL,
    MixR,
    MixLr,
    SxtL,
    SxtR,
    Swap,
    SwapNl,
    SwapNr,
    And,
    Andcm,
    Or,
    Xor,
}

/// The arithmetic F-unit operations (SDM vol. 3 ch. 2), whose results need the FP core.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FpArithOp {
    /// fpma/fpms/fpnma (operands f1, f3, f4, f2).
    Fpma {
        /// fpms.
        sub: bool,
        /// fpnma.
        neg: bool,
    },
    /// fcmp: operands p1, p2, f2, f3; `frel` 0 eq, 1 lt, 2 le, 3 unord.
    Fcmp {
        /// Relation.
        frel: u8,
        /// `.unc`.
        unc: bool,
    },
    /// fpcmp: operands f1, f2, f3; `frel` 0-7 = eq lt le unord neq nlt nle ord (x6 0x30-0x37).
    Fpcmp {
        /// Relation.
        frel: u8,
    },
    /// fcvt.fx/.fxu/.trunc and fpcvt (operands f1, f2).
    Fcvt {
        /// `.fxu`.
        unsigned: bool,
        /// `.trunc`.
        trunc: bool,
        /// fpcvt (a pair of singles).
        parallel: bool,
    },
    /// fcvt.xf (operands f1, f2).
    Fcvtxf,
    /// fmin/fmax/famin/famax (0-3, x6 0x14-0x17) and the fp* forms (operands f1, f2, f3).
    MinMax {
        /// 0 min, 1 max, 2 amin, 3 amax.
        kind: u8,
        /// The pair-of-singles form.
        parallel: bool,
    },
    /// frcpa/fprcpa (operands f1, p2, f2, f3).
    Frcpa {
        /// fprcpa.
        parallel: bool,
    },
    /// frsqrta/fprsqrta (operands f1, p2, f3).
    Frsqrta {
        /// fprsqrta.
        parallel: bool,
    },
    /// fpack: two register-format values to singles (operands f1, f2, f3).
    Fpack,
    /// fchkf: branch to operand 0 if the status field's flags show an exception the
    /// main field (sf0) flags and traps do not.
    Fchkf,
}

/// The TLB insertions and purges (SDM vol. 3 itc, itr, ptc, ptr).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TlbOp {
    /// itc.i / itc.d: a translation-cache insertion.
    Itc {
        /// The data side (itc.d).
        data: bool,
    },
    /// itr.i / itr.d: a translation-register insertion.
    Itr {
        /// The data side (itr.d).
        data: bool,
    },
    /// ptc.l / ptc.g / ptc.ga: purge the translation caches of both sides over a range (the
    /// global forms act locally on this one-processor model).
    Ptc,
    /// ptc.e: purge every translation-cache entry.
    PtcE,
    /// ptr.i / ptr.d: purge translation registers (and caches) of one side over a range.
    Ptr {
        /// The data side (ptr.d).
        data: bool,
    },
}

// Multimedia operations (issue 12), moved from mm.rs (issue 16): `Op::Mm` holds one and mm.rs,
// which computes them, re-exports them; the vocabulary lives with `Op`, below the executor.

/// How a parallel add or subtract treats overflow (the completer of padd/psub).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sat {
    /// No completer: modulo arithmetic.
    Modulo,
    /// `.sss`: signed operands, signed saturation.
    Sss,
    /// `.uuu`: unsigned operands, unsigned saturation.
    Uuu,
    /// `.uus`: unsigned r2, signed r3, unsigned saturation.
    Uus,
}

/// mux1's permutations (the five named mbtype4 values; others are reserved).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mbtype {
    /// `@brcst`: byte 0 everywhere.
    Brcst,
    /// `@mix`.
    Mix,
    /// `@shuf`.
    Shuf,
    /// `@alt`.
    Alt,
    /// `@rev`.
    Rev,
}

/// One multimedia operation; `size` is the element width in bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[allow(missing_docs)] // the fields are the completers named in each variant's doc
pub enum MmOp {
    /// padd: r1 = r2 + r3.
    Add { size: u8, sat: Sat },
    /// psub: r1 = r2 - r3.
    Sub { size: u8, sat: Sat },
    /// pavg: unsigned average; `raz` rounds up, otherwise the shifted-out bit is ORed in.
    Avg { size: u8, raz: bool },
    /// pavgsub: (r2 - r3) / 2 with the borrow as the top bit.
    AvgSub { size: u8 },
    /// pcmp.eq / pcmp.gt (signed): all ones where true.
    Cmp { size: u8, gt: bool },
    /// pshladd2 r1=r2,count,r3.
    ShlAdd,
    /// pshradd2 r1=r2,count,r3.
    ShrAdd,
    /// pmpyshr2 / pmpyshr2.u r1=r2,r3,count.
    MpyShr { unsigned: bool },
    /// pmpy2.r (elements 0 and 2) / pmpy2.l (1 and 3): 32-bit products.
    Mpy { left: bool },
    /// mix.l / mix.r.
    Mix { size: u8, left: bool },
    /// pack2.uss (`unsigned`), pack2.sss, pack4.sss: r2's elements to the low half.
    Pack { size: u8, unsigned: bool },
    /// unpack.h / unpack.l: interleave the high or low halves, r3's at even positions.
    Unpack { size: u8, high: bool },
    /// pmin1.u / pmin2.
    Min { size: u8 },
    /// pmax1.u / pmax2.
    Max { size: u8 },
    /// psad1: sum of absolute byte differences.
    Sad,
    /// mux1 r1=r2,mbtype4 (operand 2 is the permutation number).
    Mux1,
    /// mux2 r1=r2,mhtype8.
    Mux2,
    /// pshr2/pshr4 (.u): operand 1 the value, operand 2 the count (register or immediate).
    Shr { size: u8, unsigned: bool, imm: bool },
    /// pshl2/pshl4: operand 1 the value, operand 2 the count (register or immediate).
    Shl { size: u8, imm: bool },
    /// popcnt r1=r3.
    Popcnt,
    /// clz r1=r3 (an Itanium 9500 form: Illegal Operation on the Itanium 2 modelled).
    Clz,
    /// czx1/czx2 .l (from the most significant element) or .r.
    Czx { size: u8, left: bool },
    /// mpy4 / mpyshl4 (Itanium 9500 forms whose semantics are not in the SDM used here).
    Mpy4 { shl: bool },
    /// A form of a processor later than the Itanium 2 modelled (issue 12 later forms, e.g.
    /// `lfetch.count`): its encoding is an unimplemented opcode there. The text names it.
    Later9500(&'static str),
    /// tf (test feature, I30): Itanium 2 predates it and no feature set is modelled.
    Tf {
        /// The compare type (`.unc`, `.and`, ...) the predicate writes take.
        ctype: CmpType,
    },
}
