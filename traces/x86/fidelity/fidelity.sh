#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The fidelity table of the x86 model (issue 5, "Fidelity"): for each trace function on a fixed
# input, core cycles per call measured on this machine, predicted by the model (arch-x86, its
# default parameters), and predicted by llvm-mca-19 for Sapphire Rapids and Zen 4. Writes
# fidelity.md beside this script.
#
#   sh traces/x86/fidelity/fidelity.sh        (needs gcc, llvm-mca-19, cargo, taskset)
#
# Steps:
#   1. Each catalogue object is rebuilt from its source with the flags of ../build.sh (read from
#      that script, so they cannot drift) as assembly; `cli` lines are deleted (cli faults at
#      CPL 3; pushf/pop and popf stay, popf leaves IF alone in user mode); the result is
#      assembled: OBJ-user.o. The model and the native program both run these objects.
#   2. Native: one measurement program per object (nohz_fid.c, sched_avg_fid.c,
#      timer_target_fid.c with measure.h), gcc -O2 -no-pie, run pinned with taskset -c 1,
#      FIDELITY_ROUNDS times (default 3); the table takes each figure's median over the rounds.
#   3. Model: the crate in model/ runs the same functions on the same state in the emulator,
#      back to back and drained, and writes the instructions one call executed as AT&T text.
#   4. llvm-mca-19 -iterations=100 on each of those instruction sequences, -mcpu=sapphirerapids
#      and -mcpu=znver4: Total Cycles / 100 per call.
#   5. table.py joins the rows into fidelity.md.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
x86=$(cd "$here/.." && pwd)
root=$(cd "$x86/../.." && pwd)
work=${FIDELITY_WORK:-$(mktemp -d /tmp/fidelity.XXXXXX)}
mkdir -p "$work"
CC=${CC:-gcc}
MCA=${LLVM_MCA:-llvm-mca-19}
ROUNDS=${FIDELITY_ROUNDS:-3}
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$root/target}

# --- 1. the objects, without cli ---------------------------------------------------------
CFLAGS=$(sed -n '/^CFLAGS="/,/"$/p' "$x86/build.sh" | sed -e 's/^CFLAGS="//' -e 's/"$//' -e 's/\\$//' | tr '\n' ' ')
[ -n "$CFLAGS" ] || { echo "fidelity.sh: no CFLAGS in $x86/build.sh" >&2; exit 1; }

# obj source define...  (the same list as build.sh)
objects='nohz-syscall-v4.5-rc1 nohz_syscall.c -DPATCHES=0
nohz-syscall-patch1 nohz_syscall.c -DPATCHES=1
nohz-syscall-patch3 nohz_syscall.c -DPATCHES=3
nohz-syscall-patch4 nohz_syscall.c -DPATCHES=4
nohz-syscall-housekeeping nohz_syscall.c -DPATCHES=4
sched-avg-loop sched_avg.c -DSCHED_AVG_DIV=0
sched-avg-div sched_avg.c -DSCHED_AVG_DIV=1
timer-target-old timer_target.c -DTIMER_TARGET_NEW=0
timer-target-new timer_target.c -DTIMER_TARGET_NEW=1'

: > "$work/cli.txt"
printf '%s\n' "$objects" | while read -r obj src def; do
	# shellcheck disable=SC2086
	(cd "$x86" && "$CC" $CFLAGS $def -S "$src" -o "$work/$obj.s")
	n=$(grep -c '^[[:space:]]*cli[[:space:]]*$' "$work/$obj.s" || true)
	grep -v '^[[:space:]]*cli[[:space:]]*$' "$work/$obj.s" > "$work/$obj-user.s"
	"$CC" -c "$work/$obj-user.s" -o "$work/$obj-user.o"
	echo "$obj $n" >> "$work/cli.txt"
done

# --- 2. native measurements ----------------------------------------------------------------
native() {
	obj=$1
	drv=$2
	shift 2
	"$CC" -O2 -no-pie -Wall -Wextra -Werror "$@" -DOBJ="\"$obj\"" -I"$here" "$here/$drv" \
		"$work/$obj-user.o" -o "$work/$obj-native"
	: > "$work/$obj-native.txt"
	r=0
	while [ "$r" -lt "$ROUNDS" ]; do
		taskset -c 1 "$work/$obj-native" >> "$work/$obj-native.txt"
		r=$((r + 1))
	done
	# Per row and column, the median over the rounds: one round disturbed by other work on
	# this shared machine moves neither figure.
	awk '$1 == "ROW" {
		k = $2
		if (!(k in seen)) { seen[k] = ++nk; keys[nk] = k }
		m = ++cnt[k]; fr[k, m] = $3; fe[k, m] = $4; calls[k] = $5
		next
	}
	$1 == "MEDIAN" {
		k = $2
		m = ++mcnt[k]; mr[k, m] = $3; me[k, m] = $4
		next
	}
	$1 == "RESULT" && seen_result[$2]++ { next }
	{ print }
	function median(a, k, n,    i, j, t, v) {
		for (i = 1; i <= n; i++) v[i] = a[k, i]
		for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
		return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
	}
	END {
		for (i = 1; i <= nk; i++) {
			k = keys[i]
			printf "ROW %s %.2f %.2f %s\n", k, median(fr, k, cnt[k]), median(fe, k, cnt[k]), calls[k]
			if (mcnt[k]) printf "MEDIAN %s %.2f %.2f\n", k, median(mr, k, mcnt[k]), median(me, k, mcnt[k])
		}
	}' "$work/$obj-native.txt"
}
: > "$work/native.txt"
{
	native nohz-syscall-v4.5-rc1 nohz_fid.c -DVTIME_SNAP=0 -DCT_ACTIVE=1
	native nohz-syscall-patch1 nohz_fid.c -DVTIME_SNAP=0 -DCT_ACTIVE=1
	native nohz-syscall-patch3 nohz_fid.c -DVTIME_SNAP=0 -DCT_ACTIVE=1
	native nohz-syscall-patch4 nohz_fid.c -DVTIME_SNAP=4294667296ULL -DCT_ACTIVE=1
	native nohz-syscall-housekeeping nohz_fid.c -DVTIME_SNAP=4294667296ULL -DCT_ACTIVE=0
	native sched-avg-loop sched_avg_fid.c
	native sched-avg-div sched_avg_fid.c
	native timer-target-old timer_target_fid.c
	native timer-target-new timer_target_fid.c
} > "$work/native.txt"

