// The ia64 system-call path of seed 004 ("ia64: VIRT_CPU_ACCOUNTING (accurate cpu time
// accounting) take 2", Hidetoshi Seto, linux-2.6.24-rc5) in its three versions, from one source:
//
//   no accounting   (no defines)                         the `#else` branches of the seed
//   V.1             -D CONFIG_VIRT_CPU_ACCOUNTING         the seed's `-` lines
//   V.2             -D CONFIG_VIRT_CPU_ACCOUNTING -D ACCOUNTING_V2   the seed's `+` lines
//
// Lines under `// seed 004: FILE @@ HUNK` are transcribed from the seed, context lines included,
// in the seed's order. Inside a hunk, `#ifdef ACCOUNTING_V2` / `#else` / `#endif` (each marked
// `// scaffold: +/-`) separate the `+` lines from the `-` lines. The entry.S hunks add whole
// `#ifdef CONFIG_VIRT_CPU_ACCOUNTING` blocks that exist only after the patch; V.1 is built with
// CONFIG_VIRT_CPU_ACCOUNTING but without those blocks, so here those added `#ifdef` lines read
// `#ifdef ACCOUNTING_V2` (V.2 implies CONFIG_VIRT_CPU_ACCOUNTING, checked below).
// Everything else is scaffold, marked `// scaffold`: minimal, but it runs.

// scaffold: the configurations this file knows.
#if defined(ACCOUNTING_V2) && !defined(CONFIG_VIRT_CPU_ACCOUNTING)
#error ACCOUNTING_V2 (the seed's V.2) needs CONFIG_VIRT_CPU_ACCOUNTING
#endif

// scaffold: asm-offsets values. Placeholders for what asm-offsets.c computes (any consistent
// choice will do); pt_regs follows the 2.6 layout the PT() offsets of the seed walk through.
#define IA64_TASK_SIZE				3456
#define IA64_TASK_THREAD_ON_USTACK_OFFSET	1744
#define TI_FLAGS				16
#define TIF_WORK_MASK				0x7
#define IA64_RBS_OFFSET				0x1000	/* kernel RBS, grows up from task+this */
#define IA64_STK_OFFSET				0x8000	/* kernel memory stack top */
#define IA64_NUM_PHYS_STACK_REG			96
#define __IA64_BREAK_SYSCALL			0x100000
// scaffold fields for the tick-sampling version: jiffies charged to user / system, counted in
// ticks. They sit past the seed's thread_info fields so their offsets are the same in all versions.
#define TI_TICK_UTIME				256
#define TI_TICK_STIME				264

// seed 004: include/asm-ia64/thread_info.h @@ -33 (struct thread_info) and
// arch/ia64/kernel/asm-offsets.c @@ -41: V.2 inserts `__u64 ac_leave;` after ac_stamp, so
// DEFINE(TI_AC_LEAVE, ...) appears and ac_stime/ac_utime move down by 8.
#ifdef CONFIG_VIRT_CPU_ACCOUNTING
#define TI_AC_STAMP		96	/* __u64 ac_stamp; */
#ifdef ACCOUNTING_V2	// scaffold: +
#define TI_AC_LEAVE		104	/* __u64 ac_leave; */
#define TI_AC_STIME		112	/* __u64 ac_stime; */
#define TI_AC_UTIME		120	/* __u64 ac_utime; */
#else			// scaffold: -
#define TI_AC_STIME		104	/* __u64 ac_stime; */
#define TI_AC_UTIME		112	/* __u64 ac_utime; */
#endif			// scaffold: +/-
#endif

// scaffold: the accounting fields this build keeps, as absolute symbols (task_struct-relative)
// the harnesses name in their counters (`task+ti_ac_stime`): the counters follow the layout of
// the code that runs, and a harness whose fields this build does not keep (tick counters read
// from a VIRT_CPU_ACCOUNTING build, ac_leave from V.1) is refused instead of read as zero.
// scaffold: versioned begin (differs between V.1 and V.2 without being seed lines)
#ifdef CONFIG_VIRT_CPU_ACCOUNTING
ti_ac_stamp = IA64_TASK_SIZE + TI_AC_STAMP
ti_ac_stime = IA64_TASK_SIZE + TI_AC_STIME
ti_ac_utime = IA64_TASK_SIZE + TI_AC_UTIME
#ifdef ACCOUNTING_V2
ti_ac_leave = IA64_TASK_SIZE + TI_AC_LEAVE
#endif
#else
ti_tick_utime = IA64_TASK_SIZE + TI_TICK_UTIME
ti_tick_stime = IA64_TASK_SIZE + TI_TICK_STIME
#endif
// scaffold: versioned end

