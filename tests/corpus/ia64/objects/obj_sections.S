// obj_sections.S: section flags M S T with an entry size ("aMS",@progbits,1; "awT" @nobits), and the .gnu.linkonce.t.X unwind section names (.gnu.linkonce.ia64unwi.X / .gnu.linkonce.ia64unw.X)
	.section .rodata.str1.1,"aMS",@progbits,1
	.asciz "hi"
	.section .tdata,"awT",@progbits
	data8 1
	.section .tbss,"awT",@nobits
	.skip 8
	.section .rodata.cst8,"aM",@progbits,8
	data8 5
	.section .gnu.linkonce.t.foo,"ax"
	.proc foo
foo:
	.prologue
	.save rp, r33
	mov r33=b0
	;;
	.body
	br.ret.sptk.many b0
	;;
	.endp foo
