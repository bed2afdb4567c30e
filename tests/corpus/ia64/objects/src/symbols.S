// Symbol naming corner cases for objdump -d (issue 13): several symbols at one address (global, local, weak, function, object, notype, sizes), aliases, a symbol inside a bundle, hidden, an undefined weak branch target, absolute and common symbols, an object symbol in code, a code section without symbols.
	.explicit
	.text
	.global a_glob
	.weak a_weak
	.type a_func, @function
	.size a_func, 32
	.type a_obj, @object
	.size a_obj, 16
local_first:
a_weak:
a_glob:
a_func:
	nop.m 0
	nop.i 0
	br.call.sptk.many b0=target
	;;
	.global alias_b
	alias_b = a_func + 16
	.set alias_c, a_func + 16
	nop.m 0
	nop.i 0
	br.sptk.many a_func
	;;
mid_bundle = . + 6
	.type mid_bundle, @function
	nop.m 0
	nop.i 0
	br.sptk.many mid_bundle
	;;
	.hidden hid
	.global hid
hid:
target:
	nop.m 0
	nop.i 0
	br.ret.sptk.many b0
	;;
	.weak undefined_weak
	nop.m 0
	nop.i 0
	br.call.sptk.many b0=undefined_weak
	;;
abs_sym = 0x40
	.comm common_sym, 8, 8
	movl r2=abs_sym
	;;
	movl r3=common_sym
	;;
end_label:
	.section .text.b, "ax", @progbits
.Lhidden:
	.type b_data, @object
	.size b_data, 48
b_data:
	data8 1, 2, 3, 4, 5, 6
	.type b_code, @function
b_code:
	nop.m 0
	nop.i 0
	br.sptk.many b_data
	;;
	.section .text.nosyms, "ax", @progbits
	nop.m 0
	nop.i 0
	br.sptk.many .Lhere
	;;
.Lhere:
	nop.m 0
	nop.i 0
	br.ret.sptk.many b0
	;;
