// dv_gr.S: general-register dependency violations in explicit mode: RAW, WAW, predicated (may violate), post-increment base, r0 never conflicts, stop clears
	.text
	// RAW: write then read in one group
	mov r8=1
	add r9=r8,r0
	;;
	// WAW: written twice
	mov r10=1
	mov r10=2
	;;
	// predicated writer and reader: "may violate"
(p6)	mov r11=1
(p7)	add r12=r11,r0
	;;
	// unpredicated writer, predicated reader
	mov r13=1
(p6)	add r14=r13,r0
	;;
	// load then use
	ld8 r15=[r2]
	add r16=r15,r3
	;;
	// post-increment updates the base register
	ld8 r17=[r18],8
	add r19=r18,r0
	;;
	// store using a just-written value and address
	adds r20=16,r2
	st8 [r20]=r21
	;;
	// r0 writes are not tracked (the write is discarded)
	add r0=r2,r3
	;;
	// a stop between writer and reader clears the dependency
	mov r22=1
	;;
	add r23=r22,r0
	;;
	// three writers of one register
	mov r24=1
	mov r24=2
	mov r24=3
	;;
	// WAR is allowed: read then write
	add r25=r26,r0
	mov r26=5
	;;
	// getf writes a GR from an FR, setf reads it
	getf.sig r27=f6
	setf.sig f7=r27
	;;
	// movl writes a GR; a branch-register move reads it
	movl r28=0x1234
	mov b6=r28
	;;
	// lfetch post-increment writes its base (register and imm9 forms); the plain form only reads it
	lfetch.fault.excl.nt1 [r29],16
	add r30=r29,r0
	;;
	lfetch [r31],r30
	(p6) lfetch.nta [r31],8
	;;
	lfetch [r32]
	mov r32=1
	;;
