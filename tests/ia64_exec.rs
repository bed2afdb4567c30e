//! The proof that IA-64 execution is right: small programs run through
//! `arch_ia64::run::run_source` with assertions on the final architectural state. Each
//! test names the rule it checks: "SDM V1/V2/V3" is the Intel Itanium Architecture
//! Software Developer's Manual rev 2.3 (volume 3 is the instruction reference, cited by
//! instruction), "ref §N" a section of /work/shared/reference/ia64-system.md.

#[path = "ia64_exec/helpers.rs"]
#[allow(dead_code)] // the shared helpers serve several test files
mod helpers;

use arch_ia64::exec::ExecError;
use arch_ia64::run::{RunConfig, RunError};
use helpers::{nat, p, reg, run, run_cfg, symbol, text_end, try_run_cfg, with_harness, wrap};

/// An address no default-harness region covers (for ld.s and NaT generation).
const UNMAPPED: &str = "0x123450000";

// ---------------------------------------------------------------- integer ALU

/// SDM V3 add/adds/sub: 64-bit two's complement arithmetic wraps silently (there is no
/// carry flag); `add r1=r2,r3,1` adds one more, `sub r1=r2,r3,1` subtracts one more;
/// `sub r1=imm8,r3` computes imm8 - r3.
#[test]
fn add_sub_wrap_and_plus_one_forms() {
    let r = run("\tmovl r2=0xffffffffffffffff ;;\n\
        \tmovl r3=0x7fffffffffffffff ;;\n\
        \tadds r8=1,r2 ;;\n\
        \tadds r9=1,r3 ;;\n\
        \tadd r10=r2,r2,1 ;;\n\
        \tmov r4=100\n\tmov r5=30 ;;\n\
        \tsub r11=r4,r5,1 ;;\n\
        \tsub r14=r5,r4 ;;\n\
        \tsub r15=5,r4 ;;\n\
        \taddl r16=-2000000,r0 ;;\n\
        \tadds r17=-8192,r0 ;;");
    assert_eq!(reg(&r, "r8"), 0, "all-ones + 1 wraps to zero");
    assert_eq!(reg(&r, "r9"), 0x8000_0000_0000_0000, "signed overflow wraps");
    assert_eq!(reg(&r, "r10"), u64::MAX, "-1 + -1 + 1");
    assert_eq!(reg(&r, "r11"), 69, "100 - 30 - 1");
    assert_eq!(reg(&r, "r14"), (-70i64) as u64);
    assert_eq!(reg(&r, "r15"), (-95i64) as u64, "imm8 - r3");
    assert_eq!(reg(&r, "r16"), (-2_000_000i64) as u64, "addl imm22 is sign-extended");
    assert_eq!(reg(&r, "r17"), (-8192i64) as u64, "adds imm14 is sign-extended");
}

/// SDM V3 shladd: r1 = (r2 << count2) + r3 for counts 1-4, wrapping.
#[test]
fn shladd_all_counts() {
    let r = run("\tmov r2=30\n\tmov r3=100 ;;\n\
        \tshladd r8=r2,1,r3\n\tshladd r9=r2,2,r3\n\tshladd r10=r2,3,r3\n\tshladd r11=r2,4,r3 ;;\n\
        \tmovl r4=0xf000000000000001 ;;\n\tshladd r14=r4,4,r0 ;;");
    assert_eq!(reg(&r, "r8"), 160);
    assert_eq!(reg(&r, "r9"), 220);
    assert_eq!(reg(&r, "r10"), 340);
    assert_eq!(reg(&r, "r11"), 580);
    assert_eq!(reg(&r, "r14"), 0x10, "bits shifted out of bit 63 are lost");
}

/// SDM V3 addp4: the 32-bit sum is zero-extended and bits 62:61 (the region number of a
/// 32-bit pointer) are copied from bits 31:30 of the r3 operand, for both the register
/// and the imm14 form.
#[test]
fn addp4_region_bits() {
    let r = run("\tmov r2=0x10\n\tmovl r3=0xc0000005 ;;\n\
        \taddp4 r8=r2,r3 ;;\n\
        \tmovl r4=0x40000000fffffff0 ;;\n\
        \taddp4 r9=0x20,r4 ;;\n\
        \tmovl r5=0xffffffff3ffffff0 ;;\n\
        \taddp4 r10=r2,r5 ;;");
    assert_eq!(reg(&r, "r8"), 0x6000_0000_c000_0015);
    assert_eq!(reg(&r, "r9"), 0x6000_0000_0000_0010, "the 32-bit sum wraps; region from r3[31:30]=3");
    assert_eq!(reg(&r, "r10"), 0x0000_0000_4000_0000, "region 0 when r3[31:30]=0, upper bits dropped");
}

/// SDM V3 and/andcm/or/xor: register and imm8 forms; imm8 is sign-extended and andcm
/// with an immediate is imm8 & ~r3.
#[test]
fn logical_register_and_immediate() {
    let r = run("\tmovl r2=0xf0f0 ;;\n\tmov r3=0xff ;;\n\
        \tand r8=0x7f,r2\n\tandcm r9=0x7f,r2\n\tor r10=0x0f,r2\n\txor r11=-1,r2 ;;\n\
        \tand r14=r2,r3\n\tandcm r15=r2,r3\n\tor r16=r2,r3\n\txor r17=r2,r3 ;;\n\
        \tand r18=-128,r2 ;;");
    assert_eq!(reg(&r, "r8"), 0x70);
    assert_eq!(reg(&r, "r9"), 0x0f, "andcm imm: imm & ~r3");
    assert_eq!(reg(&r, "r10"), 0xf0ff);
    assert_eq!(reg(&r, "r11"), !0xf0f0u64, "xor with -1 is not");
    assert_eq!(reg(&r, "r14"), 0xf0);
    assert_eq!(reg(&r, "r15"), 0xf000);
    assert_eq!(reg(&r, "r16"), 0xf0ff);
    assert_eq!(reg(&r, "r17"), 0xf00f);
    assert_eq!(reg(&r, "r18"), 0xf080, "imm8 -128 sign-extends to ...ff80");
}

/// SDM V3 shl/shr/shr.u (variable): the count is all 64 bits of r3; a count above 63 gives
/// 0 for shl and shr.u and the sign fill for shr.
#[test]
fn shifts_by_register_including_large_counts() {
    let r = run("\tmovl r2=0x8000000000000010 ;;\n\
        \tmov r3=64\n\tmov r4=4\n\tmov r5=200 ;;\n\
        \tshl r8=r2,r3\n\tshl r9=r2,r4\n\tshr r10=r2,r3\n\tshr.u r11=r2,r3 ;;\n\
        \tshr r14=r2,r4\n\tshr.u r15=r2,r4\n\tshl r16=r2,r5\n\tshr r17=r2,r5 ;;\n\
        \tmovl r6=0x100000000 ;;\n\tshr.u r18=r2,r6\n\tshl r19=r4,r0 ;;");
    assert_eq!(reg(&r, "r8"), 0, "shl by 64");
    assert_eq!(reg(&r, "r9"), 0x100);
    assert_eq!(reg(&r, "r10"), u64::MAX, "shr by 64 fills with the sign");
    assert_eq!(reg(&r, "r11"), 0, "shr.u by 64");
    assert_eq!(reg(&r, "r14"), 0xf800_0000_0000_0001);
    assert_eq!(reg(&r, "r15"), 0x0800_0000_0000_0001);
    assert_eq!(reg(&r, "r16"), 0, "shl by 200");
    assert_eq!(reg(&r, "r17"), u64::MAX, "shr by 200");
    assert_eq!(reg(&r, "r18"), 0, "a count with only high bits set is still > 63");
    assert_eq!(reg(&r, "r19"), 4, "shift by 0");
}

/// SDM V3 shrp: r1 = low 64 bits of (r2:r3) >> count6.
#[test]
fn shrp_concatenated_shift() {
    let r = run("\tmovl r2=0x8000000000000010\n\tmovl r3=0x1122334455667788 ;;\n\
        \tshrp r8=r2,r3,8\n\tshrp r9=r2,r3,63\n\tshrp r10=r2,r3,1 ;;");
    assert_eq!(reg(&r, "r8"), 0x1011_2233_4455_6677);
    assert_eq!(reg(&r, "r9"), 0x20, "(r2 << 1) | r3[63]");
    assert_eq!(reg(&r, "r10"), 0x0891_19a2_2ab3_3bc4);
}

/// SDM V3 extr/extr.u: the field at pos6 of len6 bits is sign- or zero-extended; when
/// pos+len passes bit 63 the field is cut at bit 63 and its sign is r3{63}.
#[test]
fn extr_edge_positions() {
    let r = run("\tmovl r2=0x8000000000000ff0 ;;\n\
        \textr r8=r2,60,8\n\textr.u r9=r2,60,8\n\textr r10=r2,4,8\n\textr.u r11=r2,4,8 ;;\n\
        \textr r14=r2,63,1\n\textr.u r15=r2,63,1\n\textr.u r16=r2,0,64\n\textr r17=r2,4,9 ;;\n\
        \textr r18=r2,0,1 ;;");
    assert_eq!(reg(&r, "r8"), (-8i64) as u64, "field 63:60 = 1000, sign-extended");
    assert_eq!(reg(&r, "r9"), 8);
    assert_eq!(reg(&r, "r10"), u64::MAX, "0xff in 8 bits is -1");
    assert_eq!(reg(&r, "r11"), 0xff);
    assert_eq!(reg(&r, "r14"), u64::MAX);
    assert_eq!(reg(&r, "r15"), 1);
    assert_eq!(reg(&r, "r16"), 0x8000_0000_0000_0ff0, "a 64-bit field is the register");
    assert_eq!(reg(&r, "r17"), 0xff, "9-bit field 0 1111 1111 is positive");
    assert_eq!(reg(&r, "r18"), 0);
}

