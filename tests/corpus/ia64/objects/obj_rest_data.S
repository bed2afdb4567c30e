// Issue 13, remaining data directives: real10/real16 (and .ua), per-section .msb/.lsb with MSB relocations, .xdataN.ua, .xrealN, .xstring/.xstringz, register and == equates, name:: globals
	.section .rodata.ext, "a", @progbits
	data1 7
	real10 1.25, -0.3, 1e-300
	data1 8
	real16 2.5e4000
	real10.ua 0.1
	real16.ua -65536.5
	real8 9007199254740993
	real4 16777217
	.section .sdata.be, "aw", @progbits
	.msb
	data2 0x1122
	data4 0x33445566
	data8 table_end
	real4 1.5
	real8 -2.75
	real10 3.0
	data8 @gprel(big_word)
	.section .data.le, "aw", @progbits
	data4 0x01020304
	.lsb
	data8 table_end
	.section .sdata.be, "aw", @progbits
	// The section keeps its byte order across the switch.
big_word::
	data8 0x0102030405060708
	.lsb
	data8 0x0102030405060708
	.section .tables, "a", @progbits
	.text
	.xdata2.ua .tables, 0x1234
	.xdata4.ua .tables, table_end
	.xdata8.ua .tables, 0x0123456789abcdef
	.xreal4 .tables, 0.5
	.xreal8 .tables, 0.25
	.xreal10 .tables, 0.125
	.xreal16.ua .tables, 8
	.xstring .tables, "ab"
	.xstringz .tables, "cd"
	scale = 3
	width == 4*scale
	base = r8
	idx == base
	pq = p7
	.proc eq_use
eq_use::
	adds idx = width, r0
	;;
	scale = 5
(pq)	adds base = width, idx
	br.ret.sptk rp
	;;
	.endp eq_use
	.section .rodata.end, "a", @progbits
table_end:
	data1 0
