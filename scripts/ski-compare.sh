#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# acctemu's IA-64 core side by side with Ski (github trofi/ski, the IA-64 simulator without a
# timing model), on the SAME loop bodies: traces/bench/ia64_loops.S, `alu` and `mem`.
#
#   scripts/ski-compare.sh                       (the defaults below)
#   SKI=/tmp/ski-build/ski/src/bski ACCTEMU=target/release/acctemu PAIRS=5 scripts/ski-compare.sh
#
# Ski is not built here: build it in a scratch directory outside the repository, e.g.
#
#   git clone https://github.com/trofi/ski /tmp/ski-build/ski && cd /tmp/ski-build/ski
#   ./autogen.sh && ./configure && make        # apt: autoconf automake libtool bison flex gperf
#                                              #      libelf-dev binutils-dev libiberty-dev
#                                              #      libncurses-dev autoconf-archive pkg-config
#
# and point SKI at its `src/bski`. Nothing of Ski is copied into the repository; this script
# only runs it.
#
# What it does, per loop (alu, mem):
#  1. Ski's program: a small static ia64 ELF, made in a scratch directory by GNU as (explicit
#     mode, `-x`, the bundles as written) and ld from a tiny stub that sets r14 to the iteration
#     count, calls the loop's entry and exits (exit_group), with `.include` of
#     traces/bench/ia64_loops.S itself, so both simulators run the same bytes of loop body.
#  2. CPU seconds, paired runs: PAIRS times, Ski on N iterations then acctemu's rows
#     `ia64 loop/NAME on` and `... off` on N iterations (`acctemu bench --row`). Ski's figure is
#     its whole process's user+sys time (bash `time`) less that of a 1-iteration run (loading
#     and start-up); acctemu's is the row's own `cpu_seconds` (the measured run only). Slots per
#     CPU second for each (M/s: millions), and the ratio acctemu / Ski of each pair; the
#     median is printed.
#  3. Host instructions per emulated slot (with valgrind): Ski under callgrind at CG_N and
#     2*CG_N iterations, the difference of the totals over the difference of the slots Ski
#     counted (`bski -stats`); acctemu with `acctemu bench --callgrind` at the same lengths
#     (which counts only its measured run, the same run-length difference). The ratio
#     acctemu / Ski.
# Slots are instruction slots retired, nops included (every bundle of the loops retires its
# three); Ski's count and acctemu's agree, which the script checks.
#
# Environment: SKI (default /tmp/ski-build/ski/src/bski, else `bski` on PATH), ACCTEMU
# (default target/release/acctemu), N (default 5000000), CG_N (default 50000), PAIRS
# (default 3), AS/LD (default ia64-linux-gnu-as/-ld), VALGRIND (default valgrind; empty to
# skip step 3), WORK (scratch directory, default a fresh mktemp -d, removed at the end).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
loops_src=$root/traces/bench/ia64_loops.S

SKI=${SKI:-}
if [ -z "$SKI" ]; then
	if [ -x /tmp/ski-build/ski/src/bski ]; then SKI=/tmp/ski-build/ski/src/bski; else SKI=$(command -v bski || true); fi
fi
ACCTEMU=${ACCTEMU:-$root/target/release/acctemu}
N=${N:-5000000}
CG_N=${CG_N:-50000}
PAIRS=${PAIRS:-3}
AS=${AS:-ia64-linux-gnu-as}
LD=${LD:-ia64-linux-gnu-ld}
VALGRIND=${VALGRIND-valgrind}

die() { echo "ski-compare: $*" >&2; exit 1; }
[ -n "$SKI" ] && [ -x "$SKI" ] || die "no Ski: set SKI to a built bski (see the comment at the top)"
[ -x "$ACCTEMU" ] || die "no acctemu at $ACCTEMU: cargo build --release, or set ACCTEMU"
command -v "$AS" >/dev/null || die "no $AS"
command -v "$LD" >/dev/null || die "no $LD"
command -v jq >/dev/null || die "no jq (it reads acctemu's JSON)"
if [ -n "$VALGRIND" ] && ! command -v "$VALGRIND" >/dev/null; then
	echo "ski-compare: no valgrind: host instructions per slot are skipped" >&2
	VALGRIND=
