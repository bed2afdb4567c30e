// Issue 13: where gas allows unwind directives (an .endp outside of any procedure makes the checks errors; .prologue within a prologue; frame directives outside a prologue; .restore outside a body; nothing after .handlerdata)
	.text
	.endp nothing
	.body
	.proc f
f:
	.prologue
	.prologue
	.label_state 1
	.body
	.fframe 16
	.save rp, r2
	.restore sp
	br.ret.sptk.many rp
	;;
	.personality f
	.handlerdata
	data4 0
	.body
	.endp f
