// dv_cr.S: control-register and PSR dependency violations (data and instr semantics) and how srlz.d / srlz.i clear them
	.text
	// data dependency on cr.ifs: write then read, same group
	mov cr.ifs=r2
	mov r8=cr.ifs
	;;
	// data dependency survives a plain stop
	mov cr.ipsr=r3
	;;
	mov r9=cr.ipsr
	;;
	// srlz.d in a later group clears it
	mov cr.iip=r4
	;;
	srlz.d
	;;
	mov r10=cr.iip
	;;
	// instr dependency on cr.iva needs srlz.i
	mov cr.iva=r5
	;;
	srlz.d
	;;
	mov r11=cr.iva
	;;
	srlz.i
	;;
	// cr written twice in one group
	mov cr.itir=r6
	mov cr.itir=r7
	;;
	// psr.l write then psr read
	mov psr.l=r2
	;;
	mov r12=psr
	;;
	srlz.d
	;;
	// rsm then psr.um read
	rsm 0x8
	mov r13=psr.um
	;;
	srlz.d
	;;
	// ssm psr.i then read cr.ivr
	ssm 0x4000
	;;
	mov r14=cr.ivr
	;;
