// err_qp.S: qualifying predicate on instructions that cannot be predicated (alloc clrrrb br.cloop flushrs cover rfi epc bsw.0 loadrs); each fits no slot as written
	.text
(p6)	alloc r32=ar.pfs,2,2,0,0
	;;
(p6)	clrrrb
	;;
(p6)	br.cloop.sptk.few .Lx
	;;
(p6)	flushrs
	;;
(p6)	cover
	;;
(p6)	rfi
	;;
(p6)	epc
	;;
(p6)	bsw.0
	;;
(p6)	loadrs
	;;
.Lx:
	nop.m 0
	;;
