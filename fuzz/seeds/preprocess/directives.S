// directives.S: .proc/.endp, .global, numeric local labels 1:/1b/1f, .L labels, unwind directives, data in .data/.rodata, data in .text (flushes; decoded by objdump as reserved templates), .skip
	.text
	.global dir_func
	.proc dir_func
dir_func:
	.prologue
	.save ar.pfs, r34
	alloc r34=ar.pfs,1,3,1,0
	.save rp, r33
	mov r33=b0
	.fframe 32
	adds r12=-32,r12
	;;
	.spillsp ar.unat, 16
	mov r35=ar.unat
	;;
	.body
	.label_state 1
1:
	add r8=r32,r0
	;;
(p6)	br.cond.sptk.few 1b
(p7)	br.cond.sptk.few 1f
	;;
	.restore sp
	adds r12=32,r12
	mov b0=r33
	;;
	mov ar.pfs=r34
	br.ret.sptk.many b0
	;;
	.copy_state 1
1:
	add r9=r32,r0
	br.ret.sptk.many b0
	;;
	.endp dir_func

	.proc dir_alt
dir_alt:
	.prologue
	.altrp b7
	.save ar.pfs, r34
	alloc r34=ar.pfs,0,3,0,0
	;;
	.body
	mov ar.pfs=r34
	br.ret.sptk.many b7
	;;
	.endp dir_alt

	.proc dir_unwabi
dir_unwabi:
	.prologue
	.unwabi @svr4, 'i'
	.body
	nop.m 0
	;;
	rfi
	;;
	.endp dir_unwabi

	// .L labels and numeric labels, several instances of the same number
	.global dir_loop
	.proc dir_loop
dir_loop:
	mov r8=0
	;;
.Lloop_top:
	add r8=1,r8
	;;
	cmp.ltu p6,p7=r8,r32
	;;
(p6)	br.cond.dptk.few .Lloop_top
	;;
2:
	add r9=r8,r0
	;;
(p7)	br.cond.spnt.few 2b
	;;
2:
(p6)	br.cond.spnt.few 2b
(p7)	br.cond.spnt.few 3f
	;;
3:
	br.ret.sptk.many b0
	;;
	.endp dir_loop

	// 16 data bytes in .text: gas flushes around them; objdump shows them as a bundle
	data8 0x0000000000000007
	data8 0xffffffffffffffff
	.quad 0x000000000000001e
	.quad 0x0000000000000000
	add r10=r2,r3
	;;

	.data
	.global dir_data
dir_data:
	data1 0x12
	data2 0x3456
	data4 0x789abcde
	data8 0x0123456789abcdef
	.byte 1, 2, 3
	.short 0x1234
	.long 0xdeadbeef
	.quad dir_func
	.skip 5
	.skip 3, 0xaa
	data8 dir_data

	.section .rodata
dir_ro:
	.byte 0xff
	.align 8
	.quad 42
	data4 dir_ro
	.skip 16
