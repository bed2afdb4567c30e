#!/usr/bin/env bash
# Builds GNU as objects of every arch/ia64 .S file of a Linux source tree, the
# way the kernel build would preprocess and assemble them, for the disassembly
# corpus of tests/ia64_disasm_objects.rs (issue 13).
#
# Usage: scripts/ia64-kernel-objects.sh KERNEL_SRC OUTDIR [accounting|plain]
#
# KERNEL_SRC is an extracted Linux source tree (Debian's linux-source-6.1 holds
# arch/ia64). Nothing is written into it: the headers a kernel build generates
# (autoconf.h, asm-offsets.h, syscall_table.h, unistd_64.h, the asm-generic
# wrappers) are made under OUTDIR/gen, the preprocessed text goes to
# OUTDIR/NAME.s and GNU as's object to OUTDIR/NAME.o (NAME is the path below
# arch/ia64 with `/` as `-`: kernel-entry). OUTDIR/list names, one a line, each
# NAME whose object was made; a file gas rejects is listed in OUTDIR/failed
# with gas's first error and is no failure of this script. gate-data.S needs
# the gate DSO, linked here with ia64-linux-gnu-ld as the kernel build does.
#
# The configuration is a hand-made one close to generic_defconfig (the values
# below); `accounting` (the default) adds CONFIG_VIRT_CPU_ACCOUNTING_NATIVE.
# asm-offsets.h is not computed (no ia64 C compiler): each DEFINE of
# arch/ia64/kernel/asm-offsets.c gets a distinct multiple of 16 within its
# structure, so the text assembles; the values change immediates, not which
# instructions there are, which is all a disassembly corpus needs.
set -euo pipefail
export LC_ALL=C

src=${1:?usage: ia64-kernel-objects.sh KERNEL_SRC OUTDIR [accounting|plain]}
out=${2:?usage: ia64-kernel-objects.sh KERNEL_SRC OUTDIR [accounting|plain]}
flavour=${3:-accounting}
AS=${IA64_AS:-ia64-linux-gnu-as}
LD=${IA64_LD:-ia64-linux-gnu-ld}
CPP=${CPP:-cpp}

[[ -d "$src/arch/ia64" ]] || { echo "ia64-kernel-objects: $src has no arch/ia64" >&2; exit 1; }
src=$(cd "$src" && pwd)
mkdir -p "$out"
out=$(cd "$out" && pwd)
gen="$out/gen"
rm -rf "$gen"
mkdir -p "$gen/include/generated" "$gen/arch/ia64/include/generated/asm" "$gen/arch/ia64/include/generated/uapi/asm"

# --- include/generated/autoconf.h -------------------------------------------
{
    for c in IA64 64BIT MMU SMP NUMA IA64_GENERIC IA64_PAGE_SIZE_16KB IA64_MCA_RECOVERY \
        PERFMON IA64_PALINFO EFI ACPI MODULES HOTPLUG_CPU FLATMEM PREEMPT_NONE \
        IA64_HP_SIM_NOT GENERIC_IRQ_PROBE ARCH_SPARSEMEM_ENABLE HAVE_VIRT_CPU_ACCOUNTING \
        KEXEC CRASH_DUMP IA64_GRANULE_64MB; do
        printf '#define CONFIG_%s 1\n' "$c"
    done
    printf '#define CONFIG_PGTABLE_LEVELS 3\n'
    printf '#define CONFIG_IA64_L1_CACHE_SHIFT 7\n'
    printf '#define CONFIG_NR_CPUS 512\n'
    printf '#define CONFIG_NODES_SHIFT 10\n'
    printf '#define CONFIG_FORCE_MAX_ZONEORDER 17\n'
    printf '#define CONFIG_HZ 250\n'
    printf '#define CONFIG_PAGE_OFFSET 0xe000000000000000\n'
    if [[ "$flavour" == accounting ]]; then
        printf '#define CONFIG_VIRT_CPU_ACCOUNTING 1\n'
        printf '#define CONFIG_VIRT_CPU_ACCOUNTING_NATIVE 1\n'
    else
        printf '#define CONFIG_TICK_CPU_ACCOUNTING 1\n'
    fi
} >"$gen/include/generated/autoconf.h"

