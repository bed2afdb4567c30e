/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The small piece of kernel vocabulary the x86 traces share: fixed-width types, compiler
 * barriers, the irq save/restore pair as the x86-64 kernel (without PARAVIRT) spells it, and the
 * out-of-line marker for functions that live in another translation unit of the kernel.
 *
 * Written for acctemu after Linux 4.5 and the seed documents; not copied from the kernel.
 * Freestanding: no libc, no headers.
 */
#ifndef ACCTEMU_X86_KERNEL_H
#define ACCTEMU_X86_KERNEL_H

typedef unsigned char u8;
typedef unsigned int u32;
typedef int s32;
typedef unsigned long long u64;
typedef long long s64;
typedef _Bool bool;

#define true 1
#define false 0
#define NULL ((void *)0)

#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)

/* Compiler-only ordering; on x86-64 smp_wmb() is no more than this. */
#define barrier() __asm__ __volatile__("" : : : "memory")
#define smp_wmb() barrier()

#define READ_ONCE(x) (*(const volatile __typeof__(x) *)&(x))
#define WRITE_ONCE(x, v) (*(volatile __typeof__(x) *)&(x) = (v))

/*
 * A kernel function that sits in another .c file: the caller cannot inline it, clone it, or
 * assume anything about which registers it leaves alone (noipa also stops gcc's -fipa-ra).
 */
#define __tu_boundary __attribute__((noipa))

/*
 * local_irq_save: read RFLAGS through the stack, then cli. The native differential drivers
 * (native/, -DACCTEMU_NATIVE_USER) run in user mode, where cli faults: they keep the pushf/pop
 * and the popf (which leaves IF alone at CPL 3) and drop the cli, which changes no result.
 */
static inline __attribute__((always_inline)) unsigned long arch_local_irq_save(void)
{
	unsigned long flags;

	__asm__ __volatile__("pushfq ; popq %0" : "=rm"(flags) : : "memory");
#ifndef ACCTEMU_NATIVE_USER
	__asm__ __volatile__("cli" : : : "memory");
#endif
	return flags;
}

/* local_irq_restore: write the saved RFLAGS back with popf (restores IF). */
static inline __attribute__((always_inline)) void arch_local_irq_restore(unsigned long flags)
{
	__asm__ __volatile__("pushq %0 ; popfq" : : "g"(flags) : "memory", "cc");
}

#define local_irq_save(flags) ((flags) = arch_local_irq_save())
#define local_irq_restore(flags) arch_local_irq_restore(flags)

/*
 * A disabled tracepoint or static branch: the kernel leaves a 5-byte nop (nopl 0(%rax,%rax))
 * that a jump label would patch into a jmp.
 */
#define static_key_nop() __asm__ __volatile__(".byte 0x0f, 0x1f, 0x44, 0x00, 0x00")

#endif
