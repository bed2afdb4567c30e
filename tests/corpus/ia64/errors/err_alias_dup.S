// gas's duplicate checks on .alias and .secalias (issue 13): a second, different alias
// for one name, and one alias string for two names; the same pair twice is fine.
	.global	one#
	.global	two#
	.section .extra#, "a", @progbits
	.section .other, "a", @progbits
	.text
one:
two:
	nop.m	0
	nop.i	0
	nop.i	0 ;;
	.alias	one#, "first"
	.alias	one, "first"
	.alias	one, "again"
	.alias	two, "first"
	.secalias .extra#, "xsec"
	.secalias .extra, "ysec"
	.secalias .other, "xsec"
