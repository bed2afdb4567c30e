// SPDX-License-Identifier: GPL-2.0-only
//
// The IA-64 workloads of `acctemu bench`, assembled by acctemu's own assembler when the bench
// runs (no object is committed).
//
//   alu  a tight ALU loop: r14 iterations of three bundles of integer work, counted by ar.lc
//   mem  a load/store/call loop: r14 calls of a leaf that loads two stack slots, adds, and
//        stores them back
//
// r14 >= 1 (br.cloop runs the body ar.lc + 1 times, so ar.lc = r14 - 1). The labels mark the
// blocks tests/cli_bench.rs counts bundles in: a procedure's block runs once, its `_loop`
// block (and, for mem, the leaf) r14 times, its `_done` block once; every bundle retires its
// three slots (each branch sits in slot 2).
	.text
	.proc alu
alu:
	adds r14=-1,r14
	;;
	mov ar.lc=r14
	;;
alu_loop:
	add r8=r8,r9
	add r9=r9,r10
	add r10=r10,r11
	;;
	add r11=r11,r8
	shladd r15=r8,2,r9
	xor r16=r9,r10
	;;
	adds r17=1,r17
	br.cloop.sptk.few alu_loop
	;;
alu_done:
	br.ret.sptk.many b0
	;;
	.endp alu

	.proc mem
mem:
	alloc r32=ar.pfs,0,2,0,0
	mov r33=b0
	adds r14=-1,r14
	;;
	mov ar.lc=r14
	;;
mem_loop:
	.mib		// the call in slot 2, as every branch here: each bundle retires its 3 slots
	br.call.sptk.many b0=leaf
	;;
	br.cloop.sptk.few mem_loop
	;;
mem_done:
	mov b0=r33
	mov ar.pfs=r32
	br.ret.sptk.many b0
	;;
	.endp mem

	.proc leaf
leaf:
	ld8 r8=[r12]
	adds r9=8,r12
	;;
	ld8 r10=[r9]
	add r8=r8,r11
	;;
	st8 [r12]=r8
	st8 [r9]=r10
	br.ret.sptk.many b0
	;;
	.endp leaf
