// A code section past 0x10000 bytes (objdump's address column widens), .org gaps of zeros, labels in the gaps, and a second code section that starts at 0 again.
	.explicit
	.text
	.global start
start:
	nop.m 0
	nop.i 0
	br.sptk.many far
	;;
	.org 0x100
gap_label:
	.org 0x8000
near:
	mov r8=r9
	;;
	br.ret.sptk.many b0
	;;
	.org 0x10010
far:
	(p6) br.cond.dpnt.few start
	br.sptk.few near
	;;
	.org 0x10100
	.section .text.other, "ax", @progbits
other:
	br.sptk.many other
	;;