fi

if [ -n "${WORK:-}" ]; then
	mkdir -p "$WORK"
else
	WORK=$(mktemp -d /tmp/ski-compare.XXXXXX)
	trap 'rm -rf "$WORK"' EXIT
fi

# elf NAME ITER: the static ELF running loop NAME for ITER iterations; prints its path.
elf() {
	local name=$1 iter=$2 out=$WORK/$1-$2
	if [ ! -e "$out.elf" ]; then
		cat > "$out.S" <<-EOF
		// ski-compare stub: r14 = $iter, call $name, exit_group(0)
		.text
		.global _start
		.proc _start
		_start:
		alloc r2=ar.pfs,0,0,1,0
		movl r14=ITER
		;;
		br.call.sptk.many b0=$name
		;;
		mov out0=r0
		mov r15=1236		// exit_group
		;;
		break.i 0x100000
		;;
		.endp _start
		.include "$loops_src"
		EOF
		"$AS" -x --defsym ITER="$iter" "$out.S" -o "$out.o"
		"$LD" -static -e _start "$out.o" -o "$out.elf"
	fi
	echo "$out.elf"
}

# ski_run ELF: "CPU-SECONDS SLOTS" of one bski run (user+sys of the process; slots from -stats).
ski_run() {
	local t stats
	t=$( { TIMEFORMAT='%3U %3S'; time "$SKI" -noconsole -stats "$1" > "$WORK/ski.out" 2>&1; } 2>&1 )
	grep -q 'program exited with status 0' "$WORK/ski.out" || die "Ski did not exit cleanly on $1: $(tail -3 "$WORK/ski.out")"
	stats=$(grep -o '^[0-9]* insts' "$WORK/ski.out" | cut -d' ' -f1)
	echo "$t $stats" | awk '{ printf "%.3f %s\n", $1 + $2, $3 }'
}

# acctemu_run LABEL ITER [ARGS...]: acctemu's JSON row.
acctemu_run() {
	local label=$1 iter=$2
	shift 2
	"$ACCTEMU" bench --row "$label" --iterations "$iter" --format json "$@" | jq -c '.rows[0]'
}

median() { sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# callgrind_total CMD...: the instructions callgrind counts in the whole run of CMD.
callgrind_total() {
	"$VALGRIND" --tool=callgrind --callgrind-out-file="$WORK/cg.out" "$@" > "$WORK/cg.stdout" 2> "$WORK/cg.stderr" \
		|| die "callgrind run of $* failed: $(tail -3 "$WORK/cg.stderr")"
	awk '/^totals:/ { print $2 }' "$WORK/cg.out"
}

echo "# ski-compare: $(date -u +%Y-%m-%dT%H:%MZ), N=$N, CG_N=$CG_N, PAIRS=$PAIRS"
echo "# Ski: $SKI ($(cd "$(dirname "$SKI")" && git log -1 --format=%h 2>/dev/null || echo '?'))"
echo "# acctemu: $ACCTEMU ($(cd "$root" && git log -1 --format=%h))"
echo

summary=()
for name in alu mem; do
	case $name in
		alu) workload=loop/alu ;;
		mem) workload=loop/load-store-call ;;
	esac
	one=$(elf "$name" 1)
	big=$(elf "$name" "$N")
	read -r ski_t1 ski_s1 < <(ski_run "$one")
	read -r _ ski_sn < <(ski_run "$big")
	# Ski's slots beyond its 1-iteration run against acctemu's beyond its own, both timings.
	for timing in on off; do
		ours=$(acctemu_run "ia64 $workload $timing" "$N" | jq -r '.instructions')
		ours1=$(acctemu_run "ia64 $workload $timing" 1 | jq -r '.instructions')
		[ $((ski_sn - ski_s1)) -eq $((ours - ours1)) ] \
			|| die "$name: Ski ran $((ski_sn - ski_s1)) slots in N-1 more iterations, acctemu ($timing) $((ours - ours1))"
	done
	slots=$(( (ski_sn - ski_s1) / (N - 1) ))
	echo "## $name ($workload): $slots slots per iteration, $N iterations"
	printf '%-5s %10s %9s %10s %9s %10s %9s %8s %8s\n' pair "ski cpu s" "ski M/s" "on cpu s" "on M/s" "off cpu s" "off M/s" "on/ski" "off/ski"
	ratios_on=()
	ratios_off=()
	for pair in $(seq 1 "$PAIRS"); do
		read -r ski_tn ski_sn < <(ski_run "$big")
		on=$(acctemu_run "ia64 $workload on" "$N")
		off=$(acctemu_run "ia64 $workload off" "$N")
		line=$(awk -v st="$ski_tn" -v s1="$ski_t1" -v ss="$ski_sn" -v ss1="$ski_s1" \
			-v oi="$(jq -r .instructions <<< "$on")" -v ot="$(jq -r .cpu_seconds <<< "$on")" \
			-v fi="$(jq -r .instructions <<< "$off")" -v ft="$(jq -r .cpu_seconds <<< "$off")" -v p="$pair" 'BEGIN {
				t = st - s1; if (t <= 0) t = st
				ski = (ss - ss1) / t / 1e6; on = oi / ot / 1e6; off = fi / ft / 1e6
				printf "%-5s %10.3f %9.1f %10.3f %9.1f %10.3f %9.1f %8.3f %8.3f\n", p, t, ski, ot, on, ft, off, on / ski, off / ski
			}')
		echo "$line"
		ratios_on+=("$(awk '{ print $8 }' <<< "$line")")
		ratios_off+=("$(awk '{ print $9 }' <<< "$line")")
	done
	med_on=$(printf '%s\n' "${ratios_on[@]}" | median)
	med_off=$(printf '%s\n' "${ratios_off[@]}" | median)
	echo "median speed ratio acctemu/Ski: timing on $med_on, off $med_off"

	cg_ski='-'
	cg_on='-'
	cg_off='-'
	if [ -n "$VALGRIND" ]; then
		short=$(elf "$name" "$CG_N")
		long=$(elf "$name" $((2 * CG_N)))
		ir_short=$(callgrind_total "$SKI" -noconsole -stats "$short")
		slots_short=$(grep -o '^[0-9]* insts' "$WORK/cg.stdout" "$WORK/cg.stderr" | head -n 1 | sed 's/.*://; s/ insts//')
		ir_long=$(callgrind_total "$SKI" -noconsole -stats "$long")
		slots_long=$(grep -o '^[0-9]* insts' "$WORK/cg.stdout" "$WORK/cg.stderr" | head -n 1 | sed 's/.*://; s/ insts//')
		cg_ski=$(awk -v a="$ir_short" -v b="$ir_long" -v x="$slots_short" -v y="$slots_long" 'BEGIN { printf "%.1f", (b - a) / (y - x) }')
		for timing in on off; do
			v=$(acctemu_run "ia64 $workload $timing" 1 --callgrind --callgrind-iterations "$CG_N" | jq -r '.host_insns_per_insn')
			v=$(printf '%.1f' "$v")
			if [ "$timing" = on ]; then cg_on=$v; else cg_off=$v; fi
		done
		echo "host instructions per slot (callgrind, $CG_N and $((2 * CG_N)) iterations):" \
			"Ski $cg_ski, acctemu on $cg_on ($(awk -v a="$cg_on" -v b="$cg_ski" 'BEGIN { printf "%.2f", a / b }')x)," \
			"off $cg_off ($(awk -v a="$cg_off" -v b="$cg_ski" 'BEGIN { printf "%.2f", a / b }')x)"
	fi
	summary+=("$(printf '%-22s %8s %8s %8s %10s %10s %8s' "$workload" "$med_on" "$med_off" "$cg_ski" "$cg_on" "$cg_off" "$slots")")
	echo
done

echo "## summary (speed: acctemu slots per CPU second over Ski's, median of $PAIRS pairs; host: instructions per slot)"
printf '%-22s %8s %8s %8s %10s %10s %8s\n' workload "on/ski" "off/ski" "ski host" "on host" "off host" "slots/it"
printf '%s\n' "${summary[@]}"