// scaffold: struct pt_regs offsets (IA64_PT_REGS_*_OFFSET), as the seed's PT() uses them.
#define IA64_PT_REGS_SIZE			400
#define IA64_PT_REGS_B6_OFFSET			0
#define IA64_PT_REGS_R9_OFFSET			40
#define IA64_PT_REGS_R11_OFFSET			56
#define IA64_PT_REGS_CR_IPSR_OFFSET		64
#define IA64_PT_REGS_CR_IIP_OFFSET		72
#define IA64_PT_REGS_CR_IFS_OFFSET		80
#define IA64_PT_REGS_AR_UNAT_OFFSET		88
#define IA64_PT_REGS_AR_PFS_OFFSET		96
#define IA64_PT_REGS_AR_RSC_OFFSET		104
#define IA64_PT_REGS_AR_RNAT_OFFSET		112
#define IA64_PT_REGS_AR_BSPSTORE_OFFSET		120
#define IA64_PT_REGS_PR_OFFSET			128
#define IA64_PT_REGS_B0_OFFSET			136
#define IA64_PT_REGS_LOADRS_OFFSET		144
#define IA64_PT_REGS_R1_OFFSET			152
#define IA64_PT_REGS_R12_OFFSET			160
#define IA64_PT_REGS_R13_OFFSET			168
#define IA64_PT_REGS_AR_FPSR_OFFSET		176
#define IA64_PT_REGS_R15_OFFSET			184
#define IA64_PT_REGS_R14_OFFSET			192
#define IA64_PT_REGS_R2_OFFSET			200
#define IA64_PT_REGS_R3_OFFSET			208
#define PT(f)		(IA64_PT_REGS_##f##_OFFSET)

// scaffold: the predicates of entry.h, and helper macros the seed's lines use.
#define pLvSys		p1	/* leaving from a system call */
#define pKStk		p2	/* the interrupted context ran on the kernel stack (cpl 0) */
#define pUStk		p3	/* ... on the user stack (cpl 3) */
#define pSys		p4	/* entered by a system call */
#define pNonSys		p5	/* entered by an interruption */
#define IA64_KR_CURRENT		ar.k6
#define IA64_KR(n)		IA64_KR_##n
#define LOAD_PHYS_STACK_REG_SIZE(reg)	adds reg=IA64_NUM_PHYS_STACK_REG*8+8,r0
#define TEXT_ALIGN(n)		.align n
#define IA64_PSR_IC		(1 << 13)
#define IA64_PSR_I		(1 << 14)
#define Nregs			14

	.text

// ---------------------------------------------------------------------------------------------
// scaffold: user code (cpl 3). user_main makes a frame whose parent part is dirty at the break
// (6 locals), then calls the syscall loop with 2 outputs; the loop issues `break 0x100000` in
// slot 2, so the kernel steps cr.iip to the next bundle, user_resume.
	.proc user_main
user_main:
	alloc r32=ar.pfs,0,6,2,0	// scaffold
	adds r33=0x33,r0
	adds r34=0x34,r0
	;;
	adds r35=0x35,r0
	adds r36=0x36,r0
	adds r37=0x37,r0
	;;
	adds r38=0x38,r0
	adds r39=0x39,r0
	br.call.sptk.many b0=user_syscall
	;;
	.endp user_main

	.proc user_syscall
user_syscall:
	.mmi
	adds r15=1039,r0		// scaffold: the system call number
	nop.m 0
	break.i __IA64_BREAK_SYSCALL	// scaffold: enter the kernel
	;;
user_resume:
	.mib
	nop.m 0				// scaffold: rfi returns here
	nop.i 0
	br.sptk.many user_syscall	// scaffold: the user loop
	;;
	.endp user_syscall

// scaffold: the fsys entry as user code reaches it: a call through the gate page with b6 as
// the return, the way libc calls __kernel_syscall_via_epc.
	.proc user_fsys
user_fsys:
	adds r15=1039,r0		// scaffold
	movl r14=__kernel_syscall_via_epc
	;;
	mov b6=r14
	;;
	br.call.sptk.many b6=b6
	;;
user_fsys_resume:
	br.sptk.many user_fsys		// scaffold: the user loop
	;;
	.endp user_fsys

// ---------------------------------------------------------------------------------------------
// scaffold: the interruption vector table (cr.iva), 32 KB aligned.
	.align 32768
ivt:
	.skip 0x2c00

// scaffold: break_fault (ivt+0x2c00). Bank 0, psr.ic = psr.i = 0, cpl 0, the user frame still
// current. Reads what it will save, steps cr.ipsr.ri past the break (reference section 2),
// switches a user caller to the kernel stack and RBS, fills pt_regs, then runs the seed's
// accounting block and goes to the system call with interruption collection on.
	.proc break_fault
break_fault:
#ifdef CONFIG_VIRT_CPU_ACCOUNTING
	mov.m r30=ar.itc			// scaffold: "mov.m r30=ar.itc is called in advance"
