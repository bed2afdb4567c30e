#!/usr/bin/env bash
# Regenerates the IA-64 golden corpus (tests/corpus/ia64/golden/ and
# tests/corpus/ia64/errors/*.gas-stderr) from the committed sources, using
# GNU binutils 2.40 for ia64-linux-gnu as the oracle.
#
# Usage: scripts/regen-ia64-golden.sh
#
# For each src/NAME.S it writes golden/NAME.{o,text.hex,objdump,objdump-r,stderr}
# (objdump-r: `objdump -dr`, the disassembly with relocation lines).
# src/NAME_cpp.S files go through `cpp -P -undef -x assembler-with-cpp`
# first; the preprocessed text is assembled as NAME_cpp.S so that file names
# in warnings and in the object's symbol table stay stable.
# For each objects/src/NAME.S (disassembler-only inputs, assembled with the
# kernel's `-x -mconstant-gp`; our assembler is not asked to take them) it
# writes objects/golden/NAME.{o,objdump,objdump-r}.
# For each errors/NAME.S it writes errors/NAME.gas-stderr, preceded by a line
# giving gas's exit status and, when gas produced an object anyway, a summary
# of its relocations and undefined symbols (gas defers undefined symbols to
# the linker instead of rejecting them).
#
# Output is deterministic: files are processed in sorted order under LC_ALL=C
# and the tools are run from inside the directory holding their input so that
# no absolute path leaks into any golden file.
set -euo pipefail

export LC_ALL=C
export LANG=C
unset LANGUAGE || true

AS=${IA64_AS:-ia64-linux-gnu-as}
OBJDUMP=${IA64_OBJDUMP:-ia64-linux-gnu-objdump}
OBJCOPY=${IA64_OBJCOPY:-ia64-linux-gnu-objcopy}
READELF=${IA64_READELF:-ia64-linux-gnu-readelf}
CPP=${CPP:-cpp}
EXPECTED_VERSION="2.40"

die() {
    printf 'regen-ia64-golden: error: %s\n' "$*" >&2
    exit 1
}

for tool in "$AS" "$OBJDUMP" "$OBJCOPY" "$READELF" "$CPP" od sed sort; do
    command -v "$tool" >/dev/null 2>&1 || die "required tool '$tool' not found in PATH (install binutils-ia64-linux-gnu and cpp)"
done

as_version=$("$AS" --version | sed -n '1s/.* \([0-9][0-9.]*\)$/\1/p')
if [[ "$as_version" != "$EXPECTED_VERSION" ]]; then
    die "$AS reports version '$as_version'; the corpus is pinned to GNU as $EXPECTED_VERSION"
fi

script_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
corpus="$script_dir/../tests/corpus/ia64"
[[ -d "$corpus/src" ]] || die "corpus source directory $corpus/src does not exist"
corpus=$(cd "$corpus" && pwd)
src="$corpus/src"
golden="$corpus/golden"
errors="$corpus/errors"
mkdir -p "$golden"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Remove golden files whose source no longer exists, so the directory always
# mirrors src/ exactly.
shopt -s nullglob
for f in "$golden"/*; do
    base=$(basename "$f")
    name=${base%%.*}
    [[ -f "$src/$name.S" ]] || rm -f "$f"
done

# Assembles one source that already sits (possibly preprocessed) in $work
# as NAME.S and writes the four golden files.
emit_golden() {
    local name=$1
    local status=0
    (cd "$work" && "$AS" -x "$name.S" -o "$name.o") 2>"$work/$name.stderr" || status=$?
    if [[ $status -ne 0 ]]; then
        cat "$work/$name.stderr" >&2
        die "$name.S failed to assemble (exit $status)"
    fi
    cp "$work/$name.o" "$golden/$name.o"
    cp "$work/$name.stderr" "$golden/$name.stderr"
    "$OBJCOPY" -O binary -j .text "$work/$name.o" "$work/$name.text.bin"
    local size
    size=$(stat -c %s "$work/$name.text.bin")
    if (( size % 16 != 0 )); then
        die "$name: .text size $size is not a multiple of 16"
    fi
    od -An -v -tx1 -w16 "$work/$name.text.bin" | sed 's/ //g' >"$golden/$name.text.hex"
    (cd "$golden" && "$OBJDUMP" -d "$name.o") >"$work/$name.objdump"
    mv "$work/$name.objdump" "$golden/$name.objdump"
    (cd "$golden" && "$OBJDUMP" -dr "$name.o") >"$work/$name.objdump-r"
    mv "$work/$name.objdump-r" "$golden/$name.objdump-r"
}

count=0
for path in $(cd "$src" && printf '%s\n' *.S | sort); do
    name=${path%.S}
    rm -f "$work"/*
    if [[ "$name" == *_cpp ]]; then
        (cd "$src" && "$CPP" -P -undef -x assembler-with-cpp "$name.S") >"$work/$name.S"
    else
        cp "$src/$name.S" "$work/$name.S"
    fi
    emit_golden "$name"
    count=$((count + 1))
done

ocount=0
objects="$corpus/objects"
if [[ -d "$objects/src" ]]; then
    mkdir -p "$objects/golden"
    for f in "$objects/golden"/*; do
        base=$(basename "$f")
        [[ -f "$objects/src/${base%%.*}.S" ]] || rm -f "$f"
    done
    for path in $(cd "$objects/src" && printf '%s\n' *.S | sort); do
        name=${path%.S}
        rm -f "$work"/*
        cp "$objects/src/$name.S" "$work/$name.S"
        status=0
        (cd "$work" && "$AS" -x -mconstant-gp "$name.S" -o "$name.o") 2>"$work/$name.stderr" || status=$?
        if [[ $status -ne 0 ]]; then
            cat "$work/$name.stderr" >&2
            die "objects/src/$name.S failed to assemble (exit $status)"
        fi
        cp "$work/$name.o" "$objects/golden/$name.o"
        (cd "$objects/golden" && "$OBJDUMP" -d "$name.o") >"$work/$name.objdump"
        (cd "$objects/golden" && "$OBJDUMP" -dr "$name.o") >"$work/$name.objdump-r"
        mv "$work/$name.objdump" "$work/$name.objdump-r" "$objects/golden/"
        ocount=$((ocount + 1))
    done
fi

ecount=0
if [[ -d "$errors" ]]; then
    for path in $(cd "$errors" && printf '%s\n' *.S | sort); do
        name=${path%.S}
        rm -f "$work"/*
        cp "$errors/$name.S" "$work/$name.S"
        status=0
        (cd "$work" && "$AS" -x "$name.S" -o "$name.o") 2>"$work/stderr" || status=$?
        {
            printf '# gas exit status: %d\n' "$status"
            if [[ $status -eq 0 && -f "$work/$name.o" ]]; then
                printf '# gas accepted the input; relocations and undefined symbols follow\n'
                (cd "$work" && "$READELF" -rW "$name.o") | sed -n 's/^\(0[0-9a-f]*\) *[0-9a-f]* *\(R_IA64_[A-Z0-9_]*\) *[0-9a-f]* *\(.*\)$/# reloc \1 \2 \3/p'
                (cd "$work" && "$READELF" -sW "$name.o") | sed -n 's/^.* UND \(.\+\)$/# undefined \1/p'
            fi
            cat "$work/stderr"
        } >"$errors/$name.gas-stderr"
        ecount=$((ecount + 1))
    done
fi

printf 'regen-ia64-golden: %d sources assembled, %d disassembly objects, %d error inputs recorded\n' "$count" "$ocount" "$ecount"
