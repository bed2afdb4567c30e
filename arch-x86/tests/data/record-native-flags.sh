#!/bin/sh
# Records this host's native RFLAGS probes (flagtest.o linked into a gcc driver, every probe on
# every input of tests/differential.rs) into flagtest.native.txt, with the host's CPU in its
# header. The x86 core copies that host's choice for every flag and result the SDM leaves
# undefined; undefined_flags_follow_the_recorded_host holds it to the record on any machine.
set -eu
cd "$(dirname "$0")/../../.."
cargo test -p arch-x86 --test differential record_native_flags -- --ignored --exact