#endif
	mov r16=IA64_KR(CURRENT)		// scaffold: current task
	mov r29=cr.ipsr
	mov r28=cr.iip
	mov r31=pr
	mov r27=ar.rsc
	mov r26=ar.pfs
	mov r25=ar.unat
	mov r21=ar.fpsr
	mov r19=b6
	;;
	mov ar.rsc=0				// scaffold: enforced lazy, so ar.bspstore may change
	extr.u r17=r29,32,2			// scaffold: ipsr.cpl
	extr.u r18=r29,41,2			// scaffold: ipsr.ri of the break
	mov r20=r1
	;;
	cmp.eq pKStk,pUStk=r0,r17		// scaffold: from cpl 0 = on the kernel stack
	cmp.eq p6,p7=2,r18
	cmp.eq pSys,pNonSys=r0,r0
	;;
(pUStk)	mov r23=ar.bspstore			// scaffold
(pUStk)	mov r24=ar.rnat
(pUStk)	adds r22=IA64_RBS_OFFSET,r16
(p6)	mov r18=0				// scaffold: ri 2 -> next bundle, slot 0
(p6)	adds r28=16,r28
(p7)	adds r18=1,r18
(pUStk)	mov r1=r16
(pKStk)	mov r1=r12
	;;
(pUStk)	mov ar.bspstore=r22			// scaffold: the user's dirty registers now belong to the kernel RBS
	dep r29=r18,r29,41,2
(pUStk)	addl r1=IA64_STK_OFFSET-IA64_PT_REGS_SIZE,r1	// scaffold: pt_regs
(pKStk)	adds r1=-IA64_PT_REGS_SIZE-16,r1
	;;
	mov r18=ar.bsp				// scaffold
	adds r2=PT(CR_IPSR),r1
	adds r3=PT(CR_IIP),r1
	;;
	st8 [r2]=r29,16				// scaffold: cr.ipsr (stepped)
	st8 [r3]=r28,16				// scaffold: cr.iip
(pUStk)	sub r18=r18,r22				// scaffold: dirty bytes
(pKStk)	mov r18=r0
	;;
	st8 [r2]=r0,16				// scaffold: cr.ifs (not used: the exit covers)
	st8 [r3]=r25,16				// scaffold: ar.unat
	shl r18=r18,16				// scaffold: loadrs
	;;
	st8 [r2]=r26,16				// scaffold: ar.pfs
	st8 [r3]=r27,16				// scaffold: ar.rsc
	mov r17=b0
	;;
	st8 [r2]=r24,16				// scaffold: ar.rnat
	st8 [r3]=r23,16				// scaffold: ar.bspstore
	;;
	st8 [r2]=r31,16				// scaffold: pr
	st8 [r3]=r17,16				// scaffold: b0
	;;
	st8 [r2]=r18,16				// scaffold: loadrs
	st8.spill [r3]=r20,16			// scaffold: r1
	;;
	st8.spill [r2]=r12,16	// scaffold: r12
	st8.spill [r3]=r13,16	// scaffold: r13
	;;
	st8 [r2]=r21				// scaffold: ar.fpsr
	st8.spill [r3]=r15			// scaffold: r15
	adds r2=PT(B6),r1
	adds r3=PT(R9),r1
	;;
	st8 [r2]=r19,PT(R11)-PT(B6)		// scaffold: b6
	st8 [r3]=r9				// scaffold: r9
	adds r17=IA64_TASK_THREAD_ON_USTACK_OFFSET,r16
	;;
	st8 [r2]=r11				// scaffold: r11
(pUStk)	st1 [r17]=r0				// scaffold: current->thread.on_ustack = 0
	adds r12=-16,r1				// scaffold: kernel sp
	mov r13=r16				// scaffold: r13 = current
	;;
// seed 004: arch/ia64/kernel/ivt.S @@ -841
#ifdef CONFIG_VIRT_CPU_ACCOUNTING
	// mov.m r30=ar.itc is called in advance, and r13 is current
	add r16=TI_AC_STAMP+IA64_TASK_SIZE,r13	// A
#ifdef ACCOUNTING_V2	// scaffold: +
	add r17=TI_AC_LEAVE+IA64_TASK_SIZE,r13	// A
#else			// scaffold: -
	add r17=TI_AC_UTIME+IA64_TASK_SIZE,r13	// A
#endif			// scaffold: +/-
(pKStk)	br.cond.spnt .skip_accounting		// B	unlikely skip
	;;
#ifdef ACCOUNTING_V2	// scaffold: +
	ld8 r18=[r16],TI_AC_STIME-TI_AC_STAMP	// M  get last stamp
	ld8 r19=[r17],TI_AC_UTIME-TI_AC_LEAVE	// M  time at leave
	;;
	ld8 r20=[r16],TI_AC_STAMP-TI_AC_STIME	// M  cumulated stime
	ld8 r21=[r17]				// M  cumulated utime
	sub r22=r19,r18				// A  stime before leave
	;;
	st8 [r16]=r30,TI_AC_STIME-TI_AC_STAMP	// M  update stamp
	sub r18=r30,r19				// A  elapsed time in user
	;;
	add r20=r20,r22				// A  sum stime
	add r21=r21,r18				// A  sum utime
	;;
	st8 [r16]=r20				// M  update stime
	st8 [r17]=r21				// M  update utime
