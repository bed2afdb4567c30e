/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The x86-64 workloads of `acctemu bench` (built by build.sh into obj/x86-loops.o).
 *
 *   alu(n)  a tight ALU loop: n iterations of integer work counted down in rdi
 *   mem(n)  a load/store/call loop: n calls of a leaf that loads two stack slots, adds, and
 *           stores them back
 *
 * n >= 1 (SysV: the count arrives in rdi). The labels inside the functions mark the blocks
 * tests/cli_bench.rs counts instructions in: a function's block runs once, its `_loop` block
 * (and, for mem, the leaf) n times, its `_done` block once.
 */
	.text

	.globl	alu
	.type	alu, @function
alu:
	mov	$1, %eax
	mov	$2, %edx
	mov	$3, %ecx
	mov	$4, %esi
alu_loop:
	add	%rdx, %rax
	add	%rcx, %rdx
	xor	%rax, %rcx
	lea	(%rax,%rdx,4), %rsi
	sub	%rsi, %rcx
	and	%rcx, %rdx
	or	%rsi, %rax
	inc	%r8
	dec	%rdi
	jnz	alu_loop
alu_done:
	ret
	.size	alu, .-alu

	.globl	mem
	.type	mem, @function
mem:
	push	%rbx
	mov	%rdi, %rbx
	sub	$16, %rsp
	movq	$0, (%rsp)
	movq	$0, 8(%rsp)
	mov	$1, %esi
mem_loop:
	call	leaf
	dec	%rbx
	jnz	mem_loop
mem_done:
	add	$16, %rsp
	pop	%rbx
	ret
	.size	mem, .-mem

/* The leaf: the caller's two slots sit above the return address. */
	.type	leaf, @function
leaf:
	mov	8(%rsp), %rax
	mov	16(%rsp), %rdx
	add	%rsi, %rax
	mov	%rax, 8(%rsp)
	mov	%rdx, 16(%rsp)
	ret
	.size	leaf, .-leaf

	.section	.note.GNU-stack,"",@progbits
