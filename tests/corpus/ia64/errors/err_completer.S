// err_completer.S: known mnemonics with unknown or misplaced completers
	.text
	ld8.zz r8=[r2]
	;;
	add.s r9=r2,r3
	;;
	br.cond.xptk.few .Lx
	;;
	fetchadd4.nta r10=[r2],1
	;;
.Lx:
	nop.m 0
	;;