/// SDM V3 dep: the four forms — dep r1=r2,r3,pos,len4 (merge, len 1-16), dep
/// r1=imm1,r3,pos,len6 (merge a field of 0s or 1s), dep.z r1=r2,pos,len6 and dep.z
/// r1=imm8,pos,len6 (into zero); bits past 63 are dropped.
#[test]
fn dep_all_four_forms() {
    let r = run("\tmovl r2=0x8000000000000010\n\tmovl r3=0x1122334455667788 ;;\n\
        \tdep r8=r2,r3,8,16\n\tdep r9=-1,r3,60,8\n\tdep r10=0,r3,0,32\n\tdep.z r11=r2,4,8 ;;\n\
        \tdep.z r14=-3,60,8\n\tdep.z r15=5,0,2\n\tdep r16=r2,r3,56,16\n\tdep.z r17=r2,0,64 ;;");
    assert_eq!(reg(&r, "r8"), 0x1122_3344_5500_1088);
    assert_eq!(reg(&r, "r9"), 0xf122_3344_5566_7788, "ones field truncated at bit 63");
    assert_eq!(reg(&r, "r10"), 0x1122_3344_0000_0000);
    assert_eq!(reg(&r, "r11"), 0x100);
    assert_eq!(reg(&r, "r14"), 0xd000_0000_0000_0000, "imm8 0xfd, four bits survive");
    assert_eq!(reg(&r, "r15"), 1, "only len bits of the immediate");
    assert_eq!(reg(&r, "r16"), 0x1022_3344_5566_7788, "r2[7:0] at 63:56, the rest dropped");
    assert_eq!(reg(&r, "r17"), 0x8000_0000_0000_0010);
}

/// SDM V3 zxt/sxt: zero/sign extension from bit 7, 15 or 31.
#[test]
fn zxt_sxt() {
    let r = run("\tmovl r2=0x12345678f00f80f0 ;;\n\
        \tzxt1 r8=r2\n\tzxt2 r9=r2\n\tzxt4 r10=r2\n\tsxt1 r11=r2 ;;\n\
        \tsxt2 r14=r2\n\tsxt4 r15=r2\n\tmov r3=0x7f ;;\n\tsxt1 r16=r3 ;;");
    assert_eq!(reg(&r, "r8"), 0xf0);
    assert_eq!(reg(&r, "r9"), 0x80f0);
    assert_eq!(reg(&r, "r10"), 0xf00f_80f0);
    assert_eq!(reg(&r, "r11"), 0xffff_ffff_ffff_fff0);
    assert_eq!(reg(&r, "r14"), 0xffff_ffff_ffff_80f0);
    assert_eq!(reg(&r, "r15"), 0xffff_ffff_f00f_80f0);
    assert_eq!(reg(&r, "r16"), 0x7f);
}

/// SDM V3 movl / mov imm22 (addl): the 64-bit immediate of the MLX form, and r0 reads 0.
#[test]
fn movl_and_r0() {
    let r = run("\tmovl r8=0xfedcba9876543210 ;;\n\tmovl r9=-1 ;;\n\tadd r10=r0,r0\n\tmov r11=r0 ;;");
    assert_eq!(reg(&r, "r8"), 0xfedc_ba98_7654_3210);
    assert_eq!(reg(&r, "r9"), u64::MAX);
    assert_eq!(reg(&r, "r10"), 0);
    assert_eq!(reg(&r, "r11"), 0);
}

// ---------------------------------------------------------------- compares

/// SDM V3 cmp/cmp4 and the gas pseudo-ops (ne, gt, le, ge, gtu, leu, geu swap targets or
/// operands of eq/lt/ltu): p1 = relation, p2 = !relation. cmp4 compares the low 32 bits.
#[test]
fn cmp_all_relations() {
    let r = run("\tmov r2=-5\n\tmov r3=3 ;;\n\
        \tcmp.eq p6,p7=r2,r3\n\tcmp.ne p8,p9=r2,r3\n\tcmp.lt p10,p11=r2,r3 ;;\n\
        \tcmp.ltu p12,p13=r2,r3\n\tcmp.gt p14,p15=r2,r3\n\tcmp.le p16,p17=r2,r3 ;;\n\
        \tcmp.ge p18,p19=r2,r3\n\tcmp.geu p20,p21=r2,r3\n\tcmp.gtu p22,p23=r2,r3 ;;\n\
        \tcmp.leu p24,p25=r2,r3\n\tcmp.lt p26,p27=-6,r2\n\tcmp.eq p28,p29=3,r3 ;;\n\
        \tcmp.gt p30,p31=2,r3\n\tcmp.ge p32,p33=3,r3\n\tcmp.ltu p34,p35=-1,r2 ;;\n\
        \tcmp.ne p36,p37=3,r3\n\tcmp.le p38,p39=-5,r2\n\tcmp.geu p40,p41=4,r3 ;;");
    let want = [
        (6, false),
        (8, true),
        (10, true),
        (12, false),
        (14, false),
        (16, true),
        (18, false),
        (20, true),
        (22, true),
        (24, false),
        (26, true),
        (28, true),
        (30, false),
        (32, true),
        (34, false),
        (36, false),
        (38, true),
        (40, true),
    ];
    for (n, v) in want {
        assert_eq!(p(&r, n), v, "p{n}");
        assert_eq!(p(&r, n + 1), !v, "p{} is the complement of p{n}", n + 1);
    }
}

/// SDM V3 cmp4: only bits 31:0 take part, signed for lt and unsigned for ltu.
#[test]
fn cmp4_uses_low_32_bits() {
    let r = run("\tmovl r2=0x100000005\n\tmov r3=5\n\tmovl r4=0xffffffff ;;\n\
        \tcmp4.eq p6,p7=r2,r3\n\tcmp.eq p8,p9=r2,r3\n\tcmp4.lt p10,p11=r4,r0 ;;\n\
        \tcmp.lt p12,p13=r4,r0\n\tcmp4.ltu p14,p15=r0,r4\n\tcmp4.gt p16,p17=r0,r4 ;;\n\
        \tcmp4.eq p18,p19=-1,r4 ;;");
    assert!(p(&r, 6) && !p(&r, 7), "cmp4.eq ignores bit 32");
    assert!(!p(&r, 8) && p(&r, 9), "cmp.eq sees bit 32");
    assert!(p(&r, 10) && !p(&r, 11), "0xffffffff is -1 as a 32-bit value");
    assert!(!p(&r, 12) && p(&r, 13), "but positive as 64 bits");
    assert!(p(&r, 14) && !p(&r, 15));
    assert!(p(&r, 16) && !p(&r, 17), "0 > -1 (32-bit signed)");
    assert!(p(&r, 18) && !p(&r, 19), "imm8 -1 compares equal in 32 bits");
}

/// SDM V3 cmp, unc type: with a true qp it writes like the normal type; with a false qp
/// both targets are cleared (the only compare that writes when nullified).
#[test]
fn cmp_unc_clears_targets_when_qp_false() {
    let r = run("\tmovl r2=-1 ;;\n\tmov pr=r2,0x1fffe ;;\n\
        \tcmp.eq p1,p0=r0,r2 ;;\n\
        \t(p1) cmp.eq.unc p6,p7=r0,r0\n\t(p1) cmp.eq p8,p9=r2,r2 ;;\n\
        \t(p2) cmp.eq.unc p10,p11=r0,r0\n\t(p2) cmp.ne.unc p12,p13=r0,r0 ;;\n\
        \t(p1) tbit.z.unc p14,p15=r2,0 ;;");
    assert!(!p(&r, 1), "qp itself is false");
    assert!(!p(&r, 6) && !p(&r, 7), "unc with false qp clears both");
    assert!(p(&r, 8) && p(&r, 9), "a normal compare with false qp writes nothing");
    assert!(p(&r, 10) && !p(&r, 11), "unc with true qp: normal result");
    assert!(!p(&r, 12) && p(&r, 13));
    assert!(!p(&r, 14) && !p(&r, 15), "tbit.unc with false qp clears both");
}

/// SDM V3 cmp, parallel types: and clears both targets when the relation is false, or
/// sets both when true, or.andcm sets p1 and clears p2 when true, and.orcm clears p1 and
/// sets p2 when false; otherwise the targets keep their values. Relations other than
/// eq/ne are only allowed against r0 (`cmp.lt.and p,p=r0,r3` tests 0 < r3).
#[test]
fn cmp_parallel_types() {
    let r = run("\tmov r2=7\n\tmov r3=-7 ;;\n\
        \tmov pr=r0,0x1fffe ;;\n\tmov r4=-1 ;;\n\tmov pr=r4,0xf000 ;;\n\
        \tcmp.eq.and p12,p13=r2,r3\n\tcmp.eq.and p14,p15=r2,r2\n\tcmp.eq.or p6,p7=r2,r2\n\tcmp.eq.or p8,p9=r2,r3 ;;\n\
        \tcmp.eq.or.andcm p10,p11=r2,r2\n\tcmp.ne.and.orcm p2,p3=r2,r2 ;;\n\
        \tmov pr=r4,0x10000 ;;\n\
        \tcmp.lt.and p16,p17=r0,r2\n\tcmp.lt.and p18,p19=r0,r3\n\tcmp.gt.or p20,p21=r0,r3\n\tcmp.le.or.andcm p22,p23=r0,r3 ;;\n\
        \tcmp.ge.and p24,p25=r0,r3\n\tcmp.gt.and p26,p27=r0,r2 ;;");
    assert!(!p(&r, 12) && !p(&r, 13), ".and false clears both");
    assert!(p(&r, 14) && p(&r, 15), ".and true leaves both");
    assert!(p(&r, 6) && p(&r, 7), ".or true sets both");
    assert!(!p(&r, 8) && !p(&r, 9), ".or false leaves both");
    assert!(p(&r, 10) && !p(&r, 11), ".or.andcm true: p1=1, p2=0");
    assert!(!p(&r, 2) && p(&r, 3), ".and.orcm false: p1=0, p2=1");
    assert!(p(&r, 16) && p(&r, 17), "0 < 7: .and leaves");
    assert!(!p(&r, 18) && !p(&r, 19), "0 < -7 false: .and clears");
    assert!(p(&r, 20) && p(&r, 21), "0 > -7: .or sets (targets were 1 already)");
    assert!(p(&r, 22) && p(&r, 23), "0 <= -7 false: .or.andcm leaves");
    assert!(p(&r, 24) && p(&r, 25), "0 >= -7: .and leaves");
    assert!(!p(&r, 26) && !p(&r, 27), "0 > 7 false: .and clears");
}