#else			// scaffold: -
	ld8 r18=[r16]			// M  get last stamp
	ld8 r19=[r17]			// M  cumulated utime
	;;
	sub r18=r30,r18			// A  elapsed time
	;;
	add r19=r19,r18			// A  sum
	;;
	st8 [r16]=r30			// M  update stamp
	st8 [r17]=r19			// M  update utime
#endif			// scaffold: +/-
	;;
.skip_accounting:
#endif
	// scaffold: into the kernel proper: eager RSE, bank 1, interruption collection and
	// interrupts on (Linux does this after ia64_syscall_setup).
	mov ar.rsc=0x3				// scaffold
	bsw.1
	;;
	ssm IA64_PSR_IC
	;;
	srlz.i
	;;
	ssm IA64_PSR_I
	;;
	br.sptk.many syscall_dispatch		// scaffold: Linux reaches the handler by br.call b6
	;;
syscall_dispatch:
	// scaffold: the system call itself (a scenario advances the clock here): it succeeds.
	mov r8=r0
	mov r10=r0
	br.sptk.many ia64_leave_syscall
	;;
	.endp break_fault

// scaffold: the external interrupt (ivt+0x3000), used for the timer tick. Bank 0, psr.ic = 0.
// Like SAVE_MIN_WITH_COVER it covers the interrupted frame, moves a user context to the kernel
// stack and RBS, and saves what ia64_leave_kernel restores. The body stays in bank 0 with
// interruption collection off, so bank-1 registers, r4-r11, b6/b7 and f-registers are untouched.
	.align 1024
	.proc ext_interrupt
ext_interrupt:
#ifdef CONFIG_VIRT_CPU_ACCOUNTING
	mov.m r20=ar.itc			// scaffold: account_sys_enter's "called in advance"
#endif
	mov r16=IA64_KR(CURRENT)		// scaffold
	mov r29=cr.ipsr
	mov r28=cr.iip
	mov r31=pr
	mov r27=ar.rsc
	mov r26=ar.pfs
	mov r25=ar.unat
	;;
	cover					// scaffold: cr.ifs = the interrupted frame
	;;
	mov r30=cr.ifs				// scaffold
	mov ar.rsc=0
	extr.u r17=r29,32,2			// scaffold: ipsr.cpl
	mov r18=r1
	;;
	cmp.eq pKStk,pUStk=r0,r17		// scaffold
	cmp.eq pNonSys,pSys=r0,r0
	;;
(pUStk)	mov r23=ar.bspstore			// scaffold
(pUStk)	mov r24=ar.rnat
(pUStk)	adds r22=IA64_RBS_OFFSET,r16
(pUStk)	mov r1=r16
(pKStk)	mov r1=r12
	;;
(pUStk)	mov ar.bspstore=r22			// scaffold
(pUStk)	addl r1=IA64_STK_OFFSET-IA64_PT_REGS_SIZE,r1
(pKStk)	adds r1=-IA64_PT_REGS_SIZE-16,r1
	;;
	mov r17=ar.bsp				// scaffold
	adds r21=PT(CR_IPSR),r1
	;;
(pUStk)	sub r17=r17,r22				// scaffold: dirty bytes
(pKStk)	mov r17=r0
	adds r22=PT(CR_IIP),r1
	;;
	st8 [r21]=r29,16			// scaffold: cr.ipsr
	st8 [r22]=r28,16			// scaffold: cr.iip
	shl r17=r17,16				// scaffold: loadrs
	;;
	st8 [r21]=r30,16			// scaffold: cr.ifs
	st8 [r22]=r25,16			// scaffold: ar.unat
	mov r19=b0
	;;
	st8 [r21]=r26,16			// scaffold: ar.pfs
	st8 [r22]=r27,16			// scaffold: ar.rsc
	;;
	st8 [r21]=r24,16			// scaffold: ar.rnat
	st8 [r22]=r23,16			// scaffold: ar.bspstore
	;;
	st8 [r21]=r31,16			// scaffold: pr
	st8 [r22]=r19,16			// scaffold: b0
	mov r19=ar.fpsr
	;;
	st8 [r21]=r17,16			// scaffold: loadrs
	st8.spill [r22]=r18,16			// scaffold: r1
	;;
	st8.spill [r21]=r12,16	// scaffold: r12
	st8.spill [r22]=r13,16	// scaffold: r13
	;;
	st8 [r21]=r19,16			// scaffold: ar.fpsr
	st8.spill [r22]=r15,16			// scaffold: r15
	;;
	st8.spill [r21]=r14,16	// scaffold: r14
	st8.spill [r22]=r2	// scaffold: r2
	;;
	st8.spill [r21]=r3			// scaffold: r3
	adds r12=-16,r1				// scaffold
	mov r13=r16
	;;
#ifdef CONFIG_VIRT_CPU_ACCOUNTING
	// scaffold: the tick from user mode charges user time up to now (r20).
(pUStk)	br.call.sptk.many rp=account_sys_enter
	;;
