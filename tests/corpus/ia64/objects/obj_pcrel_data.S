// obj_pcrel_data.S: sym - . in data: resolved within the section, PCREL32LSB/PCREL64LSB against a global, a local of another section (section symbol + offset) and an external, with an addend; a 32 KiB-aligned code section (file offset alignment)
	.global g
	.text
g:	nop.m 0
1:	nop.m 0
	;;
	.data
d:	data8 d - .
	data8 e - .
	data4 g - .
	data4 1b - .
	data8 g - . + 8
e:	data8 ext - .
	.global ext
	.section .text..ivt,"ax"
	.align 32768
ivt:	nop.m 0
	;;