/// SDM V3 cmp.or from cleared predicates (so the write is visible) and parallel compares
/// in one instruction group ORing together (the intended use of the or type).
#[test]
fn cmp_or_type_sets_from_zero() {
    let r = run("\tmov r2=7 ;;\n\tmov pr=r0,0x1fffe ;;\n\
        \tcmp.ne.or p6,p7=r2,r0\n\tcmp.eq.or p8,p9=r2,r0 ;;\n\tcmp.lt.or p10,p11=r0,r2\n\tcmp.eq.or.andcm p12,p13=r0,r0 ;;");
    assert!(p(&r, 6) && p(&r, 7));
    assert!(!p(&r, 8) && !p(&r, 9));
    assert!(p(&r, 10) && p(&r, 11));
    assert!(p(&r, 12) && !p(&r, 13));
}

/// SDM V3 tbit/tnat: z/nz test one bit of the value or the NaT bit.
#[test]
fn tbit_and_tnat() {
    let src = format!(
        "\tmovl r2=0x8000000000000004\n\tmovl r3={UNMAPPED} ;;\n\tld8.s r9=[r3] ;;\n\
        \ttbit.nz p6,p7=r2,2\n\ttbit.z p8,p9=r2,63\n\ttbit.z p10,p11=r2,3 ;;\n\
        \ttnat.nz p12,p13=r2\n\ttnat.nz p14,p15=r9\n\ttnat.z p16,p17=r9 ;;"
    );
    let r = run(&src);
    assert!(p(&r, 6) && !p(&r, 7));
    assert!(!p(&r, 8) && p(&r, 9));
    assert!(p(&r, 10) && !p(&r, 11));
    assert!(!p(&r, 12) && p(&r, 13));
    assert!(p(&r, 14) && !p(&r, 15));
    assert!(!p(&r, 16) && p(&r, 17));
}

// ---------------------------------------------------------------- memory

/// SDM V3 ld/st: little-endian accesses of 1, 2, 4, 8 bytes; loads zero-extend; the
/// base register post-increments by imm9 (sign-extended, negative allowed) or, for loads,
/// by a register; the access uses the address before the increment.
#[test]
fn loads_stores_all_sizes_and_post_increment() {
    let r = run("\tadds r2=-512,r12\n\tmovl r3=0x8899aabbccddeeff ;;\n\
        \tst8 [r2]=r3 ;;\n\
        \tld1 r8=[r2] ;;\n\tld2 r9=[r2] ;;\n\tld4 r10=[r2] ;;\n\tld8 r11=[r2] ;;\n\
        \tadds r4=16,r2 ;;\n\
        \tst1 [r4]=r3,1 ;;\n\tst2 [r4]=r3,2 ;;\n\tst4 [r4]=r3,4 ;;\n\tst8 [r4]=r3,-7 ;;\n\
        \tld8 r14=[r4],8 ;;\n\tsub r15=r4,r2\n\tmov r5=-8 ;;\n\
        \tld8 r16=[r4],r5 ;;\n\tsub r17=r4,r2 ;;\n\
        \tadds r6=256,r2 ;;\n\tst8 [r6]=r3,-256 ;;\n\tsub r18=r6,r2\n\tld4 r19=[r6],-256 ;;\n\
        \tsub r20=r2,r6 ;;");
    assert_eq!(reg(&r, "r8"), 0xff);
    assert_eq!(reg(&r, "r9"), 0xeeff);
    assert_eq!(reg(&r, "r10"), 0xccdd_eeff);
    assert_eq!(reg(&r, "r11"), 0x8899_aabb_ccdd_eeff);
    assert_eq!(reg(&r, "r14"), 0xffcc_ddee_ffee_ffff, "bytes ff | ff ee | ff ee dd cc | ff");
    assert_eq!(reg(&r, "r15"), 24, "16 + 1 + 2 + 4 - 7 + 8");
    assert_eq!(reg(&r, "r16"), 0x0088_99aa_bbcc_ddee, "tail of the st8 at +23");
    assert_eq!(reg(&r, "r17"), 16, "register post-increment by -8");
    assert_eq!(reg(&r, "r18"), 0, "imm9 -256 is the lowest increment");
    assert_eq!(reg(&r, "r19"), 0xccdd_eeff, "the ld4 read the base address before its increment");
    assert_eq!(reg(&r, "r20"), 256);
}

/// SDM V3 st8.spill/ld8.fill, ref §6: the spill stores the value and puts its NaT bit in
/// ar.unat bit addr{8:3}; the fill loads the value and takes the NaT from that bit. A
/// NaT source does not fault a spill.
#[test]
fn spill_fill_collects_nat_in_unat() {
    let src = format!(
        "\tmovl r3={UNMAPPED} ;;\n\tld8.s r9=[r3] ;;\n\
        \tmovl r2=0x70008010\n\tmovl r4=0x1234 ;;\n\
        \tmov ar.unat=r0 ;;\n\
        \tst8.spill [r2]=r9,8 ;;\n\tst8.spill [r2]=r4 ;;\n\tmov r8=ar.unat ;;\n\
        \tadds r2=-8,r2 ;;\n\tld8.fill r10=[r2],8 ;;\n\tld8.fill r11=[r2] ;;\n\
        \tmovl r5=0xffffffffffffffff ;;\n\tmov ar.unat=r5 ;;\n\tld8.fill r14=[r2] ;;\n\
        \tst8.spill [r2]=r4 ;;\n\tmov r15=ar.unat ;;"
    );
    let r = run(&src);
    assert_eq!(reg(&r, "r8"), 1 << 2, "0x70008010[8:3] = 2 holds r9's NaT, slot 3 is clear");
    assert!(nat(&r, "r10"), "filled NaT from unat bit 2");
    assert!(!nat(&r, "r11"));
    assert_eq!(reg(&r, "r11"), 0x1234);
    assert!(nat(&r, "r14"), "with unat all ones the fill gives NaT");
    assert_eq!(reg(&r, "r15"), !(1u64 << 3), "a spill of a non-NaT clears its unat bit");
}

/// SDM V3 ld (speculative), ref §6: ld.s from an address that cannot be accessed defers
/// the fault: the target gets NaT (and value 0) and execution continues.
#[test]
fn speculative_load_of_unmapped_address_gives_nat() {
    let src = format!("\tmovl r3={UNMAPPED} ;;\n\tld8.s r8=[r3]\n\tld4.s r9=[r3] ;;\n\tadds r10=1,r0 ;;");
    let r = run(&src);
    assert!(nat(&r, "r8"));
    assert!(nat(&r, "r9"));
    assert_eq!(reg(&r, "r10"), 1, "execution went on");
}

/// ref §6: ALU results carry the OR of the source NaTs; a normal compare with a NaT source
/// clears both targets; movl and ordinary loads give NaT = 0.
#[test]
fn nat_propagates_through_alu() {
    let src = format!(
        "\tmovl r3={UNMAPPED} ;;\n\tld8.s r9=[r3] ;;\n\
        \tadd r10=r9,r0\n\tshladd r11=r0,2,r9\n\tand r14=0,r9\n\tmov r15=r9 ;;\n\
        \textr.u r16=r9,0,8\n\tdep r17=r0,r9,0,8\n\tmov r18=1\n\tmovl r19=5 ;;\n\
        \tmov pr=r0,0x1fffe ;;\n\tcmp.eq p6,p7=r0,r9\n\tcmp.eq p8,p9=r0,r0 ;;\n\
        \tsub r20=r18,r9 ;;\n\tadds r21=8,r12 ;;\n\tld8 r9=[r21] ;;\n\ttnat.nz p10,p11=r10 ;;"
    );
    let r = run(&src);
    for n in ["r10", "r11", "r14", "r15", "r16", "r17", "r20"] {
        assert!(nat(&r, n), "{n} inherits the NaT");
    }
    assert!(!nat(&r, "r18") && !nat(&r, "r19"));
    assert!(!nat(&r, "r9"), "a normal load clears the NaT");
    assert!(!p(&r, 6) && !p(&r, 7), "compare with a NaT source writes 0 to both");
    assert!(p(&r, 8) && !p(&r, 9));
    assert!(p(&r, 10) && !p(&r, 11));
}

