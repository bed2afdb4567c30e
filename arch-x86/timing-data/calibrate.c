/* Measures the latency or cost of the instruction kernels the x86-64 timing model has figures
 * for, on the machine it runs on. Method (shared/reference/x86-host.md): each kernel is a loop of
 * ITER iterations whose body repeats one element UNROLL times; the loop is timed with
 * `lfence; rdtsc` ... `rdtscp; lfence`, best of REPS runs. TSC ticks are converted to core
 * cycles with a dependent `add r,r` chain, taken to cost 1 core cycle per add.
 * Run pinned: `taskset -c 1 ./calibrate` (calibrate.sh does). Output: `name value unit # note`.
 *
 * Kernels are dependent chains where a latency is wanted (each element consumes the previous
 * element's result) and back-to-back repeats where a cost (throughput) is wanted. The loop's own
 * `dec; jnz` runs beside the chain and is not subtracted (one fused uop per UNROLL elements).
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* Overridable (issue 15): on a loaded machine, short runs (-DITER=10000L) and many of them
 * (-DREPS=201) give a clean minimum where 10M-iteration runs are preempted every time. */
#ifndef ITER
#define ITER 10000000L
#endif
#ifndef REPS
#define REPS 7
#endif
#define UNROLL "10"

static inline uint64_t t_start(void)
{
	uint32_t lo, hi;
	__asm__ volatile("lfence\n\trdtsc" : "=a"(lo), "=d"(hi)::"memory");
	return ((uint64_t)hi << 32) | lo;
}

static inline uint64_t t_end(void)
{
	uint32_t lo, hi, aux;
	__asm__ volatile("rdtscp\n\tlfence" : "=a"(lo), "=d"(hi), "=c"(aux)::"memory");
	return ((uint64_t)hi << 32) | lo;
}

static uint64_t cell[8] __attribute__((aligned(64)));
static uint64_t divisor64 = 3;
static uint32_t divisor32 = 3;

