// obj_symbols.S: .file (STT_FILE), .weak defined and undefined (STB_WEAK), .hidden/.protected, .type @function/@object, .size, .section @nobits by type
	.file "e.c"
	.weak wsym, wext
	.global gobj
	.hidden gobj
	.protected pfun
	.global pfun
	.text
	.type pfun, @function
pfun:	nop.m 0
	br.call.sptk.many b0=wext
	;;
	.size pfun, .-pfun
	.data
	.type gobj, @object
gobj:	data8 1
	data8 2
	.size gobj, 16
wsym:	data4 3
	.section .mynb,"aw",@nobits
	.skip 32