/// SDM V3 xchg, cmpxchg, fetchadd: xchg returns the old value and stores the new;
/// cmpxchg stores only when memory equals ar.ccv (zero-extended for the 4-byte form) and
/// always returns the old value; fetchadd adds its immediate and returns the old value.
#[test]
fn atomics_xchg_cmpxchg_fetchadd() {
    let r = run("\tadds r2=-512,r12\n\tmov r3=5 ;;\n\tst8 [r2]=r3\n\tmov r4=9 ;;\n\
        \txchg8 r8=[r2],r4 ;;\n\tld8 r9=[r2]\n\tmov r5=11\n\tmov ar.ccv=r4 ;;\n\
        \tcmpxchg8.acq r10=[r2],r5,ar.ccv ;;\n\tld8 r11=[r2]\n\tmov r6=77\n\tmov ar.ccv=r3 ;;\n\
        \tcmpxchg8.rel r14=[r2],r6,ar.ccv ;;\n\tld8 r15=[r2] ;;\n\
        \tfetchadd8.acq r16=[r2],-16 ;;\n\tld8 r17=[r2] ;;\n\
        \tfetchadd4.rel r18=[r2],8 ;;\n\tld8 r19=[r2] ;;\n\
        \tmovl r7=0xffffffff00000003 ;;\n\tmov ar.ccv=r7 ;;\n\tcmpxchg4.acq r20=[r2],r0,ar.ccv ;;\n\tld8 r21=[r2] ;;\n\
        \tmovl r7=3 ;;\n\tmov ar.ccv=r7 ;;\n\tcmpxchg4.acq r22=[r2],r0,ar.ccv ;;\n\tld8 r23=[r2] ;;");
    assert_eq!(reg(&r, "r8"), 5, "xchg returns the old value");
    assert_eq!(reg(&r, "r9"), 9);
    assert_eq!(reg(&r, "r10"), 9, "cmpxchg success returns the old value");
    assert_eq!(reg(&r, "r11"), 11, "and stores");
    assert_eq!(reg(&r, "r14"), 11, "cmpxchg failure returns the old value");
    assert_eq!(reg(&r, "r15"), 11, "and leaves memory alone");
    assert_eq!(reg(&r, "r16"), 11);
    assert_eq!(reg(&r, "r17"), (-5i64) as u64);
    assert_eq!(reg(&r, "r18"), 0xffff_fffb, "4-byte old value, zero-extended");
    assert_eq!(reg(&r, "r19"), 0xffff_ffff_0000_0003, "the 4-byte add wraps in its word");
    assert_eq!(reg(&r, "r20"), 3, "ccv high bits set: 4-byte compare fails");
    assert_eq!(reg(&r, "r21"), 0xffff_ffff_0000_0003);
    assert_eq!(reg(&r, "r22"), 3);
    assert_eq!(reg(&r, "r23"), 0xffff_ffff_0000_0000, "4-byte compare succeeded, low word stored");
}

// ---------------------------------------------------------------- floating-point moves

/// SDM V3 setf/getf/fmerge, ldf.fill/stf.spill: setf.sig makes an integer (exponent
/// 0x1003e) that getf.sig reads back; `mov f=f` is fmerge.s; fmerge.ns negates the sign;
/// fmerge.se takes sign+exponent from f2 and the significand from f3; the 16-byte spill
/// image round-trips through memory; setf.d/getf.d keep the double's bits.
#[test]
fn fp_register_moves_and_spill_round_trip() {
    let r = run("\tmovl r2=0x123456789abcdef0 ;;\n\tsetf.sig f6=r2 ;;\n\tgetf.sig r8=f6\n\
        \tmov f7=f6\n\tfmerge.s f8=f6,f6 ;;\n\tgetf.sig r9=f7\n\tgetf.exp r10=f8\n\
        \tfmerge.ns f9=f1,f6 ;;\n\tgetf.exp r11=f9\n\tfmerge.se f10=f6,f1 ;;\n\
        \tgetf.sig r14=f10\n\tgetf.exp r15=f10\n\tadds r3=-512,r12 ;;\n\
        \tstf.spill [r3]=f6 ;;\n\tldf.fill f11=[r3] ;;\n\tgetf.sig r16=f11\n\tgetf.exp r17=f11\n\
        \tmovl r4=0x400921fb54442d18 ;;\n\tsetf.d f12=r4 ;;\n\tgetf.d r18=f12\n\tgetf.sig r19=f1\n\
        \tmov r5=0x1ffff ;;\n\tsetf.exp f13=r5 ;;\n\tgetf.exp r20=f13 ;;");
    assert_eq!(reg(&r, "r8"), 0x1234_5678_9abc_def0);
    assert_eq!(reg(&r, "r9"), 0x1234_5678_9abc_def0, "mov f7=f6");
    assert_eq!(reg(&r, "r10"), 0x1003e, "integer exponent");
    assert_eq!(reg(&r, "r11"), 0x3003e, "fmerge.ns: sign of f1 negated (bit 17)");
    assert_eq!(reg(&r, "r14"), 0x8000_0000_0000_0000, "significand of f1 = 1.0");
    assert_eq!(reg(&r, "r15"), 0x1003e);
    assert_eq!(reg(&r, "r16"), 0x1234_5678_9abc_def0, "ldf.fill of the stf.spill image");
    assert_eq!(reg(&r, "r17"), 0x1003e);
    assert_eq!(reg(&r, "r18"), 0x4009_21fb_5444_2d18, "pi round-trips as a double");
    assert_eq!(reg(&r, "r19"), 0x8000_0000_0000_0000, "f1 is +1.0");
    assert_eq!(reg(&r, "r20"), 0x1ffff);
}

// ---------------------------------------------------------------- register moves

/// SDM V3 mov br/pr: `mov b=r`/`mov r=b` copy 64 bits; `mov pr=r2,mask17` writes p1-p15
/// where mask{15:1} is set and all of p16-p63 when mask{16} is set; `mov pr.rot=imm44`
/// writes p16-p63 only; p0 always reads 1.
#[test]
fn moves_branch_and_predicate_registers() {
    let r = run("\tmovl r2=0x123456789abcdef0 ;;\n\tmov b1=r2 ;;\n\tmov r8=b1\n\
        \tmov pr=r0,0x1fffe ;;\n\tmov r3=-1 ;;\n\tmov pr=r3,0x3e ;;\n\tmov r9=pr ;;\n\
        \tmov pr.rot=0x30000 ;;\n\tmov r10=pr ;;\n\
        \tmovl r4=0x00000000ffff0000 ;;\n\tmov pr=r4,0x10000 ;;\n\tmov r11=pr\n\tmov r5=b0 ;;\n\
        \tmov pr=r0,-1 ;;\n\tmov r14=pr ;;");
    assert_eq!(reg(&r, "r8"), 0x1234_5678_9abc_def0);
    assert_eq!(reg(&r, "r9"), 0x3f, "p1-p5 written, p0 reads 1");
    assert_eq!(reg(&r, "r10"), 0x3003f, "pr.rot sets p16,p17 and clears p18-p63, p1-p15 kept");
    assert_eq!(reg(&r, "r11"), 0xffff_003f, "mask bit 16 writes p16-p63 together");
    assert_eq!(reg(&r, "r5"), arch_ia64::run::SENTINEL, "b0 holds the default harness's sentinel");
    assert_eq!(reg(&r, "r14"), 1, "p0 cannot be cleared");
}

/// SDM V3 mov ar, ref §0/§5/§8: ar.k0-7, ccv, unat, lc, ec, pfs and rsc read back what was
/// written (lc/ec also from an immediate); a write to ar.itc sets the counter, which then
/// keeps counting up from the written value.
#[test]
fn moves_application_registers() {
    let r = run("\tmovl r2=0x1122334455667788 ;;\n\
        \tmov ar.k3=r2\n\tmov ar.ccv=r2\n\tmov ar.unat=r2 ;;\n\tmov r8=ar.k3\n\tmov r9=ar.ccv\n\tmov r10=ar.unat ;;\n\
        \tmov ar.lc=r2\n\tmov ar.pfs=r2 ;;\n\tmov r11=ar.lc\n\tmov r14=ar.pfs ;;\n\
        \tmov ar.ec=5\n\tmov r3=3 ;;\n\tmov ar.rsc=r3 ;;\n\tmov r15=ar.ec\n\tmov r16=ar.rsc ;;\n\
        \tmov ar.lc=-1 ;;\n\tmov r17=ar.lc\n\tmov ar.rsc=r0\n\tmov ar.pfs=r0 ;;\n\
        \tmovl r4=0x1000000 ;;\n\tmov ar.itc=r4 ;;\n\tmov r18=ar.itc ;;\n\tmov r19=ar.itc ;;");
    assert_eq!(reg(&r, "r8"), 0x1122_3344_5566_7788);
    assert_eq!(reg(&r, "r9"), 0x1122_3344_5566_7788);
    assert_eq!(reg(&r, "r10"), 0x1122_3344_5566_7788);
    assert_eq!(reg(&r, "r11"), 0x1122_3344_5566_7788);
    assert_eq!(reg(&r, "r14"), 0x1122_3344_5566_7788);
    assert_eq!(reg(&r, "r15"), 5);
    assert_eq!(reg(&r, "r16"), 3, "rsc mode 3 (eager), pl 0 at cpl 0");
    assert_eq!(reg(&r, "r17"), u64::MAX, "imm8 is sign-extended");
    let (a, b) = (reg(&r, "r18"), reg(&r, "r19"));
    assert!((0x100_0000..0x100_0100).contains(&a), "itc continues from the written value, got {a:#x}");
    assert!(b > a, "itc counts up: {a:#x} then {b:#x}");
}

