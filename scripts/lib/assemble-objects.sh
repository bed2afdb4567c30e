#!/usr/bin/env bash
# Shared body of the object regenerators: assembles every NAME.S in one directory to NAME.o with
# GNU as 2.40 for ia64 (`ia64-linux-gnu-as -x`, run inside a temp dir so no path leaks into the
# object).
#
# Usage: scripts/lib/assemble-objects.sh TAG DIR
# TAG names the calling script in messages; DIR is relative to the repository root.
# The tool can be overridden with IA64_AS. Deterministic: sorted order, LC_ALL=C.
set -euo pipefail
export LC_ALL=C

tag=$1
AS=${IA64_AS:-ia64-linux-gnu-as}
command -v "$AS" >/dev/null 2>&1 || { echo "$tag: $AS not found (install binutils-ia64-linux-gnu)" >&2; exit 1; }
version=$("$AS" --version | sed -n '1s/.* \([0-9][0-9.]*\)$/\1/p')
[[ "$version" == "2.40" ]] || { echo "$tag: $AS is $version; the objects are pinned to 2.40" >&2; exit 1; }

dir=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../$2" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
count=0
for path in $(cd "$dir" && printf '%s\n' *.S | sort); do
    name=${path%.S}
    rm -f "$work"/*
    cp "$dir/$name.S" "$work/$name.S"
    (cd "$work" && "$AS" -x "$name.S" -o "$name.o") 2>/dev/null || { echo "$tag: $name.S failed" >&2; exit 1; }
    cp "$work/$name.o" "$dir/$name.o"
    count=$((count + 1))
done
echo "$tag: $count objects written"
