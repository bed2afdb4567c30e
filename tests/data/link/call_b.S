// The callees of call_a.S: one reached by a direct branch, one through its descriptor,
// reading a short-data variable gp-relatively.
	.text
	.global callee, callee2
	.proc callee
callee:
	adds r8 = 10, r32
	br.ret.sptk.many b0 ;;
	.endp callee
	.proc callee2
callee2:
	addl r2 = @gprel(bvar), gp ;;
	ld8 r3 = [r2] ;;
	add r8 = r3, r32
	br.ret.sptk.many b0 ;;
	.endp callee2
	.sdata
bvar:	data8 100