/// SDM V3 mov cr, ref §0: with psr.ic = 0 (the default harness) the interruption control
/// registers can be written and read; cr.iva keeps its 32 KB-aligned part.
#[test]
fn moves_control_registers_with_ic_clear() {
    let r = run("\tmovl r2=0xa000000000012340 ;;\n\
        \tmov cr.iip=r2\n\tmov cr.ifa=r2\n\tmov cr.iim=r2 ;;\n\tmov r8=cr.iip\n\tmov r9=cr.ifa\n\tmov r10=cr.iim ;;\n\
        \tmov cr.itm=r2\n\tmovl r3=0xa000000000018000 ;;\n\tmov cr.iva=r3 ;;\n\tmov r11=cr.itm\n\tmov r14=cr.iva ;;\n\
        \tmov cr.iva=r0\n\tmov cr.ipsr=r0 ;;");
    assert_eq!(reg(&r, "r8"), 0xa000_0000_0001_2340);
    assert_eq!(reg(&r, "r9"), 0xa000_0000_0001_2340);
    assert_eq!(reg(&r, "r10"), 0xa000_0000_0001_2340);
    assert_eq!(reg(&r, "r11"), 0xa000_0000_0001_2340);
    assert_eq!(reg(&r, "r14"), 0xa000_0000_0001_8000);
}

/// ref §1 (SDM V2 §3.3.2): sum/rum change PSR{5:0}; ssm/rsm PSR{23:0}; `mov psr.l=`
/// writes PSR{31:0}; `mov r=psr` reads PSR{31:0} plus mc and it (bn, bit 44, reads 0);
/// `mov r=psr.um` reads PSR{5:0} and `mov psr.um=` writes it.
#[test]
fn moves_psr_and_system_mask() {
    let r = run("\tsum 0x4 ;;\n\tmov r8=psr.um ;;\n\trum 0x4 ;;\n\tmov r9=psr.um ;;\n\
        \tmov r2=0xa ;;\n\tmov psr.um=r2 ;;\n\tmov r10=psr.um\n\tmov r11=psr ;;\n\
        \tssm 0x20000 ;;\n\tmov r14=psr ;;\n\trsm 0x20008 ;;\n\tmov r15=psr ;;\n\
        \tmovl r3=0xffffffff00004000 ;;\n\tmov psr.l=r3 ;;\n\tmov r16=psr ;;\n\trsm 0x4000 ;;\n\tmov r17=psr ;;");
    assert_eq!(reg(&r, "r8"), 0x4, "sum psr.up");
    assert_eq!(reg(&r, "r9"), 0);
    assert_eq!(reg(&r, "r10"), 0xa, "psr.um = be|ac");
    assert_eq!(reg(&r, "r11"), 0xa, "bn is set but not readable");
    assert_eq!(reg(&r, "r14"), 0x2000a, "ssm psr.dt");
    assert_eq!(reg(&r, "r15"), 0x2, "rsm dt|ac");
    assert_eq!(reg(&r, "r16"), 0x4000, "psr.l leaves bits 63:32 alone");
    assert_eq!(reg(&r, "r17"), 0);
    assert_eq!(reg(&r, "psr") >> 44 & 1, 1, "bn survived the psr.l write");
}

// ---------------------------------------------------------------- speculation check

/// SDM V3 chk.s: branches to the recovery code when its register is NaT, falls through
/// otherwise.
#[test]
fn chk_s_branches_on_nat_only() {
    let src = wrap(&format!(
        "\tmovl r3={UNMAPPED}\n\tmov r8=0\n\tmov r9=0 ;;\n\tld8.s r2=[r3]\n\tadds r4=8,r12 ;;\n\tld8.s r5=[r4] ;;\n\
        \tchk.s r5,rec1 ;;\n\tmov r8=1 ;;\nback1:\n\tchk.s r2,rec2 ;;\n\tmov r9=99 ;;\n\tbr.cond.sptk.few out ;;\n\
        rec1:\n\tmov r8=2\n\tbr.cond.sptk.few back1 ;;\nrec2:\n\tmov r9=3 ;;\nout:\n\tnop.m 0 ;;"
    ));
    let r = run_cfg(&src, &RunConfig::default());
    assert_eq!(reg(&r, "r8"), 1, "no NaT: chk.s falls through");
    assert_eq!(reg(&r, "r9"), 3, "NaT: chk.s goes to recovery");
}

// ---------------------------------------------------------------- branches and the register stack

/// SDM V1 §4.1, ref §5: alloc sizes the frame; br.call saves CFM/EC/cpl in ar.pfs and
/// shifts the caller's outputs to r32; br.ret restores the frame, so the caller's locals
/// survive a callee that overwrites its own r32-r35.
#[test]
fn call_and_return_preserve_locals() {
    let src = "\t.text\nf:\n\talloc r34=ar.pfs,0,4,1,0 ;;\n\tmov r32=11\n\tmov r33=22\n\tmov r35=b0\n\tmov r36=5 ;;\n\
        \tmov r8=ar.bsp ;;\n\tbr.call.sptk.many b0=g ;;\n\tmov b0=r35\n\tadd r9=r32,r33\n\tmov r11=r36 ;;\n\
        \tmov r14=ar.bsp\n\tmov ar.pfs=r34 ;;\n\tbr.ret.sptk.many b0 ;;\n\
        g:\n\talloc r2=ar.pfs,1,3,0,0\n\tmov r15=ar.pfs ;;\n\tmov r16=ar.bsp\n\tadds r10=1,r32\n\tmov r33=100\n\tmov r34=200 ;;\n\
        \tmov r32=300\n\tmov ar.pfs=r2 ;;\n\tbr.ret.sptk.many b0 ;;\n";
    let r = run_cfg(src, &RunConfig::default());
    assert_eq!(reg(&r, "r9"), 33, "caller locals survive");
    assert_eq!(reg(&r, "r10"), 6, "the callee sees out0 as in0 = r32");
    assert_eq!(reg(&r, "r11"), 300, "outputs are shared with the callee's inputs");
    assert_eq!(reg(&r, "r15") & 0x3f_ffff_ffff, 5 | 4 << 7, "pfs.pfm = caller CFM (sof 5, sol 4)");
    assert_eq!(reg(&r, "r16"), reg(&r, "r8") + 32, "br.call pushes the 4 locals (sol)");
    assert_eq!(reg(&r, "r14"), reg(&r, "r8"), "br.ret pops them");
    assert_eq!(reg(&r, "cfm"), 0, "the final return restored the harness's empty frame");
}

/// SDM V2 ch. 6, ref §5: a recursion 60 deep with 8-register frames needs far more than
/// the 96 physical stacked registers, so the RSE spills to the backing store (with NaT
/// collections every 63 slots) and fills on return; every frame's values and NaT bits
/// come back intact.
#[test]
fn deep_recursion_spills_and_fills_through_backing_store() {
    let src = format!(
        "\t.text\nf:\n\talloc r32=ar.pfs,0,2,1,0\n\tmovl r3={UNMAPPED} ;;\n\tmov r33=b0\n\tmov r34=60\n\tmov r10=0\n\tmov r8=0 ;;\n\
        \tmov r20=ar.bsp ;;\n\tbr.call.sptk.many b0=rec ;;\n\tmov r21=ar.bsp\n\tmov ar.pfs=r32\n\tmov b0=r33\n\tmovl r25=0x71000028 ;;\n\tld8 r25=[r25] ;;\n\
        \tbr.ret.sptk.many b0 ;;\n\
        rec:\n\talloc r33=ar.pfs,1,6,1,0 ;;\n\tmov r34=b0\n\tshladd r35=r32,1,r32\n\tld8.s r36=[r3]\n\tadds r37=1000,r32 ;;\n\
        \tmov r38=ar.bsp\n\tcmp.eq p6,p7=0,r32 ;;\n\t(p6) br.cond.dpnt.few rec_out ;;\n\
        \tadds r39=-1,r32\n\tmov r11=ar.bsp\n\tmov r23=ar.bspstore ;;\n\tcmp.ltu p8,p0=r22,r11\n\tcmp.ltu p9,p0=r24,r23 ;;\n\t(p8) mov r22=r11\n\t(p9) mov r24=r23\n\
        \tbr.call.sptk.many b0=rec ;;\n\
        \tshladd r9=r32,1,r32 ;;\n\tcmp.ne p8,p0=r9,r35 ;;\n\t(p8) adds r10=1,r10\n\tadds r9=1000,r32 ;;\n\
        \tcmp.ne p8,p0=r9,r37 ;;\n\t(p8) adds r10=1,r10\n\ttnat.z p8,p0=r36 ;;\n\t(p8) adds r10=1,r10\n\
        \tmov r9=ar.bsp ;;\n\tcmp.ne p8,p0=r9,r38 ;;\n\t(p8) adds r10=1,r10\n\tadd r8=r8,r35 ;;\n\
        rec_out:\n\tmov ar.pfs=r33\n\tmov b0=r34 ;;\n\tbr.ret.sptk.many b0 ;;\n"
    );
    let r = run_cfg(&src, &RunConfig::default());
    assert_eq!(reg(&r, "r10"), 0, "no frame lost a value, a NaT or its bsp");
    assert_eq!(reg(&r, "r8"), 3 * (60 * 61 / 2), "sum of 3n over n = 1..60");
    let base = 0x7100_0000u64;
    assert_eq!(reg(&r, "r20"), base, "the harness starts bsp at the rbs region");
    assert_eq!(reg(&r, "r21"), reg(&r, "r20"), "bsp is back after 61 returns");
    // 61 frames of 7 locals + the entry's 2: well past 96 registers and past several
    // NaT collection slots (every 64th doubleword).
    let deepest = reg(&r, "r22");
    assert!(deepest > base + 8 * 400, "frames went deep into the backing store: {deepest:#x}");
    let spilled = reg(&r, "r24");
    assert!(spilled >= deepest - 8 * 100, "at most 96 registers stayed in the file: bspstore reached {spilled:#x}");
    assert_eq!(reg(&r, "r25"), 180, "the n = 60 frame's r35 (3n) sits in the backing store at its slot");
}

