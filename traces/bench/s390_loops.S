/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The s390x workloads of `acctemu bench` (built by build.sh into obj/s390-loops.o).
 *
 *   alu(n)  a tight ALU loop: n iterations of integer work counted down in r2 (brctg)
 *   mem(n)  a load/store/call loop: n calls of a leaf that loads two slots of the caller's
 *           frame, adds, and stores them back
 *
 * n >= 1 (ELF ABI: the count arrives in r2, the return address in r14, r15 the stack pointer
 * with the caller's 160-byte save area above it). The labels inside the functions mark the
 * blocks tests/cli_bench.rs counts instructions in: a function's block runs once, its `_loop`
 * block (and, for mem, the leaf) n times, its `_done` block once.
 */
	.text

	.globl	alu
	.type	alu, @function
alu:
	lghi	%r1, 1
	lghi	%r3, 2
	lghi	%r4, 3
	lghi	%r5, 4
alu_loop:
	agr	%r1, %r3
	agr	%r3, %r4
	xgr	%r4, %r1
	sllg	%r5, %r1, 2
	sgr	%r4, %r5
	ngr	%r3, %r4
	ogr	%r1, %r5
	aghi	%r0, 1
	brctg	%r2, alu_loop
alu_done:
	br	%r14
	.size	alu, .-alu

	.globl	mem
	.type	mem, @function
mem:
	stmg	%r13, %r15, 104(%r15)
	lgr	%r13, %r2
	aghi	%r15, -176
	lghi	%r0, 0
	stg	%r0, 160(%r15)
	stg	%r0, 168(%r15)
	lghi	%r4, 1
mem_loop:
	brasl	%r14, leaf
	brctg	%r13, mem_loop
mem_done:
	lmg	%r13, %r15, 280(%r15)
	br	%r14
	.size	mem, .-mem

/* The leaf: the caller's two slots sit above its 160-byte save area. */
	.type	leaf, @function
leaf:
	lg	%r2, 160(%r15)
	lg	%r3, 168(%r15)
	agr	%r2, %r4
	stg	%r2, 160(%r15)
	stg	%r3, 168(%r15)
	br	%r14
	.size	leaf, .-leaf

	.section	.note.GNU-stack,"",@progbits
