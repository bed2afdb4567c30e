#!/bin/sh
# Rebuilds the differential-test program and its expected results:
#   ops.elf       static s390x executable (ops.c: the functions under test, cases.c: the calls,
#                 driver.S: _start that runs them), built with gcc -O2 -march=z196.
#   ops.expected  qemu-s390x's output as hex: per case r2 and the CC, then the 256-byte buffer.
# Needs s390x-linux-gnu-gcc (Debian gcc-s390x-linux-gnu) and qemu-s390x (qemu-user).
set -eu
cd "$(dirname "$0")"
CC=${CC:-s390x-linux-gnu-gcc}
$CC -O2 -march=z196 -static -nostdlib -fno-asynchronous-unwind-tables -fno-stack-protector \
    -Wl,--build-id=none ops.c refops.S cases.c driver.S -o ops.elf
qemu-s390x ./ops.elf | od -An -v -tx1 | tr -d ' \n' | fold -w 64 > ops.expected
echo >> ops.expected
# Relocatable objects for `acctemu run OBJ.o --entry FN` tests (relocations applied by acctemu).
$CC -O2 -march=z196 -fno-asynchronous-unwind-tables -c ops.c -o ops.o
$CC -march=z196 -c refops.S -o refops.o
