/* Differential test functions for the x86-64 core (arch-x86/tests/differential.rs).
 * Every function takes three 64-bit arguments and returns a 64-bit value, so one driver
 * calls them all; each exercises an instruction family gcc -O2 emits. Globals are set from
 * the arguments before use so that every call is independent of the calls before it. */
#include <stdint.h>

typedef uint64_t u64;
typedef int64_t s64;
typedef uint32_t u32;
typedef int32_t s32;
typedef uint16_t u16;
typedef int16_t s16;
typedef uint8_t u8;
typedef int8_t s8;
typedef unsigned __int128 u128;
typedef __int128 s128;

#define NOINLINE __attribute__((noinline))

u64 g_value;
static u64 g_counter;
u64 g_table[8];

/* add/adc, sub/sbb through 128-bit arithmetic */
u64 add_carry(u64 a, u64 b, u64 c) { u128 x = (((u128)a << 64) | b) + (((u128)b << 64) | c); return (u64)(x >> 64) ^ (u64)x; }
u64 sub_borrow(u64 a, u64 b, u64 c) { u128 x = (((u128)a << 64) | b) - (((u128)c << 64) | a); return (u64)(x >> 64) * 3 + (u64)x; }
u64 carry_out(u64 a, u64 b, u64 c) { u64 r; return __builtin_add_overflow(a, b, &r) + 2 * __builtin_sub_overflow(b, c, &r) + 4 * __builtin_mul_overflow((s64)a, (s64)c, (s64 *)&r); }

/* 8/16/32-bit operations and extensions */
u64 ops8(u64 a, u64 b, u64 c) { u8 x = a, y = b; x = x + y; x ^= (u8)c; x = x * 3; return x | ((u64)(s8)(x - y) << 8) | ((u64)(u8)(y >> 3) << 24); }
u64 ops16(u64 a, u64 b, u64 c) { u16 x = a, y = b; x = (u16)(x - y) | (u16)c; return (u64)(s64)(s16)(x + 7) ^ ((u64)(u16)(y * x) << 20); }
u64 ops32(u64 a, u64 b, u64 c) { s32 x = a, y = b; x = x * 7 - y; x ^= (s32)c >> 3; return (u64)(s64)x + (u32)(y << 2); }
u64 ext_all(u64 a, u64 b, u64 c) { return (u64)(s64)(s8)a + (u64)(s64)(s16)b + (u64)(s64)(s32)c + (u8)a + (u16)b + (u32)c; }
u64 neg_not(u64 a, u64 b, u64 c) { return (-a) ^ (~b) ^ (u64)(-(s32)c) ^ (u64)(u16)~(u16)a; }
u64 incdec(u64 a, u64 b, u64 c) { u64 n = 0; while (b-- > 0 && n < 20) { n++; a += c; } return a + n; }

/* shifts and rotates by 0..63 */
u64 shl64(u64 a, u64 b, u64 c) { (void)c; return a << (b & 63); }
u64 shr64(u64 a, u64 b, u64 c) { (void)c; return a >> (b & 63); }
u64 sar64(u64 a, u64 b, u64 c) { (void)c; return (u64)((s64)a >> (b & 63)); }
u64 shl32(u64 a, u64 b, u64 c) { (void)c; return (u32)a << (b & 31); }
u64 sar32(u64 a, u64 b, u64 c) { (void)c; return (u64)(s64)((s32)a >> (b & 31)); }
u64 shr16(u64 a, u64 b, u64 c) { (void)c; return (u16)((u16)a >> (b & 15)); }
u64 sar8(u64 a, u64 b, u64 c) { (void)c; return (u8)((s8)a >> (b & 7)); }
u64 shift_imm(u64 a, u64 b, u64 c) { return (a << 13) ^ (b >> 7) ^ (u64)((s64)c >> 61) ^ ((u32)a >> 1); }
u64 rol64(u64 a, u64 b, u64 c) { unsigned n = b & 63; (void)c; return (a << n) | (a >> ((64 - n) & 63)); }
u64 ror64(u64 a, u64 b, u64 c) { unsigned n = b & 63; (void)c; return (a >> n) | (a << ((64 - n) & 63)); }
u64 rol32(u64 a, u64 b, u64 c) { u32 x = a; unsigned n = b & 31; (void)c; return (x << n) | (x >> ((32 - n) & 31)); }
u64 ror16(u64 a, u64 b, u64 c) { u16 x = a; unsigned n = b & 15; (void)c; return (u16)((x >> n) | (x << ((16 - n) & 15))); }
u64 rol8(u64 a, u64 b, u64 c) { u8 x = a; unsigned n = b & 7; (void)c; return (u8)((x << n) | (x >> ((8 - n) & 7))); }
u64 rot_imm(u64 a, u64 b, u64 c) { return ((a << 17) | (a >> 47)) ^ (u32)(((u32)b >> 5) | ((u32)b << 27)) ^ c; }