/// SDM V3 br.cloop: decrements ar.lc and branches while it was non-zero; lc = 9 runs the
/// body 10 times and leaves lc = 0.
#[test]
fn br_cloop_counts_with_lc() {
    let src =
        wrap("\tmov ar.lc=9\n\tmov r8=0 ;;\nloop:\n\tadds r8=1,r8\n\tbr.cloop.sptk.few loop ;;\n\tmov r9=ar.lc ;;");
    let r = run_cfg(&src, &RunConfig::default());
    assert_eq!(reg(&r, "r8"), 10);
    assert_eq!(reg(&r, "r9"), 0);
}

/// SDM V3 cover/flushrs/loadrs, rfi; ref §3, §5: cover (with psr.ic = 0) puts the frame in
/// the dirty partition, saves it in cr.ifs with v = 1 and empties the CFM; flushrs writes
/// the dirty registers to the backing store (bspstore = bsp); loadrs with rsc.loadrs = 40
/// makes those 5 registers dirty again (bspstore = bsp - 40); rfi with ifs.v = 1 restores
/// the frame with its values.
#[test]
fn cover_flushrs_loadrs_and_rfi_restore_the_frame() {
    let src =
        "\t.text\nf:\n\talloc r32=ar.pfs,0,5,0,0\n\tmov r2=b0 ;;\n\tmov r33=0x33\n\tmov r36=0x36\n\tmov r8=ar.bsp ;;\n\
        \tcover ;;\n\tmov r9=ar.bsp\n\tmov r10=cr.ifs ;;\n\tflushrs ;;\n\tmov r11=ar.bspstore ;;\n\
        \tmovl r3=0x280000 ;;\n\tmov ar.rsc=r3 ;;\n\tloadrs ;;\n\tmov r15=ar.bspstore\n\tmov r16=ar.bsp\n\
        \tmov ar.rsc=r0\n\tmovl r4=back\n\tmovl r5=0x100000000000 ;;\n\tmov cr.iip=r4\n\tmov cr.ipsr=r5 ;;\n\trfi ;;\n\
        back:\n\tadd r17=r33,r36\n\tmov r18=ar.bsp\n\tmov ar.pfs=r32\n\tmov b0=r2 ;;\n\tbr.ret.sptk.many b0 ;;\n";
    let r = run_cfg(src, &RunConfig { stop_on_rfi: false, ..RunConfig::default() });
    let bsp0 = reg(&r, "r8");
    assert_eq!(reg(&r, "r9"), bsp0 + 40, "cover pushes sof = 5 registers");
    assert_eq!(reg(&r, "r10"), 1 << 63 | 5 | 5 << 7, "ifs = v | old CFM");
    assert_eq!(reg(&r, "r11"), bsp0 + 40, "flushrs: bspstore = bsp");
    assert_eq!(reg(&r, "r15"), bsp0, "loadrs: bspstore = bsp - rsc.loadrs");
    assert_eq!(reg(&r, "r16"), bsp0 + 40, "loadrs leaves bsp");
    assert_eq!(reg(&r, "r17"), 0x69, "rfi restored the frame from cr.ifs with its values");
    assert_eq!(reg(&r, "r18"), bsp0, "rfi popped the covered frame");
}

/// ref §7 (SDM V3 bsw): GR16-31 exist twice; bsw.0/bsw.1 select a bank and each bank keeps
/// its own values and NaT bits; other registers are shared.
#[test]
fn bsw_banks_keep_separate_values() {
    let src = format!(
        "\tmov r16=1\n\tmov r31=31\n\tmovl r3={UNMAPPED} ;;\n\tbsw.0 ;;\n\tmov r16=2\n\tld8.s r17=[r3]\n\tmov r31=0 ;;\n\
        \tmov r8=r16\n\tmov r2=r31 ;;\n\tbsw.1 ;;\n\tmov r9=r16\n\tmov r14=r31\n\ttnat.nz p6,p7=r17 ;;\n\
        \tbsw.0 ;;\n\tmov r10=r16\n\ttnat.nz p8,p9=r17 ;;\n\tbsw.1 ;;\n\tmov r11=r16 ;;"
    );
    let r = run(&src);
    assert_eq!(reg(&r, "r8"), 2, "bank 0 value");
    assert_eq!(reg(&r, "r9"), 1, "bank 1 kept its value");
    assert_eq!(reg(&r, "r14"), 31);
    assert_eq!(reg(&r, "r10"), 2, "bank 0 again");
    assert_eq!(reg(&r, "r11"), 1);
    assert!(!p(&r, 6) && p(&r, 7), "bank 1 r17 has no NaT");
    assert!(p(&r, 8) && !p(&r, 9), "bank 0 r17 kept its NaT");
    assert_eq!(reg(&r, "psr") >> 44 & 1, 1, "ends in bank 1");
}

// ---------------------------------------------------------------- interruptions

/// The default harness's regions and registers, to which a test adds its own lines.
const BASE_HARNESS: &str = r#"
[[region]]
name = "stack"
base = "0x70000000"
size = "0x10000"
perms = "rw"

[[region]]
name = "rbs"
base = "0x71000000"
size = "0x10000"
perms = "rw"
"#;

/// A harness: [`BASE_HARNESS`], then `top` lines (entry/cpl/psr), then registers.
fn harness_text(top: &str, registers: &str) -> String {
    format!(
        "{top}\n{BASE_HARNESS}\n[registers]\nr12 = \"stack.top-16\"\nb0 = \"sentinel\"\n\"ar.bspstore\" = \"rbs\"\n{registers}\n"
    )
}

/// An interruption vector table at `ivt` (32 KB aligned) with a break handler at +0x2c00
/// that records cr.iim/iip/ipsr/isr and psr in r9/r10/r11/r14/r15, scribbles on bank-0
/// r16, steps ipsr.ri past the break (ri 2 -> next bundle) and returns with rfi.
const IVT: &str = "\t.align 32768\nivt:\n\t.skip 0x2c00\n\
    \tmov r16=cr.iim\n\tmov r17=cr.iip\n\tmov r18=cr.ipsr\n\tmov r19=cr.isr ;;\n\
    \tmov r9=r16\n\tmov r10=r17\n\tmov r11=r18\n\tmov r14=r19\n\tmov r15=psr ;;\n\
    \textr.u r21=r18,41,2\n\tmov r16=0x5a5a ;;\n\tcmp.eq p6,p7=2,r21 ;;\n\
    \t(p6) dep r18=0,r18,41,2\n\t(p6) adds r17=16,r17\n\t(p7) adds r21=1,r21 ;;\n\
    \t(p7) dep r18=r21,r18,41,2 ;;\n\tmov cr.ipsr=r18\n\tmov cr.iip=r17 ;;\n\trfi ;;\n";

/// SDM V3 break, rfi; ref §2, §3, §7: break is a fault to iva+0x2c00 that saves
/// iip (the bundle), ipsr (the old psr with ri = the slot), iim (imm21) and isr (ei =
/// slot, code 0), then runs with ic = i = 0, cpl 0 and bank 0; the handler steps ipsr.ri
/// and rfi resumes after the break at the old cpl and bank, bank-1 r16 untouched.
#[test]
fn break_rfi_round_trip_through_the_ivt() {
    let src = format!(
        "\t.text\nf:\n\tmov r8=0\n\tmov r16=0x77 ;;\nbrk:\n\tnop.m 0\n\tbreak.i 0x1234\n\tnop.i 0 ;;\n\
        \tadds r8=1,r8\n\tmov r20=r16 ;;\n\tbr.ret.sptk.many b0 ;;\n{IVT}"
    );
    let psr = (1u64 << 44) | (1 << 13) | (1 << 14) | (3 << 32);
    let h = harness_text(&format!("psr = \"{psr:#x}\""), "\"cr.iva\" = \"ivt\"");
    let r = run_cfg(&src, &with_harness(&h));
    let brk = symbol(&src, "brk");
    assert_eq!(reg(&r, "r9"), 0x1234, "cr.iim = imm21");
    assert_eq!(reg(&r, "r10"), brk, "cr.iip = the bundle of the break");
    assert_eq!(reg(&r, "r11"), psr | 1 << 41, "cr.ipsr = old psr with ri = 1");
    assert_eq!(reg(&r, "r14"), 1 << 41, "cr.isr: ei = 1, code 0");
    assert_eq!(reg(&r, "r15") & (3 << 32 | 1 << 13 | 1 << 14), 0, "handler runs with cpl 0, ic = i = 0");
    assert_eq!(reg(&r, "r8"), 1, "execution resumed after the break");
    assert_eq!(reg(&r, "r20"), 0x77, "bank-1 r16 untouched by the bank-0 handler");
    assert_eq!(reg(&r, "psr") >> 32 & 3, 3, "rfi restored cpl 3");
    assert_eq!(r.stop, "returned to the sentinel");
}

/// The break of slot 2 resumes at the next bundle (the handler's ri 2 -> 0, iip + 16 rule,
/// ref §2), and `break.m` in slot 0 records its immediate too.
#[test]
fn break_in_slot_2_and_slot_0() {
    let src = format!(
        "\t.text\nf:\n\tmov r8=0 ;;\n\tnop.m 0\n\tnop.i 0\n\tbreak.i 0x55 ;;\n\tadds r8=1,r8\n\tmov r2=r9 ;;\n\
        brk0:\n\tbreak.m 0x66\n\tnop.i 0\n\tnop.i 0 ;;\n\tadds r8=1,r8 ;;\n\tbr.ret.sptk.many b0 ;;\n{IVT}"
    );
    let h = harness_text("psr = \"0x100000002000\"", "\"cr.iva\" = \"ivt\"");
    let r = run_cfg(&src, &with_harness(&h));
    assert_eq!(reg(&r, "r8"), 2, "both breaks returned past themselves");
    assert_eq!(reg(&r, "r2"), 0x55);
    assert_eq!(reg(&r, "r9"), 0x66);
    assert_eq!(reg(&r, "r14"), 0, "isr.ei = slot 0");
    assert_eq!(reg(&r, "r10"), symbol(&src, "brk0"), "iip = the break.m's bundle");
}

