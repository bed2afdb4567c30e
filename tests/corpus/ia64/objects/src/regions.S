// Regions objdump cuts oddly (issue 13): symbols inside bundles and slots, a bundle that runs past its region (objdump: "Address 0x.. is out of bounds." and leaves the region), slots cut by the next symbol, short zero tails, object symbols on zeros, MLX across symbols, relocations in cut regions, a section ending inside a bundle.
	.explicit
	.section .text.a, "ax", @progbits
s0:
	nop.m 0
	nop.i 0
	br.ret.sptk.many b0
	;;
s2 = . + 2
s14 = . + 14
	.type s14, @function
	nop.m 0
	nop.i 0
	br.ret.sptk.many b0
	;;
	nop.m 0
	nop.i 0
	br.ret.sptk.many b0
	;;
s_zero = . + 1
	data8 0, 0
s_end:
	nop.m 0
	nop.i 0
	br.ret.sptk.many b0
	;;
	data4 0x1234
	.global ext

	.section .text.b, "ax", @progbits
t0:
	movl r2=ext
	;;
t_l = . - 4
t_l2 = . - 2
	.type t_l2, @object
	nop.m 0
	nop.i 0
	br.call.sptk.many b0=ext
	;;
t_z1 = . + 14
	data8 0x0, 0x0
t_z2 = . + 15
	data8 0x0, 0x0
	.type t_z3, @object
t_z3 = . + 15
	data8 0x0, 0x0
	.type t_z4, @object
t_z4 = . + 13
	data8 0x0, 0x0
t_end:
	nop.m 0
	nop.i 0
	br.call.sptk.many b0=ext
	;;
	.section .text.x, "ax", @progbits
	nop.m 0
	movl r3=ext
	;;
	data4 0
	data2 0
	.section .text.c, "ax", @progbits
a0:
	data8 0x0, 0x0
a1 = . - 2
	.type a2, @object
a2 = . - 1
	data8 0x1, 0x0
b1 = . - 2
b2 = . - 1
	.type b2, @object
	data8 0x0, 0x0
c0:
	data8 0x0, 0x100
c1 = . - 2
	nop.m 0
	nop.i 0
	br.ret.sptk.many b0
	;;
