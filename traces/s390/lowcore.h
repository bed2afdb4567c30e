/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The s390 lowcore (the per-CPU page at prefix 0) as the traces see it, for entry.S and vtime.c.
 * Written for acctemu after /work/shared/reference/s390-accounting.md; not copied from the kernel.
 *
 * LOWCORE_411 selects the layout after "s390/cputime: delayed accounting of system time"
 * (Linux 4.11): GUEST_TIMER is inserted at 0x2d8 and HARDIRQ_TIMER / SOFTIRQ_TIMER follow
 * SYSTEM_TIMER, so every field from SYSTEM_TIMER on moves by 0x18 (three 8-byte fields).
 *
 * Offsets marked "reference" are the reference document's. The old PSWs are architected
 * (z/Architecture fixes them). The others are ACCTEMU'S CHOICE (GUESS): the save areas and the
 * return PSW follow the 4.10 order that ends at SYNC_ENTER_TIMER 0x2b0; current task, preempt
 * count and the vdso per-cpu pointer are placed after INT_CLOCK and move by the same 0x18 in
 * the 4.11 layout. The harnesses (harness/lowcore-4.10.toml, lowcore-4.11.toml) repeat these
 * numbers; traces/tests/s390_objects.rs checks that they agree.
 */
#ifndef ACCTEMU_S390_LOWCORE_H
#define ACCTEMU_S390_LOWCORE_H

/* Architected old PSWs (16 bytes each). */
#define LC_EXT_OLD_PSW		0x130
#define LC_SVC_OLD_PSW		0x140
#define LC_PGM_OLD_PSW		0x150
#define LC_IO_OLD_PSW		0x170

/* GUESS: the save areas for r8..r15 and the PSW LPSWE returns through. */
#define LC_SAVE_AREA_SYNC	0x200
#define LC_SAVE_AREA_ASYNC	0x240
#define LC_RETURN_PSW		0x290

/* reference: identical in both layouts. */
#define LC_SYNC_ENTER_TIMER	0x2b0
#define LC_ASYNC_ENTER_TIMER	0x2b8
#define LC_MCCK_ENTER_TIMER	0x2c0
#define LC_EXIT_TIMER		0x2c8
#define LC_USER_TIMER		0x2d0

#ifdef LOWCORE_411
#define LC_GUEST_TIMER		0x2d8	/* reference */
#define LC_SYSTEM_TIMER		0x2e0
#define LC_HARDIRQ_TIMER	0x2e8
#define LC_SOFTIRQ_TIMER	0x2f0
#define LC_STEAL_TIMER		0x2f8	/* reference */
#define LC_LAST_UPDATE_TIMER	0x300	/* reference */
#define LC_LAST_UPDATE_CLOCK	0x308	/* reference */
#define LC_INT_CLOCK		0x310
#define LC_SHIFT		0x18
#else
#define LC_SYSTEM_TIMER		0x2d8	/* reference, and the rest of this block */
#define LC_STEAL_TIMER		0x2e0
#define LC_LAST_UPDATE_TIMER	0x2e8
#define LC_LAST_UPDATE_CLOCK	0x2f0
#define LC_INT_CLOCK		0x2f8
#define LC_SHIFT		0
#endif

/* GUESS: after INT_CLOCK, moved with it. */
#define LC_CURRENT_TASK		(0x338 + LC_SHIFT)
#define LC_VDSO_PER_CPU		(0x388 + LC_SHIFT)
#define LC_PREEMPT_COUNT	(0x398 + LC_SHIFT)

/* The vdso per-cpu page: EXIT_TIMER and USER_TIMER are copied to its start (ECTG base). */
#define VDSO_ECTG_BASE		0

#endif