/// ref §9, §2: rsm at cpl 3 is a Privileged Operation fault: general exception vector
/// iva+0x5400, isr.code 0x10, iip at the rsm's bundle, ipsr.ri its slot, psr.cpl 0.
#[test]
fn privileged_rsm_at_cpl3_raises_general_exception() {
    let src = format!("\t.text\nf:\n\tnop.m 0 ;;\npriv:\n\tnop.m 0\n\trsm 0x4000 ;;\n\tbr.ret.sptk.many b0 ;;\n{IVT}");
    let h = harness_text("cpl = 3\npsr = \"0x100300002000\"", "\"cr.iva\" = \"ivt\"");
    let cfg = arch_ia64::run::RunConfig { stop_on_interruption: true, ..with_harness(&h) };
    let r = run_cfg(&src, &cfg);
    let ivt = symbol(&src, "ivt");
    assert!(r.stop.contains("0x5400"), "stopped at the general exception: {}", r.stop);
    assert_eq!(reg(&r, "ip"), ivt + 0x5400);
    assert_eq!(reg(&r, "cr.isr") & 0xffff, 0x10, "Privileged Operation code");
    assert_eq!(reg(&r, "cr.isr") >> 41 & 3, 1, "isr.ei = slot of rsm");
    assert_eq!(reg(&r, "cr.iip"), symbol(&src, "priv"));
    assert_eq!(reg(&r, "cr.ipsr") >> 32 & 3, 3, "ipsr keeps cpl 3");
    assert_eq!(reg(&r, "cr.ipsr") >> 41 & 3, 1, "ipsr.ri = slot of rsm");
    assert_eq!(reg(&r, "psr") >> 32 & 3, 0, "handler at cpl 0");
}

/// The same fault with no IVA is a clear error that names the instruction address.
#[test]
fn privileged_operation_without_ivt_is_an_error_with_the_address() {
    let src = "\t.text\nf:\n\tnop.m 0 ;;\npriv:\n\tnop.m 0\n\trsm 0x4000 ;;\n\tbr.ret.sptk.many b0 ;;\n";
    let h = harness_text("cpl = 3", "");
    let err = match try_run_cfg(src, &with_harness(&h)) {
        Err(RunError::Exec { error, .. }) => error,
        other => panic!("expected an execution error, got {other:?}"),
    };
    let priv_addr = symbol(src, "priv");
    match &err {
        ExecError::Unhandled { pc, slot, vector, .. } => {
            assert_eq!((*pc, *slot, *vector), (priv_addr, 1, 0x5400));
        }
        other => panic!("expected Unhandled, got {other:?}"),
    }
    let msg = err.to_string();
    assert!(msg.contains(&format!("0x{priv_addr:x}")), "message names the address: {msg}");
    assert!(msg.to_lowercase().contains("privileged"), "message names the cause: {msg}");
}

/// ref §4 (SDM V3 epc): with psr.it = 1, epc promotes to cpl 0 only inside the configured
/// gate page (harness symbols `gate`..`gate_end`), after checking pfs.ppl >= cpl; outside it
/// epc does nothing. The gate code then reads psr, a cpl-0 instruction.
#[test]
fn epc_promotes_only_in_the_gate_page() {
    let src =
        "\t.text\nf:\n\tepc ;;\n\tmov r8=ar.k6 ;;\n\tmovl r2=gate_entry ;;\n\tmov b6=r2 ;;\n\tbr.cond.sptk.few b6 ;;\n\
        \t.align 0x4000\ngate_entry:\n\tepc ;;\n\tmov r9=psr ;;\n\tbr.ret.sptk.many b0 ;;\n";
    let gate = symbol(src, "gate_entry");
    let psr = (1u64 << 44) | (1 << 36) | (3 << 32);
    let symbols = format!("[symbols]\ngate = \"{gate:#x}\"\ngate_end = \"gate+0x4000\"\n");
    let h = harness_text(&format!("psr = \"{psr:#x}\"\n"), "\"ar.pfs\" = \"0xc000000000000000\"") + &symbols;
    let r = run_cfg(src, &with_harness(&h));
    assert_eq!(reg(&r, "r9") >> 32 & 3, 0, "mov r=psr ran at cpl 0");
    assert_eq!(reg(&r, "psr") >> 32 & 3, 3, "br.ret demoted back to pfs.ppl = 3");
}

// ---------------------------------------------------------------- clock, budget

/// ref §8 (SDM V2 §3.3.4.2): ar.itc counts one tick per modelled cycle from the harness's
/// starting value; a read returns the count at the cycle it issues, so a read 20
/// instruction groups later is at least 20 higher, and no read exceeds the final cycle.
#[test]
fn itc_reads_increase_with_cycles() {
    let mut body = String::from("\tmov r8=ar.itc ;;\n");
    for _ in 0..20 {
        body.push_str("\tadds r2=1,r2 ;;\n");
    }
    body.push_str("\tmov r9=ar.itc ;;\n\tmov r10=ar.itc ;;\n");
    let h = harness_text("itc = 1000", "");
    let r = run_cfg(&wrap(&body), &with_harness(&h));
    let (a, b, c) = (reg(&r, "r8"), reg(&r, "r9"), reg(&r, "r10"));
    assert!(a >= 1000, "starts from the harness itc: {a}");
    assert!(b >= a + 20, "20 groups take at least 20 cycles: {a} -> {b}");
    assert!(c > b, "back-to-back reads still increase: {b} -> {c}");
    assert!(c <= 1000 + r.summary.cycles, "no read is later than the end of the run");
    assert_eq!(reg(&r, "ar.itc"), 1000 + r.summary.cycles, "the snapshot's itc is the final cycle");
}

/// emu-core StopWhen: running out of the instruction budget ends the run cleanly with a
/// report, not an error.
#[test]
fn budget_exhausted_is_a_clean_stop() {
    let src = wrap("\tmov r8=0 ;;\nspin:\n\tadds r8=1,r8\n\tbr.cond.sptk.few spin ;;");
    let r = run_cfg(&src, &RunConfig { max_insns: 100, ..RunConfig::default() });
    assert!(r.stop.starts_with("budget of 100 instructions exhausted at 0x"), "{}", r.stop);
    assert!(r.stop.contains(" slot "), "{}", r.stop);
    assert_eq!(r.summary.instructions, 100);
    assert!(reg(&r, "r8") >= 30, "the loop really ran: r8 = {}", reg(&r, "r8"));
}

// ---------------------------------------------------------------- error paths

/// Running past the last bundle is an error naming the address where code ran out.
#[test]
fn running_off_the_end_names_the_address() {
    let src = "\t.text\nf:\n\tmov r8=1 ;;\n";
    let end = text_end(src);
    match try_run_cfg(src, &RunConfig::default()) {
        Err(RunError::Exec { error: error @ ExecError::NoCode { pc, slot: 0 }, executed }) => {
            assert_eq!(pc, end, "the first address after the code");
            assert!(executed >= 1);
            assert!(error.to_string().contains(&format!("0x{end:x}")), "{error}");
        }
        other => panic!("expected NoCode, got {other:?}"),
    }
}

/// An instruction the core does not implement is an error naming the instruction and its
/// address — never a silent nop (issue 3: "Anything not implemented is a typed error").
#[test]
fn unimplemented_instruction_names_itself_and_its_address() {
    let src = "\t.text\nf:\n\tmov r8=1 ;;\nbad:\n\tmov r9=msr[r8] ;;\n\tbr.ret.sptk.many b0 ;;\n";
    let bad = symbol(src, "bad");
    match try_run_cfg(src, &RunConfig::default()) {
        Err(RunError::Exec { error: error @ ExecError::Unimplemented { pc, .. }, .. }) => {
            assert_eq!(pc, bad);
            let msg = error.to_string();
            assert!(msg.contains("msr"), "names the instruction: {msg}");
            assert!(msg.contains(&format!("0x{bad:x}")), "names the address: {msg}");
        }
        other => panic!("expected Unimplemented, got {other:?}"),
    }
}

/// A harness expression naming an unknown symbol fails setup with file:line:col of the
/// value.
#[test]
fn harness_unknown_region_symbol_is_located() {
    let h = "[[region]]\nname = \"stack\"\nbase = \"0x70000000\"\nsize = \"0x1000\"\nperms = \"rw\"\n\n\
        [registers]\nr12 = \"stak.top-16\"\n";
    match try_run_cfg(&wrap("\tnop.m 0 ;;"), &with_harness(h)) {
        Err(e @ RunError::Setup(_)) => {
            let msg = e.to_string();
            assert!(msg.starts_with("h.toml:8:7:"), "located at the value: {msg}");
            assert!(msg.contains("stak"), "names the symbol: {msg}");
        }
        other => panic!("expected a setup error, got {other:?}"),
    }
}

/// A harness register the architecture does not have fails setup with file:line:col.
#[test]
fn harness_unknown_register_is_located() {
    let h = "[registers]\nr12 = \"0x1000\"\nr200 = \"5\"\n";
    match try_run_cfg(&wrap("\tnop.m 0 ;;"), &with_harness(h)) {
        Err(e @ RunError::Setup(_)) => {
            let msg = e.to_string();
            assert!(msg.starts_with("h.toml:3:"), "located at the line: {msg}");
            assert!(msg.contains("r200"), "names the register: {msg}");
        }
        other => panic!("expected a setup error, got {other:?}"),
    }
}

