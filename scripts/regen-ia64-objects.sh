#!/usr/bin/env bash
# Regenerates the object-writer corpus (tests/corpus/ia64/objects/NAME.o) from the committed
# sources tests/corpus/ia64/objects/NAME.S with GNU as 2.40 for ia64 (see
# scripts/lib/assemble-objects.sh).
#
# Usage: scripts/regen-ia64-objects.sh
# The tool can be overridden with IA64_AS.
set -euo pipefail
exec "$(dirname "${BASH_SOURCE[0]}")/lib/assemble-objects.sh" regen-ia64-objects tests/corpus/ia64/objects
