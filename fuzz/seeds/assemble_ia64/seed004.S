// seed004.S: the instruction lines of every + and - hunk of seed 004 (ia64 VIRT_CPU_ACCOUNTING take 2) with the kernel's symbolic names replaced by literal values (no cpp)
// Substitutions (plausible 2.6.24-era values chosen for this corpus, not taken from a real build):
//   TI_FLAGS=16  TI_AC_STAMP=96  TI_AC_LEAVE=104  TI_AC_STIME=112  TI_AC_UTIME=120
//   IA64_TASK_SIZE=3456  IA64_TASK_THREAD_ON_USTACK_OFFSET=3320
//   PT(B6)=0 PT(R9)=40 PT(CR_IPSR)=64 PT(CR_IIP)=72 PT(AR_PFS)=96 PT(AR_BSPSTORE)=120 PT(B0)=136 PT(LOADRS)=144
//   pUStk=p9  pKStk=p10  IA64_KR(CURRENT)=ar.k6
//   LOAD_PHYS_STACK_REG_SIZE(r17) -> mov r17=(96<<3): 96 physical stacked registers times 8 bytes, the value the
//   kernel patches in at boot on Itanium 2 (the real macro is a patchable mov/movl; the patch-list .xdata is omitted).
//   __kernel_syscall_via_epc stays an undefined external symbol, so movl gets a relocation.
// Sums such as TI_FLAGS+IA64_TASK_SIZE are written out as the literal sum expression (16+3456), the same text
// cpp produces for seed004_cpp.S, so the two files must assemble to identical .text.
// Lines marked "glue" are not in the patch: they supply the alloc that gives loc/in registers a frame, the
// labels that the hunks branch to, .proc/.endp and stops that separate unrelated hunks.
// labels that the hunks branch to, .proc/.endp and stops that separate unrelated hunks.

	.text
	.global __kernel_syscall_via_epc
	.global ia64_leave_syscall_v2
	.proc ia64_leave_syscall_v2
ia64_leave_syscall_v2:					// glue
	// entry.S @@ -710 (+): .work_processed_syscall, V.2
	adds r2=144+16,r12
(p9)	mov.m r22=ar.itc			// fetch time at leave
	adds r18=16+3456,r13
	;;
(p6)	ld4 r31=[r18]				// load current_thread_info()->flags
	ld8 r19=[r2],0-144		// load ar.rsc value for "loadrs"
	adds r3=120+16,r12		// deferred
	;;
	// entry.S @@ -737 (+)
(p9) add r14=104+3456,r13
	;;
	ld8 r30=[r2],16		// M0|1 load cr.ifs
	ld8 r25=[r3],16		// M0|1 load ar.unat
(p9) add r15=3320,r13
	;;
	// entry.S @@ -759 (+ then -)
(p9) st1 [r15]=r17				// M2|3
	;;						// glue
(p9) st1 [r14]=r17				// M2|3
	;;						// glue
	// entry.S @@ -775 (+)
	mov r19=ar.bsp			// M2   get new backing store pointer
	st8 [r14]=r22			// M	save time at leave
	mov f10=f0			// F    clear f10

	mov r22=r0			// A	clear r22
	movl r14=__kernel_syscall_via_epc // X
	;;
	.endp ia64_leave_syscall_v2

	.global ia64_leave_kernel_v2
	.proc ia64_leave_kernel_v2
ia64_leave_kernel_v2:					// glue
	// entry.S @@ -913 (+)
	.pred.rel.mutex p9,p10
(p10)	mov r22=psr		// M2 read PSR now that interrupts are disabled
(p9)	mov.m r22=ar.itc	// M  fetch time at leave
	nop.i 0
	;;
	// entry.S @@ -938 (+ then the following +)
(p9)	adds r3=104+3456,r18
	;;						// glue
(p9)	adds r18=3320,r18	// deferred
	;;						// glue
	//  mmi_ :  ld8 st1 shr;;         mmi_ : st8 st1 shr;;
	//  mib  :  mov add br        ->  mib  : ld8 add br
	//  bbb_ :  br  nop cover;;       mbb_ : mov br  cover;;
	//
	//  no one require bsp in r16 if (pKStk) branch is selected.
(p9)	st8 [r3]=r22		// save time at leave
(p9)	st1 [r18]=r17		// restore current->thread.on_ustack
	shr.u r18=r19,16	// get byte size of existing "dirty" partition
	;;
	ld8.fill r3=[r16]	// deferred
	mov r17=(96<<3)
(p10)	br.cond.dpnt skip_rbs_switch
	mov r16=ar.bsp		// get existing backing store pointer
	;;						// glue
skip_rbs_switch:					// glue
	br.ret.sptk.many rp				// glue
	;;						// glue
	.endp ia64_leave_kernel_v2

	.global account_sys_leave_v1
	.proc account_sys_leave_v1
account_sys_leave_v1:					// glue
	alloc r16=ar.pfs,2,6,0,0			// glue: gives in0-in1 and loc0-loc5
	;;						// glue
	// entry.S @@ -995 (-): account_sys_leave, V.1 only
