/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The CPU-timer bookkeeping of arch/s390/kernel/entry.S (Linux 4.10/4.11; the change of seed 002
 * leaves it alone, only the lowcore offsets move), written for acctemu after
 * /work/shared/reference/s390-accounting.md. Not copied from the kernel.
 *
 * Assembled with `s390x-linux-gnu-gcc -march=z196 -c` (the preprocessor, then as); -DLOWCORE_411
 * selects the 4.11 lowcore layout (lowcore.h). The lowcore is at absolute 0, so its fields are
 * addressed by displacement alone (base register 0), as in the kernel.
 *
 * How the entry points stand for the real entry code. Each is called like a C function (r14 the
 * return address, r15 the stack with the caller's 160-byte save area), so a scenario can run
 * them one at a time and stop at the return sentinel:
 *
 *   syscall_entry_bookkeeping   system_call up to the hand-off to the system call: the
 *                               STPT into SYNC_ENTER_TIMER is its first instruction, r8..r15
 *                               go to the sync save area, UPDATE_VTIME always runs (an SVC
 *                               comes from user state). The PSW swap of the SVC itself and the
 *                               pt_regs set-up are left out; the final LMG + BR stand for the
 *                               jump into the system call table.
 *   syscall_exit_bookkeeping    the return to user: STPT into EXIT_TIMER right before LPSWE and
 *                               the 16-byte MVC of EXIT_TIMER and USER_TIMER to the vdso
 *                               per-cpu page. LPSWE really runs: it loads the lowcore's return
 *                               PSW, whose mask the harness presets and whose address is set to
 *                               r14 here, so LPSWE is the return. The harness mask keeps the
 *                               supervisor state (the kernel's would set problem state) so that
 *                               the next path of a scenario may still run STPT.
 *   irq_entry_bookkeeping       io_int_handler / ext_int_handler up to the C handler: STCKF into
 *                               INT_CLOCK, STPT into ASYNC_ENTER_TIMER, r8..r15 to the async
 *                               save area, the I/O old PSW tested with TMHH for the problem-state
 *                               bit, and UPDATE_VTIME only when the interrupt came from user
 *                               state. ext_entry_bookkeeping is the same for the external
 *                               interrupt (its old PSW).
 *   irq_enter_path              irq_entry_bookkeeping followed by irq_enter_accounting(current)
 *                               (vtime.c): the whole irq entry as far as CPU time goes.
 *   tick_path                   the timer tick as CPU time sees it: ext_entry_bookkeeping,
 *                               irq_enter_accounting, vtime_flush (the tick's accounting) and
 *                               irq_exit_accounting, each on the current task. The old PSW
 *                               the entry tests is the one the interruption stored.
 *   irq_exit_path               irq_exit_accounting(current), then the return: to user state
 *                               through syscall_exit_bookkeeping (EXIT_TIMER, LPSWE) when the
 *                               I/O old PSW says the interrupt came from there. tick_path
 *                               returns the same way by the external old PSW.
 */
#include "lowcore.h"

/* PSW bit 15 (problem state), as TMHH sees the mask's first halfword. */
#define PSW_PROBLEM_STATE_HH 0x0001

/*
 * UPDATE_VTIME: the CPU timer counts down, so user time is EXIT - ENTER and system time is
 * LAST_UPDATE - EXIT; the entry timer becomes the new LAST_UPDATE. Nine instructions.
 */
	.macro	UPDATE_VTIME w1, w2, enter_timer
	lg	\w1, LC_EXIT_TIMER
	slg	\w1, \enter_timer
	lg	\w2, LC_LAST_UPDATE_TIMER
	slg	\w2, LC_EXIT_TIMER
	alg	\w1, LC_USER_TIMER
	alg	\w2, LC_SYSTEM_TIMER
	stg	\w1, LC_USER_TIMER
	stg	\w2, LC_SYSTEM_TIMER
	mvc	LC_LAST_UPDATE_TIMER(8), \enter_timer
	.endm

	.text

	.globl	syscall_entry_bookkeeping
	.type	syscall_entry_bookkeeping, @function
	.align	8
syscall_entry_bookkeeping:
	stpt	LC_SYNC_ENTER_TIMER
	stmg	%r8, %r15, LC_SAVE_AREA_SYNC
	UPDATE_VTIME %r10, %r11, LC_SYNC_ENTER_TIMER
	lmg	%r8, %r15, LC_SAVE_AREA_SYNC
	br	%r14
	.size	syscall_entry_bookkeeping, . - syscall_entry_bookkeeping

	.globl	syscall_exit_bookkeeping
	.type	syscall_exit_bookkeeping, @function
	.align	8
syscall_exit_bookkeeping:
	lg	%r1, LC_VDSO_PER_CPU
	stg	%r14, LC_RETURN_PSW + 8
	stpt	LC_EXIT_TIMER
	mvc	VDSO_ECTG_BASE(16, %r1), LC_EXIT_TIMER
	lpswe	LC_RETURN_PSW
	.size	syscall_exit_bookkeeping, . - syscall_exit_bookkeeping

/*
 * The asynchronous entry: TOD into INT_CLOCK (STCKF), CPU timer into ASYNC_ENTER_TIMER, then
 * the interrupted PSW's problem-state bit decides whether UPDATE_VTIME runs.
 */
	.macro	ASYNC_ENTRY old_psw
	stckf	LC_INT_CLOCK
	stpt	LC_ASYNC_ENTER_TIMER
	stmg	%r8, %r15, LC_SAVE_AREA_ASYNC
	lmg	%r8, %r9, \old_psw
	tmhh	%r8, PSW_PROBLEM_STATE_HH
	jz	1f				/* from the kernel: the C code accounts it */
	UPDATE_VTIME %r14, %r15, LC_ASYNC_ENTER_TIMER
1:	lmg	%r8, %r15, LC_SAVE_AREA_ASYNC
	br	%r14
	.endm

/*
 * The return from an asynchronous interruption: to user state through the exit bookkeeping
 * (STPT into EXIT_TIMER, the vdso copy, LPSWE), as the kernel's interrupt return does;
 * to the kernel directly.
 */
	.macro	ASYNC_RETURN old_psw
	lg	%r1, \old_psw
	tmhh	%r1, PSW_PROBLEM_STATE_HH
	jnz	syscall_exit_bookkeeping	/* back to user state */
	br	%r14
	.endm

	.globl	irq_entry_bookkeeping
	.type	irq_entry_bookkeeping, @function
	.align	8
irq_entry_bookkeeping:
	ASYNC_ENTRY LC_IO_OLD_PSW
	.size	irq_entry_bookkeeping, . - irq_entry_bookkeeping

	.globl	ext_entry_bookkeeping
	.type	ext_entry_bookkeeping, @function
	.align	8
ext_entry_bookkeeping:
	ASYNC_ENTRY LC_EXT_OLD_PSW
	.size	ext_entry_bookkeeping, . - ext_entry_bookkeeping

	.globl	irq_enter_path
	.type	irq_enter_path, @function
	.align	8
irq_enter_path:
	stmg	%r14, %r15, 112(%r15)
	lay	%r15, -160(%r15)
	brasl	%r14, irq_entry_bookkeeping
	lg	%r2, LC_CURRENT_TASK
	brasl	%r14, irq_enter_accounting
	lmg	%r14, %r15, 272(%r15)
	br	%r14
	.size	irq_enter_path, . - irq_enter_path

	.globl	tick_path
	.type	tick_path, @function
	.align	8
tick_path:
	stmg	%r14, %r15, 112(%r15)
	lay	%r15, -160(%r15)
	brasl	%r14, ext_entry_bookkeeping
	lg	%r2, LC_CURRENT_TASK
	brasl	%r14, irq_enter_accounting
	lg	%r2, LC_CURRENT_TASK
	brasl	%r14, vtime_flush
	lg	%r2, LC_CURRENT_TASK
	brasl	%r14, irq_exit_accounting
	lmg	%r14, %r15, 272(%r15)
	ASYNC_RETURN LC_EXT_OLD_PSW
	.size	tick_path, . - tick_path

	.globl	irq_exit_path
	.type	irq_exit_path, @function
	.align	8
irq_exit_path:
	stmg	%r14, %r15, 112(%r15)
	lay	%r15, -160(%r15)
	lg	%r2, LC_CURRENT_TASK
	brasl	%r14, irq_exit_accounting
	lmg	%r14, %r15, 272(%r15)
	ASYNC_RETURN LC_IO_OLD_PSW
	.size	irq_exit_path, . - irq_exit_path

	.section .note.GNU-stack, "", @progbits
