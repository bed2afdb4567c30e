// obj_data.S: natural alignment of data2/4/8 and .ua, absolute symbols (.set, =), labels before padding, .section without flags, .pushsection/.popsection/.previous, @nobits .sbss, .align in a second code section, a tag as data, a .name (local label) procedure, .bss
	.set ABS1, 0x1234
	ABS2 = ABS1 * 2
	.global gdata, undef_data
	.data
	data1 1
lab2:	data2 2
	data1 3
	data4 4
	data1 5
	data8 6
	data2.ua 7
	data4.ua 8
	data8.ua undef_data
	.byte 9
	.quad lab2+4
	.long lab2
gdata:	data8 gdata+8
	.section foo
	data1 1
	.pushsection .rodata,"a"
ro:	data8 ro
	.popsection
	data4 ro
	.section .sbss,"aws",@nobits
	.skip 16
	.section .text.hot,"ax"
	.align 32
hot:	nop.m 0
	nop.i 0
	[tg:] nop.i 0
	;;
	.text
	.proc .hidden_name
.hidden_name:
	nop.m 0
	;;
	.endp .hidden_name
	.previous
	data8 tg
	.bss
	.skip 8
bss_sym: .skip 4
	.align 64
