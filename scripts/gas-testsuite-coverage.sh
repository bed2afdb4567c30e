#!/usr/bin/env bash
# Measures how much of GNU as's own IA-64 test-suite input our assembler handles.
#
# Usage: scripts/gas-testsuite-coverage.sh DIR
#
# DIR holds copies of binutils' gas/testsuite/gas/ia64/*.s (not part of this
# repository: fetch them yourself). For every DIR/*.s the script runs
# `ia64-linux-gnu-as -x` and `acctemu asm`, and reports:
#   - how many files GNU as accepts, how many we accept, and how many of the
#     files both accept give GNU as's exact .text bytes and its exact object;
#   - the instructions and `@` keywords our assembler does not know, most
#     frequent first (counted once per source line), and every error message
#     by kind (names folded to X, numbers to N).
# Two comparisons: the whole object `acctemu asm -o` writes against GNU as's,
# byte for byte; and `.text` alone (`acctemu asm --raw`) against
# `objcopy -O binary -j .text` of GNU as's object.
# Messages: every warning and error of both, reduced to `LINE: Kind: text` (gas's
# `FILE:LINE: Error:` / `Warning:`, our `FILE:LINE:COL: error:` / `warning:` /
# `note:`, the note being gas's "location of the conflicting usage" warning), are
# compared per file, in order; the summary counts the files whose lists are equal.
# MSGDIFF=1 prints the first differing lines of each file whose messages differ.
#
# The acctemu binary is $ACCTEMU, or target/debug/acctemu built on demand.
set -euo pipefail

export LC_ALL=C
AS=${IA64_AS:-ia64-linux-gnu-as}
OBJCOPY=${IA64_OBJCOPY:-ia64-linux-gnu-objcopy}
TOP=${TOP:-20}

if [ $# -ne 1 ] || [ ! -d "$1" ]; then
    echo "usage: $0 DIR   (DIR holds gas/testsuite/gas/ia64/*.s)" >&2
    exit 2
fi
dir=$1
root=$(cd "$(dirname "$0")/.." && pwd)
if [ -z "${ACCTEMU:-}" ]; then
    (cd "$root" && cargo build -q --bin acctemu)
    ACCTEMU=$root/target/debug/acctemu
fi
command -v "$AS" >/dev/null || { echo "$AS not found" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

total=0 gas_ok=0 ours_ok=0 both=0 same=0 same_obj=0 same_msg=0 gas_msgs=0 our_msgs=0

# gas's stderr and ours as `LINE: Error|Warning: text`, one a line, file names dropped.
gas_messages() {
    sed -n -e 's/^[^:]*:\([0-9][0-9]*\): \(Error\|Warning\): /\1: \2: /p' "$1"
}
our_messages() {
    sed -n -e 's/^[^:]*:\([0-9][0-9]*\):[0-9][0-9]*: error: /\1: Error: /p' \
        -e 's/^[^:]*:\([0-9][0-9]*\):[0-9][0-9]*: \(warning\|note\): /\1: Warning: /p' "$1"
}
: >"$work/unknown"
: >"$work/keywords"
: >"$work/messages"
for src in "$dir"/*.s; do
    [ -e "$src" ] || continue
    name=$(basename "$src" .s)
    total=$((total + 1))
    g=no o=no verdict=""
    # Assemble from inside DIR so that `.include` finds its neighbours.
    if (cd "$dir" && "$AS" -x "$name.s" -o "$work/$name.o") >/dev/null 2>"$work/$name.gas.err"; then
        g=yes
        gas_ok=$((gas_ok + 1))
        "$OBJCOPY" -O binary -j .text "$work/$name.o" "$work/$name.gas.bin"
    fi
    if (cd "$dir" && "$ACCTEMU" asm "$name.s" --raw -o "$work/$name.ours.bin") >/dev/null 2>"$work/$name.err"; then
        o=yes
        ours_ok=$((ours_ok + 1))
        (cd "$dir" && "$ACCTEMU" asm "$name.s" -o "$work/$name.ours.o") >/dev/null 2>&1 || true
    else
        # One entry per source line: the unknown mnemonic, and each unknown `@keyword`.
        grep -o "unknown instruction \`[^\`]*\`" "$work/$name.err" | sed 's/.*`\(.*\)`/\1/' >>"$work/unknown" || true
        grep -o "unknown keyword '@[A-Za-z0-9_]*'" "$work/$name.err" | sed "s/.*'\(.*\)'/\1/" >>"$work/keywords" || true
        # Every error message without its location, quoted names folded.
        grep ': error: ' "$work/$name.err" | sed -e 's/^.*: error: //' -e 's/`[^`]*`/`X`/g' -e "s/'[^']*'/'X'/g" -e 's/[0-9][0-9]*/N/g' >>"$work/messages" || true
    fi
    gas_messages "$work/$name.gas.err" >"$work/$name.gas.msg"
    our_messages "$work/$name.err" >"$work/$name.ours.msg"
    gas_msgs=$((gas_msgs + $(wc -l <"$work/$name.gas.msg")))
    our_msgs=$((our_msgs + $(wc -l <"$work/$name.ours.msg")))
    if cmp -s "$work/$name.gas.msg" "$work/$name.ours.msg"; then
        same_msg=$((same_msg + 1))
        msgs="messages identical ($(wc -l <"$work/$name.gas.msg"))"
    else
        msgs="messages differ (gas $(wc -l <"$work/$name.gas.msg"), ours $(wc -l <"$work/$name.ours.msg"))"
    fi
    if [ $g = yes ] && [ $o = yes ]; then
        both=$((both + 1))
        if cmp -s "$work/$name.gas.bin" "$work/$name.ours.bin"; then
            same=$((same + 1))
            verdict="identical"
        else
            verdict="bytes differ"
        fi
        if cmp -s "$work/$name.o" "$work/$name.ours.o"; then
            same_obj=$((same_obj + 1))
            verdict="$verdict, object identical"
        else
            verdict="$verdict, object differs"
        fi
    fi
    printf '%-20s gas:%-3s ours:%-3s %s%s%s\n' "$name" "$g" "$o" "$verdict" "${verdict:+; }" "$msgs"
    if [ -n "${MSGDIFF:-}" ] && ! cmp -s "$work/$name.gas.msg" "$work/$name.ours.msg"; then
        diff "$work/$name.gas.msg" "$work/$name.ours.msg" | head -n "${MSGDIFF_LINES:-8}" | sed 's/^/    /' || true
    fi
done

echo
echo "files: $total; GNU as accepts $gas_ok; we accept $ours_ok; both accept $both; identical .text $same; identical objects $same_obj"
echo "messages: files with identical warnings and errors $same_msg of $total; lines gas $gas_msgs, ours $our_msgs"
echo
echo "unknown instructions (top $TOP of $(sort -u "$work/unknown" | wc -l) distinct, $(wc -l <"$work/unknown") lines):"
sort "$work/unknown" | uniq -c | sort -rn | head -n "$TOP"
echo
echo "unknown instructions by base name, before the first '.' (top $TOP of $(sed 's/\..*//' "$work/unknown" | sort -u | wc -l)):"
sed 's/\..*//' "$work/unknown" | sort | uniq -c | sort -rn | head -n "$TOP"
echo
echo "error messages by kind (top $TOP):"
sort "$work/messages" | uniq -c | sort -rn | head -n "$TOP"
echo
echo "unknown @ keywords (top $TOP):"
sort "$work/keywords" | uniq -c | sort -rn | head -n "$TOP"
