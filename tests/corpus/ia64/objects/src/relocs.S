// Relocations of every operator gas has, in code and in data in code, for `objdump -dr`.
	.explicit
	.global ext_func, ext_data
	.text
	.proc func1
func1:
	addl r2=@gprel(ext_data),gp
	addl r3=@ltoff(ext_data),gp
	addl r14=@ltoffx(ext_data),gp
	;;
	ld8.mov r14=[r14],ext_data
	movl r8=@gprel(ext_data+16)
	;;
	movl r9=@ltoff(ext_func)
	;;
	movl r10=@fptr(ext_func)
	;;
	movl r11=ext_data-8
	;;
	addl r12=@ltoff(@fptr(ext_func)),gp
	mov r13=@pcrel(ext_data)
	adds r15=@tprel(ext_data),r1
	;;
	addl r16=@ltoff(@tprel(ext_data)),gp
	addl r17=@ltoff(@dtpmod(ext_data)),gp
	addl r18=@dtprel(ext_data),r0
	;;
	movl r19=@tprel(ext_data)
	;;
	movl r20=@dtprel(ext_data)
	;;
	movl r21=@pcrel(ext_data)
	;;
	br.call.sptk.many b0=ext_func
	;;
	brl.call.sptk.many b0=ext_func
	;;
	(p6) br.cond.sptk.few ext_func
	chk.s r4, ext_func
	;;
	br.ret.sptk.many b0
	.endp func1
	.skip 64
	.align 16
	data8 ext_func
	data8 @fptr(ext_func)
	data4 ext_data+4
	data8 @gprel(ext_data)
	data8 @segrel(ext_data)
	data8 @secrel(ext_data)
	data8 @pcrel(ext_data)
	data8 @ltv(ext_data)
	data8 @dtpmod(ext_data)
	data8 @dtprel(ext_data)
	data8 @tprel(ext_data)
	data4 @pcrel(ext_data)
	data4 @gprel(ext_data)
	data4 @segrel(ext_data)
	data4 @secrel(ext_data)
	data4 @ltv(ext_data)
	data4 @fptr(ext_func)
	.skip 32
	data8 ext_data
	.skip 40

	.section .text.second, "ax", @progbits
	.align 32
	.global g2
	.proc g2
g2:
	nop.m 0
	br.call.sptk.many b0=func1
	;;
	brl.sptk.many local2
	;;
	.type tbl, @object
	.size tbl, 24
tbl:
	data8 local2
	data8 func1 - 8
	data8 tbl
	.align 16
local2:
	br.ret.sptk.many b0
	.endp g2

	.section .init.text, "ax", @progbits
	.proc h
h:
	movl r2=g2+0x100
	;;
	br.sptk.many local2
	;;
	.endp h
	.data
	data8 func1