account_sys_leave:
	// The size of current frame
	//	(in * 2 + loc * N (N = 8 or 12) + out * 2)
	// is enough to work, so just take care to keep in0,in1
	mov loc0=ar.itc
	mov loc1=ar.k6	// M2 (12 cycle read latency)
	;;
	add loc2=96+3456,loc1
	add loc3=112+3456,loc1
	;;
	ld8 loc4=[loc2]			// get last stamp
	ld8 loc5=[loc3]			// cumulated stime
	;;
	sub loc4=loc0,loc4		// elapsed time
	;;
	add loc5=loc5,loc4		// sum
	;;
	st8 [loc2]=loc0			// update stamp
	st8 [loc3]=loc5			// update stime
	;;
	.endp account_sys_leave_v1

	.global fsys_accounting_v2
	.proc fsys_accounting_v2
fsys_accounting_v2:					// glue
	// fsys.S @@ -689 (+): V.2
	// mov.m r30=ar.itc is called in advance
	add r16=96+3456,r2
	add r17=104+3456,r2
	;;
	ld8 r18=[r16],112-96	// time at last check in kernel
	ld8 r19=[r17],120-104	// time at leave kernel
	;;
	ld8 r20=[r16],96-112	// cumulated stime
	ld8 r21=[r17]				// cumulated utime
	sub r22=r19,r18				// stime before leave kernel
	;;
	st8 [r16]=r30,112-96	// update stamp
	sub r18=r30,r19				// elapsed time in user mode
	;;
	add r20=r20,r22				// sum stime
	add r21=r21,r18				// sum utime
	;;
	st8 [r16]=r20				// update stime
	st8 [r17]=r21				// update utime
	;;
	// fsys.S @@ -689 (-): V.1
	add r17=120+3456,r2
	;;						// glue
	ld8 r18=[r16]			// get last stamp
	ld8 r19=[r17]			// cumulated utime
	;;						// glue
	sub r18=r30,r18			// elapsed time
	;;						// glue
	add r19=r19,r18			// sum
	;;						// glue
	st8 [r16]=r30			// update stamp
	st8 [r17]=r19			// update utime
	;;
	.endp fsys_accounting_v2

	.global ivt_accounting_v2
	.proc ivt_accounting_v2
ivt_accounting_v2:					// glue
	// ivt.S @@ -841 (+): V.2
	// mov.m r30=ar.itc is called in advance, and r13 is current
	add r16=96+3456,r13	// A
	add r17=104+3456,r13	// A
(p10)	br.cond.spnt .skip_accounting		// B	unlikely skip (context line, glue)
	;;
	ld8 r18=[r16],112-96	// M  get last stamp
	ld8 r19=[r17],120-104	// M  time at leave
	;;
	ld8 r20=[r16],96-112	// M  cumulated stime
	ld8 r21=[r17]				// M  cumulated utime
	sub r22=r19,r18				// A  stime before leave
	;;
	st8 [r16]=r30,112-96	// M  update stamp
	sub r18=r30,r19				// A  elapsed time in user
	;;
	add r20=r20,r22				// A  sum stime
	add r21=r21,r18				// A  sum utime
	;;
	st8 [r16]=r20				// M  update stime
	st8 [r17]=r21				// M  update utime
	;;
.skip_accounting:					// glue (context line)
	// ivt.S @@ -841 (-): V.1
	add r17=120+3456,r13	// A
	;;						// glue
	ld8 r18=[r16]			// M  get last stamp
	ld8 r19=[r17]			// M  cumulated utime
	;;						// glue
	sub r18=r30,r18			// A  elapsed time
	;;						// glue
	add r19=r19,r18			// A  sum
	;;						// glue
	st8 [r16]=r30			// M  update stamp
	st8 [r17]=r19			// M  update utime
	;;
	.endp ivt_accounting_v2

	// ivt.S @@ -1131 (+): account_sys_enter, V.2, as its own procedure
	.global account_sys_enter
	.proc account_sys_enter
account_sys_enter:
	// mov.m r20=ar.itc is called in advance, and r13 is current
	add r16=96+3456,r13
	add r17=104+3456,r13
	;;
	ld8 r18=[r16],112-96	// time at last check in kernel
	ld8 r19=[r17],120-104	// time at left from kernel
        ;;
	ld8 r23=[r16],96-112	// cumulated stime
	ld8 r21=[r17]				// cumulated utime
	sub r22=r19,r18				// stime before leave kernel
	;;
	st8 [r16]=r20,112-96	// update stamp
	sub r18=r20,r19				// elapsed time in user mode
	;;
	add r23=r23,r22				// sum stime
	add r21=r21,r18				// sum utime
	;;
	st8 [r16]=r23				// update stime
	st8 [r17]=r21				// update utime
	;;
	br.ret.sptk.many rp
	.endp account_sys_enter

	// ivt.S @@ -1131 (-): account_sys_enter, V.1
	.global account_sys_enter_v1
	.proc account_sys_enter_v1
account_sys_enter_v1:					// glue
	add r17=120+3456,r13
	;;
	ld8 r18=[r16]			// get last stamp
	ld8 r19=[r17]			// cumulated utime
	;;						// glue
	sub r18=r20,r18			// elapsed time
	;;						// glue
	add r19=r19,r18			// sum
	;;						// glue
	st8 [r16]=r20			// update stamp
	st8 [r17]=r19			// update utime
        ;;
	br.ret.sptk.many rp				// glue
	.endp account_sys_enter_v1
