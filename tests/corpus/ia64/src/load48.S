// load48.S: ld4/ld8 (M1/M2/M3) with every completer (none .s .a .sa .bias .acq .c.clr .c.nc .c.clr.acq) and hints, no update, register and imm9 post-increment; ld8.fill in all three forms
	.text
	ld4 r48=[r2]
	ld4.nt1 r49=[r41],r5
	;;
	ld4.nta r50=[r40],-256
	ld4.s.nt1 r51=[r3]
	;;
	ld4.s.nta r52=[r40],r5
	ld4.s r53=[r41],255
	;;
(p6)	ld4.a.nta r54=[r2]
	ld4.a r55=[r41],r5
	;;
	ld4.a.nt1 r56=[r40],8
	ld4.sa r57=[r3]
	;;
	ld4.sa.nt1 r58=[r40],r5
	ld4.sa.nta r59=[r41],-8
	;;
	ld4.bias.nt1 r60=[r2]
(p7)	ld4.bias.nta r61=[r41],r5
	;;
	ld4.bias r62=[r40],1
	ld4.acq.nta r63=[r3]
	;;
	ld4.acq r64=[r40],r5
	ld4.acq.nt1 r65=[r41],-1
	;;
	ld4.c.clr r66=[r2]
	ld4.c.clr.nt1 r67=[r41],r5
	;;
(p8)	ld4.c.clr.nta r68=[r40],16
	ld4.c.nc.nt1 r69=[r3]
	;;
	ld4.c.nc.nta r70=[r40],r5
	ld4.c.nc r71=[r41],128
	;;
	ld4.c.clr.acq.nta r72=[r2]
	ld4.c.clr.acq r73=[r41],r5
	;;
	ld4.c.clr.acq.nt1 r74=[r40],-128
(p6)	ld8 r75=[r3]
	;;
	ld8.nt1 r76=[r40],r5
	ld8.nta r77=[r41],-256
	;;
	ld8.s.nt1 r78=[r2]
	ld8.s.nta r79=[r41],r5
	;;
	ld8.s r80=[r40],255
	ld8.a.nta r81=[r3]
	;;
(p7)	ld8.a r82=[r40],r5
	ld8.a.nt1 r83=[r41],8
	;;
	ld8.sa r84=[r2]
	ld8.sa.nt1 r85=[r41],r5
	;;
	ld8.sa.nta r86=[r40],-8
	ld8.bias.nt1 r87=[r3]
	;;
	ld8.bias.nta r48=[r40],r5
(p8)	ld8.bias r49=[r41],1
	;;
	ld8.acq.nta r50=[r2]
	ld8.acq r51=[r41],r5
	;;
	ld8.acq.nt1 r52=[r40],-1
	ld8.c.clr r53=[r3]
	;;
	ld8.c.clr.nt1 r54=[r40],r5
	ld8.c.clr.nta r55=[r41],16
	;;
(p6)	ld8.c.nc.nt1 r56=[r2]
	ld8.c.nc.nta r57=[r41],r5
	;;
	ld8.c.nc r58=[r40],128
	ld8.c.clr.acq.nta r59=[r3]
	;;
	ld8.c.clr.acq r60=[r40],r5
	ld8.c.clr.acq.nt1 r61=[r41],-128
	;;
	ld8.fill r60=[r2]
	ld8.fill r61=[r40],r4
	;;
	ld8.fill.nta r62=[r41],-256
	;;
	ld8.fill.nt1 r63=[r40],255
	;;
