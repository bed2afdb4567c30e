// Issue 13, section groups: .section NAME,"axG",@progbits,GROUP[,comdat] with a defined signature, an undefined one, a group .text beside the ordinary one, unwind sections joining the group, two groups
	.section .text.hot_fn, "axG", @progbits, hot_fn, comdat
	.global hot_fn
	.proc hot_fn
hot_fn:
	.prologue
	.save ar.pfs, r33
	alloc r33 = ar.pfs, 0, 2, 0, 0
	;;
	.body
	br.ret.sptk.many rp
	;;
	.endp hot_fn
	.section .data.hot_fn, "awG", @progbits, hot_fn, comdat
hot_counter:
	data8 hot_fn
	.text
	.proc plain
plain:
	br.ret.sptk.many rp
	;;
	.endp plain
	.section .text, "axG", @progbits, .sig_text, comdat
	.proc dup_text
dup_text:
	(p6) br.cond.dptk 1f
1:
	br.ret.sptk.many rp
	;;
	.endp dup_text
	.section .rodata.grp, "aG", @progbits, loose_group
	data4 1, 2, 3
