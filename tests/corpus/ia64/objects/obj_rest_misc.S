// Issue 13, more of gas's dialect: .altmacro (bare and &-joined parameters, quoted arguments kept), &name outside .altmacro, sym - label as a PC-relative relocation (data and instructions), braces in the middle of a line, octal escapes with digits 8 and 9, .reg.val, a hand-made @unwind section, .xdata into .data
	.global ext
	.macro tagged name, val
	.section .rodata.&name, "a", @progbits
lbl_&name&_start:
	data4 \val
	.endm
	tagged one, 1
	tagged two, 2
	.altmacro
	.macro pair tag, str
	.section .rodata.tag, "a", @progbits
str_&tag:
	stringz str
	data8 ext - str_&tag
	data4 ext - str_&tag
	.endm
	pair abc, "x\8\9\189y"
	.noaltmacro
	.text
	.reg.val r1, 0x10
start:
	{ .mii
	mov r2 = ext - start } { .mlx
	nop.m 0
	movl r3 = ext - start ;; }
	nop.m 0 { .mfb
	nop.m 0
	nop.f 0
	br.ret.sptk.many rp ;; }
	.xdata4 .data, 7
	.section .IA_64.unwind_info, "a", "progbits"
	data8 0
	.section .IA_64.unwind, "ao", "unwind"
	data8 0, 0, 0
