// mov_dahr.S: the Itanium 9500 data access hint register moves (issue 12, later forms) GNU as
// 2.40 takes: mov r1=dahr[r3] over the register ends, and mov dahrN=imm16 for every N and the
// immediate's ends and single bits (each piece of its split field), predicated and not.
// Each write ends its group: gas tracks DAHR writes as a resource (WAW, 'DAHR%, % in 0-7'),
// which our dependency checker does not model.
	.text
	.global mov_dahr
	.proc mov_dahr
mov_dahr:
	mov r1=dahr[r3]
	mov r127=dahr[r0]
	(p6) mov r9=dahr[r33]
	;;
	mov r8=dahr[r127]
	;;
	mov dahr0=0
	;;
	mov dahr1=4097
	;;
	mov dahr2=8194
	;;
	mov dahr3=12291
	;;
	mov dahr4=16388
	;;
	mov dahr5=20485
	;;
	mov dahr6=24582
	;;
	mov dahr7=28679
	;;
	mov dahr3=0
	;;
	mov dahr3=1
	;;
	mov dahr3=8
	;;
	mov dahr3=15
	;;
	mov dahr3=16
	;;
	mov dahr3=32
	;;
	mov dahr3=1024
	;;
	mov dahr3=16384
	;;
	mov dahr3=32768
	;;
	mov dahr3=65535
	;;
	mov dahr3=0x1234
	;;
	(p7) mov dahr7=65535
	;;
	(p63) mov dahr0=0
	;;
	;;
	br.ret.sptk.many b0
	.endp mov_dahr