/* bit tests, scans, popcnt */
u64 bt_test(u64 a, u64 b, u64 c) { return (a & (1ULL << (b & 63))) ? c : ~c; }
u64 bts_btr(u64 a, u64 b, u64 c) { a |= 1ULL << (b & 63); a &= ~(1ULL << (c & 63)); return a ^ (1ULL << ((b + c) & 63)); }
u64 bsf_bsr(u64 a, u64 b, u64 c) { (void)c; return (a ? (u64)__builtin_ctzll(a) : 99) | ((b ? (u64)__builtin_clzll(b) : 99) << 8) | ((u32)a ? (u64)__builtin_ctz((u32)a) << 16 : 0); }
__attribute__((target("popcnt"))) u64 popcnt_all(u64 a, u64 b, u64 c) { return __builtin_popcountll(a) + 100 * __builtin_popcount((u32)b) + 10000 * __builtin_popcount((u16)c); }
__attribute__((target("lzcnt,bmi"))) u64 lzcnt_tzcnt(u64 a, u64 b, u64 c) { (void)c; return __builtin_ia32_lzcnt_u64(a) + 128 * __builtin_ia32_tzcnt_u64(b) + 16384 * __builtin_ia32_lzcnt_u32((u32)b); }

/* multiplication and division of every size */
u64 mul_hi(u64 a, u64 b, u64 c) { return (u64)(((u128)a * b) >> 64) + c; }
u64 imul_hi(u64 a, u64 b, u64 c) { return (u64)(((s128)(s64)a * (s64)b) >> 64) ^ c; }
u64 imul_forms(u64 a, u64 b, u64 c) { return a * b + (u64)((s32)a * (s32)c) + c * 12345 + (u64)(s64)(s16)((s16)a * (s16)b); }
u64 mul32(u64 a, u64 b, u64 c) { return (u64)(u32)a * (u32)b + (u64)(s64)(s32)a * (s32)c; }
u64 mul8(u64 a, u64 b, u64 c) { (void)c; return (u16)((u8)a * (u8)b); }
u64 div64(u64 a, u64 b, u64 c) { return b ? a / b + 1000 * (a % b) + c : 0; }
u64 idiv64(u64 a, u64 b, u64 c) { s64 x = a, y = b; if (!y || (x == INT64_MIN && y == -1)) return c; return (u64)(x / y) ^ (u64)(x % y) << 1; }
u64 div32(u64 a, u64 b, u64 c) { u32 x = a, y = b; (void)c; return y ? (u64)(x / y) << 32 | (x % y) : 1; }
u64 idiv32(u64 a, u64 b, u64 c) { s32 x = a, y = b; (void)c; if (!y || (x == INT32_MIN && y == -1)) return 2; return (u64)(s64)(x / y) + (u64)(s64)(x % y) * 7; }
u64 div16(u64 a, u64 b, u64 c) { u16 x = a, y = b; (void)c; return y ? (u64)(x / y) << 16 | (x % y) : 3; }
u64 idiv16(u64 a, u64 b, u64 c) { s16 x = a, y = b; (void)c; if (!y) return 4; return (u64)(s64)(s16)(x / y) + (u64)(s64)(s16)(x % y); }
u64 div8(u64 a, u64 b, u64 c) { u8 x = a, y = b; (void)c; return y ? (u64)(x / y) << 8 | (x % y) : 5; }
u64 idiv8(u64 a, u64 b, u64 c) { s8 x = a, y = b; (void)c; if (!y) return 6; return (u64)(s64)(s8)(x / y) * 3 + (u64)(s64)(s8)(x % y); }
u64 div_const(u64 a, u64 b, u64 c) { return a / 1000000 + (u64)((s64)b / 7) + (u32)c % 10; }

/* setcc and cmov on signed and unsigned compares */
u64 setcc_all(u64 a, u64 b, u64 c) {
	s64 x = a, y = b;
	(void)c;
	return (a < b) | (a <= b) << 1 | (a > b) << 2 | (a >= b) << 3 | (x < y) << 4 | (x <= y) << 5 | (x > y) << 6 |
	       (x >= y) << 7 | (a == b) << 8 | (a != b) << 9 | ((s32)a < (s32)b) << 10 | ((u8)a > (u8)b) << 11 |
	       ((s16)a >= (s16)b) << 12 | (x < 0) << 13 | (__builtin_parityll(a & 0xff)) << 14;
}
u64 cmov_all(u64 a, u64 b, u64 c) {
	s64 x = a, y = b;
	u64 r = (a < b) ? c : a;
	r += (x > y) ? b : c;
	r ^= ((u32)a >= (u32)c) ? x : y;
	r += ((s32)b <= (s32)c) ? 5 : r;
	return r;
}