#else
	// scaffold: tick sampling: the whole jiffy goes to the interrupted mode.
	adds r17=TI_TICK_UTIME+IA64_TASK_SIZE,r13
	adds r18=TI_TICK_STIME+IA64_TASK_SIZE,r13
	;;
(pKStk)	mov r17=r18
	;;
	ld8 r19=[r17]
	;;
	adds r19=1,r19
	;;
	st8 [r17]=r19
	;;
#endif
	br.sptk.many ia64_leave_kernel		// scaffold
	;;
	.endp ext_interrupt

// ---------------------------------------------------------------------------------------------
#ifdef CONFIG_VIRT_CPU_ACCOUNTING
	.proc account_sys_enter
// seed 004: arch/ia64/kernel/ivt.S @@ -1131
account_sys_enter:	// ENTRY(account_sys_enter)
	// mov.m r20=ar.itc is called in advance, and r13 is current
	add r16=TI_AC_STAMP+IA64_TASK_SIZE,r13
#ifdef ACCOUNTING_V2	// scaffold: +
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
#else			// scaffold: -
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
#endif			// scaffold: +/-
	br.ret.sptk.many rp
	.endp account_sys_enter	// END(account_sys_enter)
#endif

// ---------------------------------------------------------------------------------------------
// scaffold: ia64_leave_syscall. Entered in bank 1 with r8/r10 the result, r12 the kernel sp
// above pt_regs, r13 current, pUStk/pKStk as the entry set them.
	.proc ia64_leave_syscall
ia64_leave_syscall:
#if 1	// scaffold: the !CONFIG_PREEMPT branch
(pUStk)	rsm IA64_PSR_I				// scaffold
	cmp.eq pLvSys,p0=r0,r0			// scaffold: pLvSys=1: leave from syscall
// seed 004: arch/ia64/kernel/entry.S @@ -710
(pUStk)	cmp.eq.unc p6,p0=r0,r0		// p6 <- pUStk
#endif
.work_processed_syscall:
#ifdef ACCOUNTING_V2	// scaffold: +#ifdef CONFIG_VIRT_CPU_ACCOUNTING
	adds r2=PT(LOADRS)+16,r12
(pUStk)	mov.m r22=ar.itc			// fetch time at leave
	adds r18=TI_FLAGS+IA64_TASK_SIZE,r13
	;;
(p6)	ld4 r31=[r18]				// load current_thread_info()->flags
	ld8 r19=[r2],PT(B6)-PT(LOADRS)		// load ar.rsc value for "loadrs"
	adds r3=PT(AR_BSPSTORE)+16,r12		// deferred
	;;
#else
	adds r2=PT(LOADRS)+16,r12
	adds r3=PT(AR_BSPSTORE)+16,r12
	adds r18=TI_FLAGS+IA64_TASK_SIZE,r13
	;;						// scaffold: gap in the seed (old lines 716-717)
(p6)	ld4 r31=[r18]				// scaffold: gap in the seed
// seed 004: arch/ia64/kernel/entry.S @@ -718
	ld8 r19=[r2],PT(B6)-PT(LOADRS)		// load ar.rsc value for "loadrs"
	nop.i 0
	;;
#endif
	mov r16=ar.bsp				// M2  get existing backing store pointer
	ld8 r18=[r2],PT(R9)-PT(B6)		// load b6
(p6)	and r15=TIF_WORK_MASK,r31		// any work other than TIF_SYSCALL_TRACE?
	;;					// scaffold: gap in the seed (old lines 724-736)
	ld8 r23=[r3],PT(R11)-PT(AR_BSPSTORE)	// scaffold: load ar.bspstore
(p6)	cmp4.ne.unc p6,p0=r15,r0		// scaffold: work pending? (no such path: TI_FLAGS is 0)
	;;
	ld8 r9=[r2],PT(CR_IPSR)-PT(R9)		// scaffold: load r9
	ld8 r11=[r3],PT(CR_IIP)-PT(R11)		// scaffold: load r11
	;;
	invala					// scaffold
	rsm IA64_PSR_I | IA64_PSR_IC			// scaffold: interrupts and collection off
	cmp.eq p9,p0=r0,r0			// scaffold: p9: restore cr.ifs
// seed 004: arch/ia64/kernel/entry.S @@ -737

	ld8 r29=[r2],16		// M0|1 load cr.ipsr
	ld8 r28=[r3],16		// M0|1 load cr.iip
#ifdef ACCOUNTING_V2	// scaffold: +#ifdef CONFIG_VIRT_CPU_ACCOUNTING
(pUStk) add r14=TI_AC_LEAVE+IA64_TASK_SIZE,r13
	;;
	ld8 r30=[r2],16		// M0|1 load cr.ifs
	ld8 r25=[r3],16		// M0|1 load ar.unat
(pUStk) add r15=IA64_TASK_THREAD_ON_USTACK_OFFSET,r13
	;;
#else
	mov r22=r0		// A    clear r22
	;;
	ld8 r30=[r2],16		// M0|1 load cr.ifs
	ld8 r25=[r3],16		// M0|1 load ar.unat
