/* RFLAGS exactness: each function sets the status flags to `fin`, runs one instruction on
 * its operands, and returns RFLAGS after it; the result goes to `flag_res`. Compiled with
 * -mno-red-zone because the asm pushes below the stack pointer. */
#include <stdint.h>

typedef uint64_t u64;
typedef uint32_t u32;
typedef uint16_t u16;
typedef uint8_t u8;

u64 flag_res;

#define OP2(name, insn, T)                                                                              \
	u64 name(u64 a, u64 b, u64 fin)                                                                  \
	{                                                                                                \
		T x = (T)a;                                                                              \
		u64 f;                                                                                   \
		__asm__ volatile("pushq %3\n\tpopfq\n\t" insn " %2, %0\n\tpushfq\n\tpopq %1"          \
				 : "+r"(x), "=&r"(f)                                                     \
				 : "r"((T)b), "r"(fin)                                                   \
				 : "cc");                                                                \
		flag_res = (u64)x;                                                               \
		return f;                                                                        \
	}

#define OP1(name, insn, T)                                                                              \
	u64 name(u64 a, u64 b, u64 fin)                                                                  \
	{                                                                                                \
		T x = (T)a;                                                                              \
		u64 f;                                                                                   \
		(void)b;                                                                                 \
		__asm__ volatile("pushq %2\n\tpopfq\n\t" insn " %0\n\tpushfq\n\tpopq %1"              \
				 : "+r"(x), "=&r"(f)                                                     \
				 : "r"(fin)                                                              \
				 : "cc");                                                                \
		flag_res = (u64)x;                                                               \
		return f;                                                                        \
	}

#define SHIFT(name, insn, T)                                                                            \
	u64 name(u64 a, u64 b, u64 fin)                                                                  \
	{                                                                                                \
		T x = (T)a;                                                                              \
		u64 f;                                                                                   \
		__asm__ volatile("pushq %3\n\tpopfq\n\t" insn " %%cl, %0\n\tpushfq\n\tpopq %1"        \
				 : "+r"(x), "=&r"(f)                                                     \
				 : "c"((u8)b), "r"(fin)                                                  \
				 : "cc");                                                                \
		flag_res = (u64)x;                                                               \
		return f;                                                                        \
	}

#define SHIFT3(name, insn, T)                                                                           \
	u64 name(u64 a, u64 b, u64 fin)                                                                  \
	{                                                                                                \
		T x = (T)a;                                                                              \
		u64 f;                                                                                   \
		__asm__ volatile("pushq %4\n\tpopfq\n\t" insn " %%cl, %3, %0\n\tpushfq\n\tpopq %1"   \
				 : "+r"(x), "=&r"(f)                                                     \
				 : "c"((u8)(b >> 32)), "r"((T)b), "r"(fin)                               \
				 : "cc");                                                                \
		flag_res = (u64)x;                                                               \
		return f;                                                                        \
	}

#define SIZES2(op) OP2(op##8, #op "b", u8) OP2(op##16, #op "w", u16) OP2(op##32, #op "l", u32) OP2(op##64, #op "q", u64)
#define SIZES1(op) OP1(op##8, #op "b", u8) OP1(op##16, #op "w", u16) OP1(op##32, #op "l", u32) OP1(op##64, #op "q", u64)
#define SIZESS(op) SHIFT(op##8, #op "b", u8) SHIFT(op##16, #op "w", u16) SHIFT(op##32, #op "l", u32) SHIFT(op##64, #op "q", u64)

SIZES2(add)
SIZES2(sub)
SIZES2(adc)
SIZES2(sbb)
SIZES2(and)
SIZES2(or)
SIZES2(xor)
SIZES2(cmp)
SIZES2(test)
SIZES1(neg)
SIZES1(inc)
SIZES1(dec)
SIZESS(shl)
SIZESS(shr)
SIZESS(sar)
SIZESS(rol)
SIZESS(ror)
SIZESS(rcl)
SIZESS(rcr)
OP2(imul16, "imulw", u16)
OP2(imul32, "imull", u32)
OP2(imul64, "imulq", u64)
OP2(bt16, "btw", u16)
OP2(bt32, "btl", u32)
OP2(bt64, "btq", u64)
OP2(bts64, "btsq", u64)
OP2(btr32, "btrl", u32)
OP2(bsf32, "bsfl", u32)
OP2(bsf64, "bsfq", u64)
OP2(bsr16, "bsrw", u16)
OP2(bsr64, "bsrq", u64)
OP2(popcnt32, "popcntl", u32)
OP2(popcnt64, "popcntq", u64)
OP2(tzcnt64, "tzcntq", u64)
OP2(lzcnt32, "lzcntl", u32)
SHIFT3(shld16, "shldw", u16)
SHIFT3(shld32, "shldl", u32)
SHIFT3(shld64, "shldq", u64)
SHIFT3(shrd16, "shrdw", u16)
SHIFT3(shrd32, "shrdl", u32)
SHIFT3(shrd64, "shrdq", u64)