/* switch tables: indirect jumps through relocated tables */
u64 switch_table(u64 a, u64 b, u64 c) {
	switch (a & 15) {
	case 0: return b + 1;
	case 1: return b * 3;
	case 2: return b ^ c;
	case 3: return c - b;
	case 4: return b << 3;
	case 5: return c >> 2;
	case 6: return b | 0x100;
	case 7: return ~c;
	case 8: return b + c + 8;
	case 9: return (b & c) + 9;
	case 11: return b * c;
	case 13: return 13;
	default: return a;
	}
}

/* calls between functions, direct and through pointers */
NOINLINE u64 helper_add(u64 a, u64 b) { return a + b * 2; }
NOINLINE u64 helper_mix(u64 a, u64 b) { return (a ^ b) * 0x9e3779b97f4a7c15ULL; }
NOINLINE u64 helper_deep(u64 a, u64 b, u64 c) { return helper_add(helper_mix(a, c), b) + helper_mix(b, a); }
typedef u64 (*binop)(u64, u64);
static binop const ops_table[2] = { helper_add, helper_mix };
u64 calls(u64 a, u64 b, u64 c) { return helper_deep(a, b, c) + ops_table[c & 1](b, a) + helper_add(c, 1); }
NOINLINE u64 recurse(u64 n, u64 acc) { return n == 0 ? acc : recurse(n - 1, acc * 3 + n); }
u64 call_recursive(u64 a, u64 b, u64 c) { (void)c; return recurse(a & 31, b); }
u64 many_args_callee(u64 a, u64 b, u64 c, u64 d, u64 e, u64 f, u64 g, u64 h);
NOINLINE u64 many_args_callee(u64 a, u64 b, u64 c, u64 d, u64 e, u64 f, u64 g, u64 h) { return a + 2 * b + 3 * c + 4 * d + 5 * e + 6 * f + 7 * g + 8 * h; }
u64 many_args(u64 a, u64 b, u64 c) { return many_args_callee(a, b, c, a ^ b, b ^ c, a + c, a - b, c * 3); }

/* globals through RIP-relative relocations, memory read-modify-write */
u64 globals(u64 a, u64 b, u64 c) {
	g_value = a;
	g_counter = b;
	for (int i = 0; i < 8; i++)
		g_table[i] = c + (u64)i;
	g_value += c;
	g_counter ^= g_value;
	g_table[a & 7] += b;
	return g_value + g_counter + g_table[(b >> 3) & 7];
}

/* atomics: lock cmpxchg loop, lock xadd, xchg, lock or */
u64 atomic_max(u64 a, u64 b, u64 c) {
	g_value = a;
	u64 old = __atomic_load_n(&g_value, __ATOMIC_RELAXED);
	while (old < b && !__atomic_compare_exchange_n(&g_value, &old, b, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))
		;
	u64 prev = __atomic_fetch_add(&g_value, c, __ATOMIC_SEQ_CST);
	u64 swapped = __atomic_exchange_n(&g_counter, prev, __ATOMIC_SEQ_CST);
	__atomic_or_fetch(&g_counter, 0x10, __ATOMIC_SEQ_CST);
	__atomic_fetch_sub(&g_table[1], 3, __ATOMIC_SEQ_CST);
	(void)swapped;
	return g_value + g_counter * 5 + prev;
}
u64 atomic_bits(u64 a, u64 b, u64 c) {
	g_value = a;
	u64 was = (__atomic_fetch_or(&g_value, 1ULL << (b & 63), __ATOMIC_SEQ_CST) >> (b & 63)) & 1;
	u64 cleared = (__atomic_fetch_and(&g_value, ~(1ULL << (c & 63)), __ATOMIC_SEQ_CST) >> (c & 63)) & 1;
	return g_value + was * 2 + cleared;
}

/* pushf/pop and popf, as local_irq_save/restore do (cli/sti fault in user mode) */
u64 flags_save(u64 a, u64 b, u64 c) {
	u64 f;
	__asm__ volatile("pushfq\n\tpopq %0" : "=r"(f));
	__asm__ volatile("pushq %0\n\tpopfq" : : "r"(f) : "memory", "cc");
	return (a + b + c) ^ (f & 0x200);
}

/* lookups and loops over memory */
u64 loop_sum(u64 a, u64 b, u64 c) {
	u64 s = 0;
	for (u64 i = 0; i < (a & 63); i++)
		s += (i * b) ^ c;
	return s;
}