# The rebuilt objects must be the catalogue's code apart from the cli lines: compare the
# instruction text (no addresses, branch targets and nops dropped: the deleted bytes move
# every later address, so alignment padding differs) with the committed object's.
insns() {
	objdump -d --no-addresses --no-show-raw-insn "$1" | grep -P '^\t' |
		sed -E -e 's/[0-9a-f]* ?<[^>]*>//' -e 's/[[:space:]]+$//' | grep -v -P '^\t(nop|xchg   %ax,%ax|data16|cs nop)'
}
: > "$work/objcheck.txt"
while read -r obj n; do
	insns "$x86/obj/$obj.o" | grep -v -P '^\tcli$' > "$work/$obj.cat.txt"
	insns "$work/$obj-user.o" > "$work/$obj.user.txt"
	if cmp -s "$work/$obj.cat.txt" "$work/$obj.user.txt"; then
		echo "$obj: same instructions as obj/$obj.o without its $n cli" >> "$work/objcheck.txt"
	else
		echo "$obj: DIFFERS from obj/$obj.o beyond its $n cli (stale object or other gcc)" >> "$work/objcheck.txt"
	fi
done < "$work/cli.txt"

# --- 3. the model -------------------------------------------------------------------------------
# The preset of the host's core, from CPUID (issue 15): Intel family 6 is taken as Golden Cove
# (these machines are Sapphire Rapids guests, shared/reference/x86-host.md), AMD family 25 (0x19)
# as Zen 4. FIDELITY_PRESET overrides; any other CPU must name one.
vendor=$(grep -m1 '^vendor_id' /proc/cpuinfo | sed 's/^[^:]*: //')
family=$(grep -m1 '^cpu family' /proc/cpuinfo | sed 's/^[^:]*: //')
case "${FIDELITY_PRESET:-$vendor/$family}" in
golden-cove | GenuineIntel/6) preset=golden-cove ;;
zen4 | AuthenticAMD/25) preset=zen4 ;;
*)
	echo "fidelity.sh: no preset for $vendor family $family; set FIDELITY_PRESET=golden-cove or zen4" >&2
	exit 1
	;;
esac
(cd "$here/model" && cargo build --offline --quiet)
model="$CARGO_TARGET_DIR/debug/fidelity-model"
rm -rf "$work/mca" && mkdir -p "$work/mca"
"$model" --preset "$preset" "$work" -user.o "$x86/harness" "$work/mca" > "$work/model.txt"
"$model" --preset "$preset" "$x86/obj" .o "$x86/harness" > "$work/model-catalogue.txt"
cat "$work/model.txt"

# --- 4. llvm-mca on each executed-instruction listing ---------------------------------------
# -call-latency=1: the listing already holds the callee's instructions, so a call is a push and a
# jump, not llvm-mca's default 100-cycle stand-in for an unseen function.
: > "$work/mca.txt"
for f in "$work"/mca/*.s; do
	key=$(basename "$f" .s)
	for cpu in sapphirerapids znver4; do
		cyc=$("$MCA" -mtriple=x86_64 -mcpu=$cpu -iterations=100 -call-latency=1 "$f" 2>/dev/null |
			awk '/^Total Cycles:/ {print $3}')
		[ -n "$cyc" ] || { echo "fidelity.sh: llvm-mca failed on $f ($cpu)" >&2; exit 1; }
		echo "MCA $key $cpu $(awk -v c="$cyc" 'BEGIN { printf "%.2f", c / 100 }')" >> "$work/mca.txt"
	done
done

# --- 5. the table ---------------------------------------------------------------------------------
cpuinfo() { grep -m1 "^$1[[:space:]]*:" /proc/cpuinfo | sed 's/^[^:]*: //'; }
{
	echo "date=$(date -u +%Y-%m-%dT%H:%MZ)"
	echo "commit=$(cd "$root" && git rev-parse --short HEAD 2>/dev/null || echo unknown)"
	echo "cpu=$(cpuinfo 'model name')"
	echo "vendor=$(cpuinfo vendor_id)"
	echo "family=$(cpuinfo 'cpu family')"
	echo "model=$(cpuinfo model)"
	echo "tsc_mhz=$(cpuinfo 'cpu MHz')"
	echo "nproc=$(nproc)"
	echo "preset=$preset"
	echo "load=$(cut -d' ' -f1-3 /proc/loadavg)"
	echo "gcc=$("$CC" -dumpfullversion)"
	echo "mca=$("$MCA" --version | grep -m1 -i 'llvm version' | sed 's/^ *//')"
} > "$work/env.txt"
python3 "$here/table.py" "$work" "$here/fidelity.md"
echo "fidelity.sh: wrote $here/fidelity.md (work files in $work)"
