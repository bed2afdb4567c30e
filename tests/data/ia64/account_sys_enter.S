// account_sys_enter from seed 004 (linux-ia64, "VIRT_CPU_ACCOUNTING take 2"), ivt.S hunk
// @@ -1131: V.1 is the `-` side, V.2 (-D ACCOUNTING_V2) the `+` side. The thread_info layout
// follows the thread_info.h hunk: V.2 inserts ac_leave between ac_stamp and ac_stime.
// Offsets are placeholders for asm-offsets.c values (any consistent choice will do).
#define IA64_TASK_SIZE		3456
#define TI_AC_STAMP		96
#ifdef ACCOUNTING_V2
#define TI_AC_LEAVE		104
#define TI_AC_STIME		112
#define TI_AC_UTIME		120
#else
#define TI_AC_STIME		104
#define TI_AC_UTIME		112
#endif

// The fields as task-relative absolute symbols, so a harness names them (`task+ti_ac_stime`)
// and follows the layout this build has instead of assuming one.
ti_ac_stamp = IA64_TASK_SIZE + TI_AC_STAMP
ti_ac_stime = IA64_TASK_SIZE + TI_AC_STIME
ti_ac_utime = IA64_TASK_SIZE + TI_AC_UTIME
#ifdef ACCOUNTING_V2
ti_ac_leave = IA64_TASK_SIZE + TI_AC_LEAVE
#endif

	.text
	.global account_sys_enter
	.proc account_sys_enter
account_sys_enter:
	// mov.m r20=ar.itc is called in advance, and r13 is current
	add r16=TI_AC_STAMP+IA64_TASK_SIZE,r13
#ifdef ACCOUNTING_V2
	add r17=TI_AC_LEAVE+IA64_TASK_SIZE,r13
	;;
	ld8 r18=[r16],TI_AC_STIME-TI_AC_STAMP	// time at last check in kernel
	ld8 r19=[r17],TI_AC_UTIME-TI_AC_LEAVE	// time at left from kernel
        ;;
	ld8 r23=[r16],TI_AC_STAMP-TI_AC_STIME	// cumulated stime
	ld8 r21=[r17]				// cumulated utime
	sub r22=r19,r18				// stime before leave kernel
	;;
	st8 [r16]=r20,TI_AC_STIME-TI_AC_STAMP	// update stamp
	sub r18=r20,r19				// elapsed time in user mode
	;;
	add r23=r23,r22				// sum stime
	add r21=r21,r18				// sum utime
	;;
	st8 [r16]=r23				// update stime
	st8 [r17]=r21				// update utime
	;;
#else
	add r17=TI_AC_UTIME+IA64_TASK_SIZE,r13
	;;
	ld8 r18=[r16]			// get last stamp
	ld8 r19=[r17]			// cumulated utime
	;;
	sub r18=r20,r18			// elapsed time
	;;
	add r19=r19,r18			// sum
	;;
	st8 [r16]=r20			// update stamp
	st8 [r17]=r19			// update utime
        ;;
#endif
	br.ret.sptk.many rp
	.endp account_sys_enter

#ifndef ACCOUNTING_V2
#define IA64_KR_CURRENT		ar.k6
#define IA64_KR(n)		IA64_KR_##n
// entry.S @@ -995 (-): V.1's account_sys_leave, charging stime on the way out. In the kernel it
// runs inside ia64_leave_kernel's frame; the alloc and return around it are glue.
	.global account_sys_leave
	.proc account_sys_leave
account_sys_leave:
	alloc r2=ar.pfs,2,6,0,0			// glue
	;;
	// The size of current frame
	//	(in * 2 + loc * N (N = 8 or 12) + out * 2)
	// is enough to work, so just take care to keep in0,in1
	mov loc0=ar.itc
	mov loc1=IA64_KR(CURRENT)	// M2 (12 cycle read latency)
	;;
	add loc2=TI_AC_STAMP+IA64_TASK_SIZE,loc1
	add loc3=TI_AC_STIME+IA64_TASK_SIZE,loc1
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
	mov ar.pfs=r2			// glue
	br.ret.sptk.many rp		// glue
	;;
	.endp account_sys_leave

// Glue: a system call's worth of V.1 accounting, exit then the next entry.
	.global exit_then_entry
	.proc exit_then_entry
exit_then_entry:
	alloc r32=ar.pfs,0,2,0,0
	mov r33=b0
	br.call.sptk.many b0=account_sys_leave
	;;
	br.call.sptk.many b0=account_sys_enter
	;;
	mov b0=r33
	mov ar.pfs=r32
	br.ret.sptk.many b0
	;;
	.endp exit_then_entry
#endif
