/* Integer kernels for the differential tests: each takes up to five 64-bit arguments
 * (r2..r6) and returns a 64-bit result (r2); the harness also compares the CC. */
typedef unsigned long u64;
typedef long s64;
typedef unsigned int u32;
typedef int s32;
typedef unsigned short u16;
typedef short s16;
typedef unsigned char u8;
typedef signed char s8;

u64 f_add(u64 a, u64 b) { return a + b; }
u64 f_sub(u64 a, u64 b) { return a - b; }
s64 f_add32(s32 a, s32 b) { return (s64)(s32)(a + b); }
u64 f_mul(u64 a, u64 b) { return a * b; }
s64 f_mul32(s32 a, s32 b) { return a * b; }
u64 f_divu(u64 a, u64 b) { return b ? a / b : 0; }
u64 f_modu(u64 a, u64 b) { return b ? a % b : 0; }
s64 f_divs(s64 a, s64 b) { return (b && !(a == (s64)(1UL << 63) && b == -1)) ? a / b : 0; }
u64 f_divu32(u32 a, u32 b) { return b ? a / b : 0; }
u64 f_and(u64 a, u64 b) { return a & b; }
u64 f_or(u64 a, u64 b) { return a | b; }
u64 f_xor(u64 a, u64 b) { return a ^ b; }
u64 f_andc(u64 a, u64 b) { return a & ~b; }
u64 f_shl(u64 a, u64 b) { return a << (b & 63); }
u64 f_shr(u64 a, u64 b) { return a >> (b & 63); }
s64 f_sar(s64 a, u64 b) { return a >> (b & 63); }
u64 f_rol(u64 a, u64 b) { b &= 63; return (a << b) | (a >> ((64 - b) & 63)); }
u64 f_shl32(u32 a, u32 b) { return (u32)(a << (b & 31)); }
s64 f_sar32(s32 a, u32 b) { return a >> (b & 31); }
u64 f_bits(u64 a) { return (a >> 12) & 0xfff; }
u64 f_ins(u64 a, u64 b) { return (a & ~0xff00UL) | ((b & 0xff) << 8); }
u64 f_max(s64 a, s64 b) { return a > b ? a : b; }
u64 f_minu(u64 a, u64 b) { return a < b ? a : b; }
u64 f_max32(s32 a, s32 b) { return a > b ? a : b; }
u64 f_sel(u64 a, u64 b, u64 c) { return a == 0 ? b : c; }
s64 f_sx8(u64 a) { return (s8)a; }
s64 f_sx16(u64 a) { return (s16)a; }
s64 f_sx32(u64 a) { return (s32)a; }
u64 f_zx8(u64 a) { return (u8)a; }
u64 f_zx16(u64 a) { return (u16)a; }
u64 f_zx32(u64 a) { return (u32)a; }
s64 f_neg(s64 a) { return -a; }
s64 f_abs(s64 a) { return a < 0 ? -a : a; }
u64 f_not(u64 a) { return ~a; }
u64 f_imm(u64 a) { return a * 10 + 0x123456789UL; }
u64 f_mask(u64 a) { return a & 0xffff0000ffffUL; }
u64 f_tm(u64 a) { return (a & 0x8000) ? 7 : 9; }
u64 f_tm2(u64 a) { return (a & 0x30000) == 0x30000 ? 1 : 2; }
u64 f_loop(u64 n) { u64 s = 0; for (u64 i = 0; i < n; i++) s += i * i; return s; }
u64 f_count(u64 a) { u64 c = 0; while (a) { c += a & 1; a >>= 1; } return c; }
u64 f_cmpb(s64 a, s64 b) { if (a < b) return 1; if (a == b) return 2; return 3; }
u64 f_cmpi(s64 a) { if (a > 100) return a - 100; return a + 5; }
u64 f_cmpu32(u32 a, u32 b) { return a < b ? 11 : 22; }
u64 f_mem(u64 *p, u64 a) { p[1] = a; p[2] = p[1] + p[0]; return p[2] ^ p[3]; }
u64 f_mem32(u32 *p, s32 a) { p[1] = a; return (u64)p[0] + (s64)(s32)p[1]; }
u64 f_mem16(u16 *p, s16 *q) { p[1] = p[0] + 1; return p[1] + (s64)q[2]; }
u64 f_mem8(u8 *p, s8 *q) { p[3] = p[0] | 0x80; return p[3] + (s64)q[2]; }
u64 f_array(u64 *p, u64 i) { return p[i & 7] + p[(i + 1) & 7]; }
struct s { u64 a, b; u32 c; u16 d; u8 e; };
u64 f_struct(struct s *p, struct s *q) { *q = *p; q->e |= 1; q->d &= 0xf0; return q->a + q->c; }
u64 f_memcmp(const u64 *a, const u64 *b) { return __builtin_memcmp(a, b, 16) == 0; }
void f_clear(u64 *p) { __builtin_memset(p, 0, 32); }
u64 f_flags(u8 *p) { p[0] |= 4; p[1] &= 0xfe; p[2] ^= 0xff; return p[0] + p[1] + p[2]; }
u64 f_ns(u64 cputime) { return (cputime * 1000) >> 12; }
u64 f_udiv1000(u64 a) { return a / 1000; }
u64 f_atomic(u64 *p, u64 a) { return __atomic_fetch_add(p, a, __ATOMIC_RELAXED); }
u64 f_bool(u64 a, u64 b) { return (a < b) + (a == b) * 2; }
u64 f_hi(u64 a) { return (a >> 32) * 3; }
u64 f_carry(u64 a, u64 b, u64 c, u64 d) {
	unsigned __int128 x = ((unsigned __int128)a << 64 | b) + ((unsigned __int128)c << 64 | d);
	return (u64)(x >> 64) ^ (u64)x;
}
u64 f_mulh(u64 a, u64 b) { return (u64)(((unsigned __int128)a * b) >> 64); }
