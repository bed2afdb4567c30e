// err_mnemonic.S: unknown mnemonics
	.text
	frobnicate r8=r2,r3
	;;
	addx r9=r2,r3
	;;
	ld9 r10=[r2]
	;;