/* One kernel: BODY is repeated UNROLL times inside a counted loop (r11 counts). */
#define KERNEL(fn, setup, body, clobbers...)                                         \
	static uint64_t fn(long n)                                                   \
	{                                                                            \
		uint64_t t0 = t_start();                                             \
		__asm__ volatile(setup "\n"                                          \
				 "1:\n\t.rept " UNROLL "\n" body "\n\t.endr\n"       \
				 "\tdec %%r11\n\tjnz 1b\n"                           \
				 : "+r"(n)                                           \
				 : "r"(cell), "m"(divisor64), "m"(divisor32)         \
				 : "r11", "rax", "rbx", "rcx", "rdx", "memory", "cc", \
				   ##clobbers);                                      \
		uint64_t t1 = t_end();                                               \
		return t1 - t0;                                                      \
	}

/* %0 = n, %1 = cell, %2 = divisor64, %3 = divisor32 */
#define SETUP "\tmov %0, %%r11\n\tmov $1, %%eax\n\tmov $1, %%ecx\n"
KERNEL(k_add, SETUP, "\tadd %%rcx, %%rax")
KERNEL(k_add_imm, SETUP, "\tadd $1, %%rax")
KERNEL(k_imul, SETUP, "\timul %%rcx, %%rax")
KERNEL(k_mul, SETUP, "\tmul %%rcx")
/* Division chains: the quotient is or-ed with a large constant (1 ALU cycle, subtracted) so the
 * dividend stays large; rdx is zeroed by an eliminated zero idiom. */
KERNEL(k_div32, SETUP "\tmov $0x7fff0000, %%ebx\n",
       "\txor %%edx, %%edx\n\tdivl %3\n\tor %%ebx, %%eax")
KERNEL(k_idiv32, SETUP "\tmov $0x3fff0000, %%ebx\n",
       "\txor %%edx, %%edx\n\tidivl %3\n\tor %%ebx, %%eax")
KERNEL(k_div64, SETUP "\tmov $0x7fffffffffff0000, %%rbx\n",
       "\txor %%edx, %%edx\n\tdivq %2\n\tor %%rbx, %%rax")
KERNEL(k_idiv64, SETUP "\tmov $0x3fffffffffff0000, %%rbx\n",
       "\txor %%edx, %%edx\n\tidivq %2\n\tor %%rbx, %%rax")
KERNEL(k_or, SETUP "\tmov $0x7fff0000, %%ebx\n", "\tor %%ebx, %%eax")
/* Load-use: pointer chase through cell[0], which holds its own address. */
KERNEL(k_load, SETUP "\tmov %1, %%rax\n\tmov %%rax, (%%rax)\n", "\tmov (%%rax), %%rax")
/* Store-to-load forwarding: store rax, reload it; the chain runs through memory. */
KERNEL(k_stlf, SETUP, "\tmov %%rax, 8(%1)\n\tmov 8(%1), %%rax")
KERNEL(k_rdtsc, SETUP, "\trdtsc")
KERNEL(k_rdtscp, SETUP, "\trdtscp")
KERNEL(k_lfence, SETUP, "\tlfence")
KERNEL(k_mfence, SETUP, "\tmfence")
KERNEL(k_pushf_popf, SETUP, "\tpushfq\n\tpopfq")
KERNEL(k_pushf, SETUP, "\tpushfq\n\tpop %%rdx")
KERNEL(k_call_ret, SETUP "\tjmp 3f\n2:\tret\n3:\n", "\tcall 2b")
KERNEL(k_lock_cmpxchg, SETUP, "\tlock cmpxchg %%rcx, 16(%1)")
KERNEL(k_lock_add, SETUP, "\tlock addq $1, 16(%1)")
/* issue 15: a locked RMW after a microcoded instruction (the irqsave/RCU and clock/RCU pairs) */
KERNEL(k_pushf_popf_lock, SETUP, "\tpushfq\n\tpopfq\n\tlock addq $1, 16(%1)")
KERNEL(k_rdtsc_lock, SETUP, "\trdtsc\n\tlock addq $1, 16(%1)")
KERNEL(k_cmpxchg, SETUP, "\tcmpxchg %%rcx, 16(%1)")
KERNEL(k_jmp, SETUP, "\tjmp 4f\n4:")
KERNEL(k_pause, SETUP, "\tpause")
KERNEL(k_empty, SETUP, "")

struct kernel {
	const char *name;
	uint64_t (*fn)(long);
	long iter;
	const char *note;
};

static const struct kernel kernels[] = {
	{ "add_chain", k_add, ITER, "add r64,r64 dependent (defines the ratio: 1 cycle)" },
	{ "add_imm_chain", k_add_imm, ITER, "add r64,imm dependent" },
	{ "imul_chain", k_imul, ITER, "imul r64,r64 dependent" },
	{ "mul_chain", k_mul, ITER, "mul r64 (rdx:rax) dependent through rax" },
	{ "or_chain", k_or, ITER, "or r32,r32 dependent (subtracted from div chains)" },
	{ "div32_chain", k_div32, ITER, "div m32 dependent, minus or" },
	{ "idiv32_chain", k_idiv32, ITER, "idiv m32 dependent, minus or" },
	{ "div64_chain", k_div64, ITER, "div m64 dependent, minus or" },
	{ "idiv64_chain", k_idiv64, ITER, "idiv m64 dependent, minus or" },
	{ "load_chain", k_load, ITER, "mov r64,[r64] pointer chase (L1 hit)" },
	{ "stlf_chain", k_stlf, ITER, "store then load of the same address, dependent" },
	{ "rdtsc", k_rdtsc, ITER, "rdtsc back to back (cost)" },
	{ "rdtscp", k_rdtscp, ITER, "rdtscp back to back (cost)" },
	{ "lfence", k_lfence, ITER, "lfence back to back (cost)" },
	{ "mfence", k_mfence, ITER, "mfence back to back (cost)" },
	{ "pushf_popf", k_pushf_popf, ITER, "pushfq; popfq pair (cost)" },
	{ "pushf_pop", k_pushf, ITER, "pushfq; pop r64 pair (cost)" },
	{ "call_ret", k_call_ret, ITER, "call to a lone ret, pair (cost)" },
	{ "lock_cmpxchg", k_lock_cmpxchg, ITER, "lock cmpxchg m64,r64 back to back (cost)" },
	{ "lock_add", k_lock_add, ITER, "lock add m64,imm back to back (cost)" },
	{ "pushf_popf_lock", k_pushf_popf_lock, ITER, "pushfq; popfq; lock add m64,imm (cost)" },
	{ "rdtsc_lock", k_rdtsc_lock, ITER, "rdtsc; lock add m64,imm (cost)" },
	{ "cmpxchg", k_cmpxchg, ITER, "cmpxchg m64,r64 unlocked back to back (cost)" },
	{ "jmp_taken", k_jmp, ITER, "taken jmp to the next instruction (cost)" },
	{ "pause", k_pause, ITER / 10, "pause back to back (cost)" },
	{ "empty_loop", k_empty, ITER, "dec; jnz alone, per iteration / 10" },
};

static double best_ticks(uint64_t (*fn)(long), long iter)
{
	uint64_t best = UINT64_MAX;
	for (int r = 0; r < REPS; r++) {
		uint64_t t = fn(iter);
		if (t < best)
			best = t;
	}
	return (double)best / ((double)iter * 10.0);
}

int main(void)
{
	char model[256] = "unknown";
	FILE *f = fopen("/proc/cpuinfo", "r");
	if (f) {
		char line[512];
		while (fgets(line, sizeof line, f)) {
			if (!strncmp(line, "model name", 10)) {
				char *c = strchr(line, ':');
				if (c) {
					snprintf(model, sizeof model, "%s", c + 2);
					model[strcspn(model, "\n")] = 0;
				}
				break;
			}
		}
		fclose(f);
	}
	cell[0] = (uint64_t)cell;
	double add = best_ticks(k_add, ITER);
	double ratio = 1.0 / add; /* core cycles per TSC tick */
	printf("# cpu %s\n", model);
	printf("tsc_ticks_per_add %.4f ticks\n", add);
	printf("core_cycles_per_tsc_tick %.4f ratio\n", ratio);
	double or_cycles = best_ticks(k_or, ITER) * ratio;
	for (size_t i = 0; i < sizeof kernels / sizeof kernels[0]; i++) {
		const struct kernel *k = &kernels[i];
		double c = best_ticks(k->fn, k->iter) * ratio;
		if (strstr(k->note, "minus or"))
			c -= or_cycles;
		printf("%s %.2f cycles # %s\n", k->name, c, k->note);
	}
	printf("cli_sti n/a cycles # cli/sti fault (#GP) at CPL 3 with IOPL 0: not measurable in user mode\n");
	return 0;
}