(pUStk) add r14=IA64_TASK_THREAD_ON_USTACK_OFFSET,r13
	;;
#endif
	ld8 r26=[r2],PT(B0)-PT(AR_PFS)	// M0|1 load ar.pfs
(pKStk)	mov r22=psr			// M2   read PSR now that interrupts are disabled
	nop 0
	;;						// scaffold: gap in the seed (old lines 749-758)
	ld8 r21=[r2],PT(AR_RNAT)-PT(B0)		// scaffold: load b0
	ld8 r27=[r3],PT(PR)-PT(AR_RSC)		// scaffold: load ar.rsc
	mov f6=f0				// scaffold: clear f6
	;;
	ld8 r24=[r2],PT(AR_FPSR)-PT(AR_RNAT)	// scaffold: load ar.rnat
	ld8 r31=[r3],PT(R1)-PT(PR)		// scaffold: load pr
	mov f7=f0				// scaffold: clear f7
	;;
	ld8 r20=[r2],PT(R12)-PT(AR_FPSR)	// scaffold: load ar.fpsr
// seed 004: arch/ia64/kernel/entry.S @@ -759
	ld8.fill r1=[r3],16			// M0|1 load r1
(pUStk) mov r17=1				// A
	;;
#ifdef ACCOUNTING_V2	// scaffold: +#ifdef CONFIG_VIRT_CPU_ACCOUNTING
(pUStk) st1 [r15]=r17				// M2|3
#else
(pUStk) st1 [r14]=r17				// M2|3
#endif
	ld8.fill r13=[r3],16			// M0|1
	mov f8=f0				// F    clear f8
	;;
	ld8.fill r12=[r2]			// scaffold: gap in the seed (old lines 766-774): load r12
	ld8.fill r15=[r3]			// scaffold: load r15
	mov b6=r18				// scaffold: restore b6

	LOAD_PHYS_STACK_REG_SIZE(r17)		// scaffold
	mov f9=f0				// scaffold: clear f9
(pKStk)	br.cond.dpnt.many skip_rbs_switch	// scaffold

	srlz.d					// scaffold: collection is off before cover
// seed 004: arch/ia64/kernel/entry.S @@ -775
	shr.u r18=r19,16		// I0|1 get byte size of existing "dirty" partition
	cover				// B    add current frame into dirty partition & set cr.ifs
	;;
#ifdef ACCOUNTING_V2	// scaffold: +#ifdef CONFIG_VIRT_CPU_ACCOUNTING
	mov r19=ar.bsp			// M2   get new backing store pointer
	st8 [r14]=r22			// M	save time at leave
	mov f10=f0			// F    clear f10

	mov r22=r0			// A	clear r22
	movl r14=__kernel_syscall_via_epc // X
	;;
#else
	mov r19=ar.bsp			// M2   get new backing store pointer
	mov f10=f0			// F    clear f10

	nop.m 0
	movl r14=__kernel_syscall_via_epc // X
	;;
#endif
	mov.m ar.csd=r0			// M2   clear ar.csd
	mov.m ar.ccv=r0			// M2   clear ar.ccv
	mov b7=r14			// I0   clear b7 (hint with __kernel_syscall_via_epc)

	mov.m ar.ssd=r0			// scaffold: clear ar.ssd
	mov f11=f0			// scaffold: clear f11
	br.cond.sptk.many rbs_switch	// scaffold
	;;
	.endp ia64_leave_syscall

// ---------------------------------------------------------------------------------------------
// scaffold: ia64_leave_kernel, as the tick leaves. Bank 0 (the tick never left it).
	.proc ia64_leave_kernel
ia64_leave_kernel:
	rsm IA64_PSR_I | IA64_PSR_IC			// scaffold
	cmp.eq p0,pLvSys=r0,r0			// scaffold: pLvSys=0: leave from kernel
	;;
	srlz.d					// scaffold
	;;
(pUStk)	mov r18=IA64_KR(CURRENT)		// scaffold: M2 (12 cycle read latency)
// seed 004: arch/ia64/kernel/entry.S @@ -913
	adds r16=PT(CR_IPSR)+16,r12
	adds r17=PT(CR_IIP)+16,r12

#ifdef ACCOUNTING_V2	// scaffold: +#ifdef CONFIG_VIRT_CPU_ACCOUNTING
	.pred.rel.mutex pUStk,pKStk
(pKStk)	mov r22=psr		// M2 read PSR now that interrupts are disabled
(pUStk)	mov.m r22=ar.itc	// M  fetch time at leave
	nop.i 0
	;;
#else
(pKStk)	mov r22=psr		// M2 read PSR now that interrupts are disabled
	nop.i 0
	nop.i 0
	;;
