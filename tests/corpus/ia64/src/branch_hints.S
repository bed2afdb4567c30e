// brp (B6 IP-relative with every whether hint .sptk .loop .dptk .exit and .imp; B7 indirect and brp.ret with .sptk .dptk and .imp, through b0-b7), forward and backward targets and tags (issue 12)
	.text
	.global f
f:
back:
	nop.b 0 ;;
	brp.sptk fwd,t0
	brp.sptk.imp back,t1
	brp.loop fwd,t2
	brp.loop.imp back,t0
	brp.dptk fwd,t1
	brp.dptk.imp back,t2
	brp.exit fwd,t0
	brp.exit.imp back,t1
	brp.sptk b0,t2
	brp.sptk b6,t0
	brp.sptk b7,t1
	brp.sptk.imp b1,t2
	brp.dptk b0,t0
	brp.dptk b6,t1
	brp.dptk b7,t2
	brp.dptk.imp b1,t0
	brp.ret.sptk b0,t1
	brp.ret.sptk b6,t2
	brp.ret.sptk b7,t0
	brp.ret.sptk.imp b1,t1
	brp.ret.dptk b0,t2
	brp.ret.dptk b6,t0
	brp.ret.dptk b7,t1
	brp.ret.dptk.imp b1,t2
;;
t0:
	nop.b 0
t1:	nop.b 0 ;;
fwd:
t2:
	br.ret.sptk.many b0 ;;
