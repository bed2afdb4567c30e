	.text
	.global f
	.proc f
f:
	.prologue
	.save ar.pfs, r32
	alloc r32=ar.pfs,0,1,0,0
	;;
	.body
	adds r8=7,r0
	mov ar.pfs=r32
	;;
	br.ret.sptk.many b0
	;;
	.endp f