# --- include/generated/asm-offsets.h ----------------------------------------
# struct pt_regs and struct switch_stack are laid out from the tree's own uapi
# ptrace.h (every field there is an 8-byte `unsigned long` or a 16-byte,
# 16-aligned `struct ia64_fpreg`); every other DEFINE(NAME, ...) gets 16 times
# its index among the DEFINEs sharing its first two `_` words (a stand-in for
# one structure, the first at 0 as fsys.S checks), constants as written.
layout() {
    awk -v want="$1" '
        $0 ~ "^struct " want " {" { on = 1; off = 0; next }
        on && /^};/ { printf "%s.SIZE %d\n", want, (off + 15) - (off + 15) % 16; exit }
        on && /^[ \t]*(unsigned long|struct ia64_fpreg)[ \t]/ {
            line = $0; sub(/;.*/, "", line); sub(/.*[ \t*]/, "", line)
            sz = ($0 ~ /ia64_fpreg/) ? 16 : 8
            if (off % sz) off += sz - off % sz
            printf "%s.%s %d\n", want, line, off
            off += sz
        }
    ' "$src/arch/ia64/include/uapi/asm/ptrace.h"
}
{ layout pt_regs; layout switch_stack; } >"$gen/struct-layout"
awk -v RS=';' '
    NR == FNR { split($0, lines, "\n"); for (i in lines) if (split(lines[i], kv, " ") == 2) lay[kv[1]] = kv[2]; next }
    /DEFINE\(/ {
        stmt = $0
        gsub(/[\n\t]+/, " ", stmt)
        sub(/.*DEFINE\( */, "", stmt)
        name = stmt; sub(/[ ,].*/, "", name)
        rest = stmt; sub(/^[A-Z0-9_]+ *, */, "", rest); sub(/\) *$/, "", rest)
        if (name in seen) next
        seen[name] = 1
        if (rest ~ /^[0-9]+$/) { printf "#define %s %s\n", name, rest; next }
        if (name == "IA64_CLONE_VFORK") { print "#define IA64_CLONE_VFORK 16384"; next }
        if (name == "IA64_CLONE_VM") { print "#define IA64_CLONE_VM 256"; next }
        if (match(rest, /struct (pt_regs|switch_stack) *, *[a-z0-9_]+/)) {
            f = substr(rest, RSTART, RLENGTH); sub(/struct /, "", f); gsub(/ /, "", f); sub(/,/, ".", f)
            if (f in lay) { printf "#define %s %d\n", name, lay[f]; next }
        }
        if (rest ~ /sizeof *\(struct pt_regs\)/) { printf "#define %s %d\n", name, lay["pt_regs.SIZE"]; next }
        if (rest ~ /sizeof *\(struct switch_stack\)/) { printf "#define %s %d\n", name, lay["switch_stack.SIZE"]; next }
        if (rest ~ /sizeof/) { printf "#define %s %d\n", name, 1024; next }
        split(name, w, "_")
        group = w[1] "_" w[2]
        printf "#define %s %d\n", name, 16 * count[group]++
    }
' "$gen/struct-layout" "$src/arch/ia64/kernel/asm-offsets.c" >"$gen/include/generated/asm-offsets.h"

# --- syscall headers (scripts/syscalltbl.sh, syscallhdr.sh --offset __NR_Linux)
tbl="$src/arch/ia64/kernel/syscalls/syscall.tbl"
grep -E '^[0-9]' "$tbl" | sort -n | awk '
    { nr = $1; entry = $4
      while (next_nr < nr) { printf "__SYSCALL(%d, sys_ni_syscall)\n", next_nr; next_nr++ }
      if (entry == "") entry = "sys_ni_syscall"
      printf "__SYSCALL(%d, %s)\n", nr, entry; next_nr = nr + 1 }
' >"$gen/arch/ia64/include/generated/asm/syscall_table.h"
{
    printf '#ifndef _UAPI_ASM_UNISTD_64_H\n#define _UAPI_ASM_UNISTD_64_H\n\n'
    grep -E '^[0-9]' "$tbl" | sort -n | awk '{ printf "#define __NR_%s (__NR_Linux + %d)\n", $3, $1; last = $1 }
        END { printf "\n#ifdef __KERNEL__\n#define __NR_syscalls %d\n#endif\n", last + 1 }'
    printf '\n#endif\n'
} >"$gen/arch/ia64/include/generated/uapi/asm/unistd_64.h"

# --- asm-generic wrappers (mandatory-y / generic-y the arch does not provide)
for kb in "$src/include/asm-generic/Kbuild" "$src/arch/ia64/include/asm/Kbuild"; do
    [[ -f "$kb" ]] || continue
    sed -n 's/^\(mandatory\|generic\)-y *+= *\([^ ]*\.h\).*/\2/p' "$kb"
done | sort -u | while read -r h; do
    [[ -f "$src/arch/ia64/include/asm/$h" ]] && continue
    printf '#include <asm-generic/%s>\n' "$h" >"$gen/arch/ia64/include/generated/asm/$h"
done

sed -n 's/^mandatory-y *+= *\([^ ]*\.h\).*/\1/p' "$src/include/uapi/asm-generic/Kbuild" | sort -u | while read -r h; do
    [[ -f "$src/arch/ia64/include/uapi/asm/$h" ]] && continue
    printf '#include <asm-generic/%s>\n' "$h" >"$gen/arch/ia64/include/generated/uapi/asm/$h"
done

# --- preprocess and assemble -------------------------------------------------
# The host cpp stands in for the ia64 gcc the kernel build runs: -undef drops the
# host's predefined macros and the ia64 compiler's that these files can test are
# given by hand; the rest is the kernel's LINUXINCLUDE and KBUILD_AFLAGS/CPPFLAGS
# for arch/ia64 (top Makefile, arch/ia64/Makefile).
flags=(-nostdinc -x assembler-with-cpp -D__ASSEMBLY__ -D__KERNEL__ -D__ia64__ -D__ia64 -D__LP64__
    -D__linux__ -D__unix__ -D__ELF__ -D__LITTLE_ENDIAN__ -D__BYTE_ORDER__=__ORDER_LITTLE_ENDIAN__
    -D__ORDER_LITTLE_ENDIAN__=1234 -D__ORDER_BIG_ENDIAN__=4321 -D__SIZEOF_LONG__=8 -D__CHAR_BIT__=8
    -DHAVE_WORKING_TEXT_ALIGN -DHAVE_MODEL_SMALL_ATTRIBUTE -DHAVE_SERIALIZE_DIRECTIVE
    -undef
    -I "$src/arch/ia64/include" -I "$gen/arch/ia64/include/generated"
    -I "$src/include" -I "$gen/include"
    -I "$src/arch/ia64/include/uapi" -I "$gen/arch/ia64/include/generated/uapi"
    -I "$src/include/uapi"
    -include "$src/include/linux/kconfig.h")

# gate-data.S embeds the gate DSO (`.incbin "arch/ia64/kernel/gate.so"`, found from
# the directory gas runs in): link it as arch/ia64/kernel/Makefile.gate does, from
# gate.S and the preprocessed gate.lds.S.
build_gate_so() {
    command -v "$LD" >/dev/null 2>&1 || return 1
    local k="$src/arch/ia64/kernel"
    "$CPP" "${flags[@]}" -I "$k" "$k/gate.S" -o "$out/gate-so.s" 2>/dev/null || return 1
    (cd "$out" && "$AS" -x -mconstant-gp gate-so.s -o gate-so.o) 2>/dev/null || return 1
    "$CPP" "${flags[@]}" -P -C -Uia64 -DLINKER_SCRIPT -I "$k" "$k/gate.lds.S" -o "$out/gate.lds" 2>/dev/null || return 1
    mkdir -p "$out/arch/ia64/kernel"
    "$LD" -shared -s -soname=linux-gate.so.1 --hash-style=sysv -T "$out/gate.lds" "$out/gate-so.o" \
        -o "$out/arch/ia64/kernel/gate.so" 2>"$out/gate-so.ld-stderr"
}

: >"$out/list"
: >"$out/failed"
rm -f "$out/arch/ia64/kernel/gate.so"
for path in $(cd "$src/arch/ia64" && find kernel lib scripts -name '*.S' ! -name '*.lds.S' | sort); do
    name=${path%.S}
    name=${name//\//-}
    dir=$(dirname "$src/arch/ia64/$path")
    if [[ "$name" == kernel-gate-data && ! -f "$out/arch/ia64/kernel/gate.so" ]] && ! build_gate_so; then
        printf '%s ld: cannot link arch/ia64/kernel/gate.so (%s)\n' "$name" "$LD" >>"$out/failed"
        continue
    fi
    if ! "$CPP" "${flags[@]}" -I "$dir" "$src/arch/ia64/$path" -o "$out/$name.s" 2>"$out/$name.cpp-stderr"; then
        printf '%s cpp: %s\n' "$name" "$(head -1 "$out/$name.cpp-stderr")" >>"$out/failed"
        continue
    fi
    if ! (cd "$out" && "$AS" -x -mconstant-gp "$name.s" -o "$name.o") 2>"$out/$name.as-stderr"; then
        printf '%s as: %s\n' "$name" "$(grep -m1 -i error "$out/$name.as-stderr" || head -1 "$out/$name.as-stderr")" >>"$out/failed"
        rm -f "$out/$name.o"
        continue
    fi
    printf '%s\n' "$name" >>"$out/list"
done
