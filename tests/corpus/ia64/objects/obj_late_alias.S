// `name = label` (issue 13): the alias takes the label's section and offset once the
// label is known, before or after the assignment, and relocations name the alias.
	.global	early#
	early# = target#
	.global	target#
	.data
	data8	1
target:
	data4	0
	.global	after#
	after# = target# + 8
	.text
	addl	r3 = @ltoffx(early#), gp
	nop.i	0
	nop.i	0 ;;
	ld8.mov	r3 = [r3], early#
	nop.i	0
	nop.i	0 ;;
	addl	r4 = @ltoff(late#), gp
	movl	r5 = after#
	nop.m	0
	movl	r6 = local_alias
	;;
	.global	late#
	late# = code_label
	local_alias = target
code_label:
	br.ret.sptk.few	b0 ;;