/// ref §6: a normal store of a NaT register is a Register NaT Consumption fault
/// (vector 0x5600); without an IVA it is reported as an error at the store.
#[test]
fn store_of_nat_is_nat_consumption() {
    let src = format!(
        "\t.text\nf:\n\tmovl r3={UNMAPPED} ;;\n\tld8.s r9=[r3] ;;\nst:\n\tst8 [r12]=r9 ;;\n\tbr.ret.sptk.many b0 ;;\n"
    );
    let at = symbol(&src, "st");
    match try_run_cfg(&src, &RunConfig::default()) {
        Err(RunError::Exec { error: ExecError::Unhandled { pc, vector, .. }, .. }) => {
            assert_eq!((pc, vector), (at, 0x5600));
        }
        other => panic!("expected a NaT consumption fault, got {other:?}"),
    }
}

// ---------------------------------------------------------------- more classes

/// SDM V3 br.ctop, V1 §4.5 (modulo-scheduled loops): while lc != 0 it decrements lc, sets
/// p63 and rotates (p63 -> p16, r32+n -> r33+n); then it drains ec stages with p63 = 0;
/// the branch is taken while lc != 0 or ec > 1. lc = 3, ec = 2 runs the kernel 5 times.
#[test]
fn br_ctop_rotates_registers_and_predicates() {
    let src = wrap(
        "\talloc r14=ar.pfs,0,8,0,8\n\tmov ar.lc=3\n\tmov ar.ec=2\n\tmov r2=0\n\tmov r8=0\n\tmov r9=0 ;;\n\
        \tmov pr.rot=0x10000 ;;\nloop:\n\t(p16) mov r32=r2\n\t(p16) adds r2=1,r2\n\t(p17) add r8=r8,r33\n\
        \tadds r9=1,r9\n\tbr.ctop.sptk.few loop ;;\n\tmov r10=ar.lc\n\tmov r11=ar.ec\n\tmov r15=pr ;;\n\tmov ar.pfs=r14 ;;",
    );
    let r = run_cfg(&src, &RunConfig::default());
    assert_eq!(reg(&r, "r9"), 5, "4 iterations + 1 drain stage");
    assert_eq!(reg(&r, "r2"), 4, "stage 1 ran 4 times");
    assert_eq!(reg(&r, "r8"), 6, "stage 2 saw each stage-1 value rotated into r33");
    assert_eq!(reg(&r, "r10"), 0);
    assert_eq!(reg(&r, "r11"), 0, "the final ctop decremented ec to 0 without branching");
    assert_eq!(reg(&r, "r15") >> 16 & 3, 0, "p16 and p17 drained to 0");
}

/// SDM V3 shl/shr/shr.u with an immediate (gas pseudo-ops for dep.z and extr/extr.u) and
/// `mov r=ip` (the bundle address).
#[test]
fn immediate_shifts_and_mov_from_ip() {
    let src = wrap(
        "\tmovl r2=0x8000000000000f00 ;;\n\tshl r8=r2,4\n\tshr r9=r2,8\n\tshr.u r10=r2,8\n\tshl r11=r2,63 ;;\n\
        here:\n\tmov r14=ip ;;",
    );
    let r = run_cfg(&src, &RunConfig::default());
    assert_eq!(reg(&r, "r8"), 0xf000);
    assert_eq!(reg(&r, "r9"), 0xff80_0000_0000_000f);
    assert_eq!(reg(&r, "r10"), 0x0080_0000_0000_000f);
    assert_eq!(reg(&r, "r11"), 0);
    assert_eq!(reg(&r, "r14"), symbol(&src, "here"));
}

/// ref §4: epc outside the gate page with psr.it = 1 does nothing, so a following
/// privileged instruction still faults at cpl 3.
#[test]
fn epc_outside_the_gate_does_not_promote() {
    let src = "\t.text\nf:\n\tepc ;;\npriv:\n\trsm 0x4000 ;;\n\tbr.ret.sptk.many b0 ;;\n\t.align 0x4000\ngate_entry:\n\tepc ;;\n";
    let psr = (1u64 << 44) | (1 << 36) | (3 << 32);
    let h = harness_text(&format!("psr = \"{psr:#x}\""), "\"ar.pfs\" = \"0xc000000000000000\"")
        + "[symbols]\ngate = \"gate_entry\"\ngate_end = \"gate_entry+0x4000\"\n";
    match try_run_cfg(src, &with_harness(&h)) {
        Err(RunError::Exec { error: ExecError::Unhandled { pc, vector: 0x5400, .. }, .. }) => {
            assert_eq!(pc, symbol(src, "priv"));
        }
        other => panic!("expected a privileged operation fault, got {other:?}"),
    }
}

/// ref §4 (SDM V3 epc): epc with pfs.ppl below the current privilege level is an Illegal
/// Operation fault even inside the gate page.
#[test]
fn epc_with_low_pfs_ppl_is_illegal() {
    let src = "\t.text\nf:\n\tepc ;;\n\tbr.ret.sptk.many b0 ;;\n";
    let psr = (1u64 << 44) | (1 << 36) | (3 << 32);
    let h = harness_text(&format!("psr = \"{psr:#x}\""), "\"ar.pfs\" = \"0\"")
        + "[symbols]\ngate = \"f\"\ngate_end = \"f+0x4000\"\n";
    match try_run_cfg(src, &with_harness(&h)) {
        Err(RunError::Exec { error: ExecError::Unhandled { vector: 0x5400, what, .. }, .. }) => {
            assert!(what.to_lowercase().contains("illegal"), "{what}");
        }
        other => panic!("expected an illegal operation fault, got {other:?}"),
    }
}

/// ref §9: writing ar.k0-7 at cpl 3 is a Privileged Register fault (0x5400, isr.code
/// 0x20), while reading them is allowed.
#[test]
fn ar_k_write_at_cpl3_is_privileged_register() {
    let src = format!("\t.text\nf:\n\tmov r8=ar.k6 ;;\nw:\n\tmov ar.k6=r8 ;;\n\tbr.ret.sptk.many b0 ;;\n{IVT}");
    let h = harness_text("psr = \"0x100300002000\"", "\"cr.iva\" = \"ivt\"\n\"ar.k6\" = \"0x1234\"");
    let cfg = RunConfig { stop_on_interruption: true, ..with_harness(&h) };
    let r = run_cfg(&src, &cfg);
    assert_eq!(reg(&r, "r8"), 0x1234, "reading ar.k6 at cpl 3 works");
    assert_eq!(reg(&r, "cr.isr") & 0xff, 0x20, "Privileged Register code");
    assert_eq!(reg(&r, "cr.iip"), symbol(&src, "w"));
    assert_eq!(reg(&r, "ip"), symbol(&src, "ivt") + 0x5400);
}

/// ref §0: moving to an interruption control register while psr.ic = 1 is an Illegal
/// Operation fault (general exception, isr.code 0).
#[test]
fn mov_to_interruption_cr_with_ic_set_is_illegal() {
    let src = format!("\t.text\nf:\nw:\n\tmov cr.iip=r0 ;;\n\tbr.ret.sptk.many b0 ;;\n{IVT}");
    let h = harness_text("psr = \"0x100000002000\"", "\"cr.iva\" = \"ivt\"");
    let cfg = RunConfig { stop_on_interruption: true, ..with_harness(&h) };
    let r = run_cfg(&src, &cfg);
    assert_eq!(reg(&r, "ip"), symbol(&src, "ivt") + 0x5400);
    assert_eq!(reg(&r, "cr.isr") & 0xff, 0, "Illegal Operation code");
    assert_eq!(reg(&r, "cr.iip"), symbol(&src, "w"));
}

/// SDM V3 fma (with f0/f1 operands it multiplies or adds: the fmpy/fadd identities), ldfd/stfd and
/// ldfs/stfs, getf.s/setf.s: double and single memory formats convert to and from the
/// register format; 2.5 * 4.0 + 1.0 = 11.0.
#[test]
fn fp_arithmetic_and_memory_formats() {
    let r = run("\tmovl r2=0x4004000000000000\n\tmovl r3=0x4010000000000000 ;;\n\tsetf.d f6=r2\n\tsetf.d f7=r3 ;;\n\
        \tfma.d f8=f6,f7,f1\n\tfma.d f9=f6,f7,f0\n\tfma.d f10=f6,f1,f1 ;;\n\
        \tgetf.d r8=f8\n\tgetf.d r9=f9\n\tgetf.d r10=f10\n\tadds r4=-512,r12 ;;\n\
        \tstfd [r4]=f8 ;;\n\tld8 r11=[r4]\n\tldfd f11=[r4] ;;\n\tgetf.d r14=f11\n\
        \tstfs [r4]=f1 ;;\n\tld4 r15=[r4]\n\tldfs f12=[r4] ;;\n\tgetf.s r16=f12\n\
        \tmovl r5=0x40400000 ;;\n\tsetf.s f13=r5 ;;\n\tgetf.d r17=f13\n\tmf\n\tsrlz.d ;;");
    assert_eq!(reg(&r, "r8"), 0x4026_0000_0000_0000, "11.0");
    assert_eq!(reg(&r, "r9"), 0x4024_0000_0000_0000, "10.0");
    assert_eq!(reg(&r, "r10"), 0x400c_0000_0000_0000, "3.5");
    assert_eq!(reg(&r, "r11"), 0x4026_0000_0000_0000, "stfd stores the IEEE double");
    assert_eq!(reg(&r, "r14"), 0x4026_0000_0000_0000, "ldfd reads it back");
    assert_eq!(reg(&r, "r15"), 0x3f80_0000, "stfs of 1.0");
    assert_eq!(reg(&r, "r16"), 0x3f80_0000, "ldfs/getf.s round trip");
    assert_eq!(reg(&r, "r17"), 0x4008_0000_0000_0000, "single 3.0 read as a double");
}
