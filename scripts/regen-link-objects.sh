#!/usr/bin/env bash
# Regenerates the linker's test objects (tests/data/link/NAME.o) from the committed sources
# tests/data/link/NAME.S with GNU as 2.40 for ia64 (see scripts/lib/assemble-objects.sh).
#
# Usage: scripts/regen-link-objects.sh
# The tool can be overridden with IA64_AS.
set -euo pipefail
exec "$(dirname "${BASH_SOURCE[0]}")/lib/assemble-objects.sh" regen-link-objects tests/data/link