#endif
	ld8 r29=[r16],16	// load cr.ipsr
	ld8 r28=[r17],16	// load cr.iip
	;;
	ld8 r30=[r16],16	// scaffold: gap in the seed (old lines 923-937): load cr.ifs
	ld8 r25=[r17],16	// scaffold: load ar.unat
	;;
	ld8 r26=[r16],16	// scaffold: load ar.pfs
	ld8 r27=[r17],16	// scaffold: load ar.rsc
	cmp.eq p9,p0=r0,r0	// scaffold: p9: restore cr.ifs
	;;
	ld8 r24=[r16],16	// scaffold: load ar.rnat
	ld8 r23=[r17],16	// scaffold: load ar.bspstore
	;;
	ld8 r31=[r16],16	// scaffold: load pr
	ld8 r21=[r17],16	// scaffold: load b0
	;;
	ld8 r19=[r16],16	// scaffold: load ar.rsc value for "loadrs"
	ld8.fill r1=[r17],16	// scaffold: load r1
// seed 004: arch/ia64/kernel/entry.S @@ -938
	;;
	ld8.fill r12=[r16],16
	ld8.fill r13=[r17],16
#ifdef ACCOUNTING_V2	// scaffold: +#ifdef CONFIG_VIRT_CPU_ACCOUNTING
(pUStk)	adds r3=TI_AC_LEAVE+IA64_TASK_SIZE,r18
#else
(pUStk)	adds r18=IA64_TASK_THREAD_ON_USTACK_OFFSET,r18
#endif
	;;
	ld8 r20=[r16],16	// ar.fpsr
	ld8.fill r15=[r17],16
#ifdef ACCOUNTING_V2	// scaffold: +#ifdef CONFIG_VIRT_CPU_ACCOUNTING
(pUStk)	adds r18=IA64_TASK_THREAD_ON_USTACK_OFFSET,r18	// deferred
#endif
	;;
	ld8.fill r14=[r16],16
	ld8.fill r2=[r17]
(pUStk)	mov r17=1
	;;
#ifdef ACCOUNTING_V2	// scaffold: +#ifdef CONFIG_VIRT_CPU_ACCOUNTING
	//  mmi_ :  ld8 st1 shr;;         mmi_ : st8 st1 shr;;
	//  mib  :  mov add br        ->  mib  : ld8 add br
	//  bbb_ :  br  nop cover;;       mbb_ : mov br  cover;;
	//
	//  no one require bsp in r16 if (pKStk) branch is selected.
(pUStk)	st8 [r3]=r22		// save time at leave
(pUStk)	st1 [r18]=r17		// restore current->thread.on_ustack
	shr.u r18=r19,16	// get byte size of existing "dirty" partition
	;;
	ld8.fill r3=[r16]	// deferred
	LOAD_PHYS_STACK_REG_SIZE(r17)
(pKStk)	br.cond.dpnt skip_rbs_switch
	mov r16=ar.bsp		// get existing backing store pointer
#else
	ld8.fill r3=[r16]
(pUStk)	st1 [r18]=r17		// restore current->thread.on_ustack
	shr.u r18=r19,16	// get byte size of existing "dirty" partition
	;;				// scaffold: gap in the seed (old line 953)
// seed 004: arch/ia64/kernel/entry.S @@ -954
	mov r16=ar.bsp		// get existing backing store pointer
	LOAD_PHYS_STACK_REG_SIZE(r17)
(pKStk)	br.cond.dpnt skip_rbs_switch
#endif

	/*
	 * Restore user backing store.
	 */	// scaffold: end of the comment the seed's context opens
	// scaffold: from here to skip_rbs_switch stands for rbs_switch and
	// dont_preserve_current_frame. An interruption covered at entry already.
(pNonSys) br.cond.dpnt dont_preserve_current_frame
	cover				// scaffold: a system call leaving this way covers here
	;;
	mov r19=ar.bsp			// scaffold
rbs_switch:
	sub r16=r16,r18			// scaffold: krbs = old bsp - size of dirty partition
	cmp.ne p9,p0=r0,r0		// scaffold: the cover set cr.ifs: do not restore it
	;;
	sub r19=r19,r16			// scaffold: total dirty bytes
	;;
	shl r19=r19,16			// scaffold: into the loadrs field
	;;
dont_preserve_current_frame:
	alloc loc0=ar.pfs,2,Nregs-2,2,0	// scaffold: the frame Linux clears the invalid partition with
	shr.u loc1=r18,9		// scaffold: RNaT slots
	sub r17=r17,r18			// scaffold
	;;
	mov ar.rsc=r19			// scaffold: enforced lazy, loadrs = dirty bytes
// seed 004: arch/ia64/kernel/entry.S @@ -995
	shladd in0=loc1,3,r17
	mov in1=0
	;;
#if defined(CONFIG_VIRT_CPU_ACCOUNTING) && !defined(ACCOUNTING_V2)	// scaffold: -
account_sys_leave:
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
#endif			// scaffold: -
	TEXT_ALIGN(32)
rse_clear_invalid:
#ifdef CONFIG_ITANIUM
	// scaffold: the Itanium 1 variant is not built
#else
	// scaffold: the recursive clearing of the invalid partition is not modelled (the same
	// in every version)
