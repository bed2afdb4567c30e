// load12.S: ld1/ld2 (M1/M2/M3) with every completer (none .s .a .sa .bias .acq .c.clr .c.nc .c.clr.acq) and hints (.nt1 .nta), no update, register post-increment and imm9 post-increment (-256..255)
	.text
	ld1 r48=[r2]
	ld1.nt1 r49=[r41],r5
	;;
	ld1.nta r50=[r40],-256
	ld1.s.nt1 r51=[r3]
	;;
	ld1.s.nta r52=[r40],r5
	ld1.s r53=[r41],255
	;;
(p6)	ld1.a.nta r54=[r2]
	ld1.a r55=[r41],r5
	;;
	ld1.a.nt1 r56=[r40],8
	ld1.sa r57=[r3]
	;;
	ld1.sa.nt1 r58=[r40],r5
	ld1.sa.nta r59=[r41],-8
	;;
	ld1.bias.nt1 r60=[r2]
(p7)	ld1.bias.nta r61=[r41],r5
	;;
	ld1.bias r62=[r40],1
	ld1.acq.nta r63=[r3]
	;;
	ld1.acq r64=[r40],r5
	ld1.acq.nt1 r65=[r41],-1
	;;
	ld1.c.clr r66=[r2]
	ld1.c.clr.nt1 r67=[r41],r5
	;;
(p8)	ld1.c.clr.nta r68=[r40],16
	ld1.c.nc.nt1 r69=[r3]
	;;
	ld1.c.nc.nta r70=[r40],r5
	ld1.c.nc r71=[r41],128
	;;
	ld1.c.clr.acq.nta r72=[r2]
	ld1.c.clr.acq r73=[r41],r5
	;;
	ld1.c.clr.acq.nt1 r74=[r40],-128
(p6)	ld2 r75=[r3]
	;;
	ld2.nt1 r76=[r40],r5
	ld2.nta r77=[r41],-256
	;;
	ld2.s.nt1 r78=[r2]
	ld2.s.nta r79=[r41],r5
	;;
	ld2.s r80=[r40],255
	ld2.a.nta r81=[r3]
	;;
(p7)	ld2.a r82=[r40],r5
	ld2.a.nt1 r83=[r41],8
	;;
	ld2.sa r84=[r2]
	ld2.sa.nt1 r85=[r41],r5
	;;
	ld2.sa.nta r86=[r40],-8
	ld2.bias.nt1 r87=[r3]
	;;
	ld2.bias.nta r48=[r40],r5
(p8)	ld2.bias r49=[r41],1
	;;
	ld2.acq.nta r50=[r2]
	ld2.acq r51=[r41],r5
	;;
	ld2.acq.nt1 r52=[r40],-1
	ld2.c.clr r53=[r3]
	;;
	ld2.c.clr.nt1 r54=[r40],r5
	ld2.c.clr.nta r55=[r41],16
	;;
(p6)	ld2.c.nc.nt1 r56=[r2]
	ld2.c.nc.nta r57=[r41],r5
	;;
	ld2.c.nc r58=[r40],128
	ld2.c.clr.acq.nta r59=[r3]
	;;
	ld2.c.clr.acq r60=[r40],r5
	ld2.c.clr.acq.nt1 r61=[r41],-128
	;;
