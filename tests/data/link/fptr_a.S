// One function descriptor: @fptr(f) as an immediate and as data, and @ltoff(@fptr(f)) in
// every form (one slot holding the descriptor's address).
	.text
	.global start
	.proc start
start:
	movl r19 = @fptr(f) ;;
	addl r20 = @ltoff(@fptr(f)), gp
	movl r21 = @ltoff(@fptr(f)) ;;
	br.ret.sptk.many b0 ;;
	.endp start
	.data
	data8 @fptr(f)
	data4 @fptr(f)
	data8 @ltoff(@fptr(f))
	data4 @ltoff(@fptr(f))