#endif
	alloc r17=ar.pfs,0,0,0,0	// scaffold: drop the current frame
	;;
	loadrs				// scaffold: keep exactly the dirty partition
	;;
skip_rbs_switch:
	mov ar.unat=r25			// scaffold
	mov b0=r21
	mov cr.ipsr=r29
	mov ar.pfs=r26
	mov cr.iip=r28
(pUStk)	mov ar.bspstore=r23		// scaffold: the dirty registers are the user's again
	;;
(pUStk)	mov ar.rnat=r24			// scaffold
(p9)	mov cr.ifs=r30
	mov ar.fpsr=r20
	;;
	mov ar.rsc=r27			// scaffold
	mov pr=r31,-1
	;;
	rfi
	;;
	.endp ia64_leave_kernel

// ---------------------------------------------------------------------------------------------
// scaffold: the gate page (harness symbols gate..gate_end). epc promotes to cpl 0.
	.align 64
gate_page:
	.proc __kernel_syscall_via_epc
__kernel_syscall_via_epc:
	.mib
	nop.m 0
	nop.i 0
	epc				// scaffold: cpl 0 from here
	;;
	br.sptk.many fsys_bubble_down	// scaffold
	;;
	.endp __kernel_syscall_via_epc
gate_page_end:

// scaffold: the fsys path into the kernel. Bank 1, psr.ic = 1; b6 is the caller's return and
// ar.pfs holds its frame (ppl 3), so br.ret b6 demotes back to cpl 3.
	.proc fsys_bubble_down
fsys_bubble_down:
	mov r2=IA64_KR(CURRENT)			// scaffold: current
#ifdef CONFIG_VIRT_CPU_ACCOUNTING
	mov.m r30=ar.itc			// scaffold: read early
#endif
	mov r26=ar.rsc				// scaffold: the caller's RSC, put back below
	;;
// seed 004: arch/ia64/kernel/fsys.S @@ -689
#ifdef CONFIG_VIRT_CPU_ACCOUNTING
	// mov.m r30=ar.itc is called in advance
	add r16=TI_AC_STAMP+IA64_TASK_SIZE,r2
#ifdef ACCOUNTING_V2	// scaffold: +
	add r17=TI_AC_LEAVE+IA64_TASK_SIZE,r2
	;;
	ld8 r18=[r16],TI_AC_STIME-TI_AC_STAMP	// time at last check in kernel
	ld8 r19=[r17],TI_AC_UTIME-TI_AC_LEAVE	// time at leave kernel
	;;
	ld8 r20=[r16],TI_AC_STAMP-TI_AC_STIME	// cumulated stime
	ld8 r21=[r17]				// cumulated utime
	sub r22=r19,r18				// stime before leave kernel
	;;
	st8 [r16]=r30,TI_AC_STIME-TI_AC_STAMP	// update stamp
	sub r18=r30,r19				// elapsed time in user mode
	;;
	add r20=r20,r22				// sum stime
	add r21=r21,r18				// sum utime
	;;
	st8 [r16]=r20				// update stime
	st8 [r17]=r21				// update utime
#else			// scaffold: -
	add r17=TI_AC_UTIME+IA64_TASK_SIZE,r2
	;;
	ld8 r18=[r16]			// get last stamp
	ld8 r19=[r17]			// cumulated utime
	;;
	sub r18=r30,r18			// elapsed time
	;;
	add r19=r19,r18			// sum
	;;
	st8 [r16]=r30			// update stamp
	st8 [r17]=r19			// update utime
#endif			// scaffold: +/-
	;;
#endif
	mov ar.rsc=0x3				// M2   set eager mode, pl 0, LE, loadrs=0
	// scaffold: Linux goes on to ia64_syscall_setup and leaves through ia64_leave_syscall.
	// Here the call returns at once, doing the leave-side accounting of that exit first
	// (the same arithmetic as the leave hunks), so ac_stamp/ac_leave stay consistent.
	// scaffold: versioned begin (differs between V.1 and V.2 without being seed lines)
#ifdef CONFIG_VIRT_CPU_ACCOUNTING
	mov.m r22=ar.itc			// scaffold: time at leave
#ifdef ACCOUNTING_V2
	add r14=TI_AC_LEAVE+IA64_TASK_SIZE,r2	// scaffold
	;;
	st8 [r14]=r22				// scaffold: save time at leave
#else
	add r16=TI_AC_STAMP+IA64_TASK_SIZE,r2	// scaffold
	add r17=TI_AC_STIME+IA64_TASK_SIZE,r2
	;;
	ld8 r18=[r16]				// scaffold: as account_sys_leave
	ld8 r19=[r17]
	;;
	sub r18=r22,r18
	;;
	add r19=r19,r18
	;;
	st8 [r16]=r22
	st8 [r17]=r19
#endif
	;;
#endif
	// scaffold: versioned end
	;;
	mov ar.rsc=r26				// scaffold
	br.ret.sptk.many b6			// scaffold: back to cpl 3
	;;
	.endp fsys_bubble_down
