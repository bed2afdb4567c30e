#!/bin/sh
# Runs llvm-mca-19 on the kernels of calibrate.c (same element bodies, Intel syntax-free AT&T) for
# -mcpu=sapphirerapids (the Golden Cove preset) and -mcpu=znver4 (this machine), and writes
# mca.txt beside this script: per kernel, the cycles per element llvm-mca predicts
# (Total Cycles / iterations / elements). Needs llvm-mca-19 (apt-get install llvm-19).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
mca=${LLVM_MCA:-llvm-mca-19}
tmp=$(mktemp -d /tmp/mca.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
k() { printf '%s\n' "$2" > "$tmp/$1.s"; }
k add_chain 'add %rcx, %rax'
k imul_chain 'imul %rcx, %rax'
k mul_chain 'mul %rcx'
k div32_chain 'xor %edx, %edx
divl (%rsi)
or %ebx, %eax'
k idiv32_chain 'xor %edx, %edx
idivl (%rsi)
or %ebx, %eax'
k div64_chain 'xor %edx, %edx
divq (%rsi)
or %rbx, %rax'
k idiv64_chain 'xor %edx, %edx
idivq (%rsi)
or %rbx, %rax'
k load_chain 'mov (%rax), %rax'
k stlf_chain 'mov %rax, 8(%rdi)
mov 8(%rdi), %rax'
k rdtsc 'rdtsc'
k rdtscp 'rdtscp'
k lfence 'lfence'
k mfence 'mfence'
k pushf_popf 'pushfq
popfq'
k pushf_pop 'pushfq
pop %rdx'
k lock_cmpxchg 'lock cmpxchg %rcx, 16(%rdi)'
k lock_add 'lock addq $1, 16(%rdi)'
k cmpxchg 'cmpxchg %rcx, 16(%rdi)'
k jmp_taken 'jmp 1f
1:'
k pause 'pause'
{
	echo "# llvm-mca cycles per element, written by mca.sh; $($mca --version | grep -m1 -i version)"
	echo "# kernel sapphirerapids znver4 (div chains include the 1-cycle or, as calibrate.c before subtracting)"
	echo "# call/ret is left out: llvm-mca does not follow control flow"
	for f in "$tmp"/*.s; do
		name=$(basename "$f" .s)
		row="$name"
		for cpu in sapphirerapids znver4; do
			out=$($mca -mtriple=x86_64 -mcpu=$cpu -iterations=1000 "$f" 2>&1 || true)
			cyc=$(printf '%s\n' "$out" | awk '/^Total Cycles:/ {print $3}')
			row="$row $(awk -v c="${cyc:-0}" 'BEGIN { printf "%.2f", c / 1000 }')"
		done
		echo "$row"
	done
} > "$here/mca.txt"
cat "$here/mca.txt"
