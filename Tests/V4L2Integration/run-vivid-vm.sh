#!/usr/bin/env bash
# The V4L2 integration run: builds photocap and its tests on the host, boots a VM with the
# kernel's vivid camera (vivid-vm.sh), runs guest-scenarios.sh inside, and prints each
# scenario, the guest log and a "vivid scenarios: N passed, N failed" line. Exits non-zero if
# any scenario failed or the VM did not report.
#
# Usage: Tests/V4L2Integration/run-vivid-vm.sh [OUTDIR]   (default .build/vivid-vm)
# VIVID_CLI=0 and VIVID_FILTER=SuiteName pass through to the guest for shorter runs;
# PHOTOCAP_BINARIES (a folder holding photocap, as .ci/test sets it to the release build) is
# the command the scenarios run, else the debug one beside the tests.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
out=$(realpath -m "${1:-$repo/.build/vivid-vm}")
command -v swift >/dev/null || export PATH="/opt/swift/usr/bin:$PATH"

cd "$repo"
# One VM at a time per user: two TCG guests on this machine's cores would starve each other.
exec 9>>"${TMPDIR:-/tmp}/photocap-vivid-vm.$(id -u).lock"
flock 9
swift build --build-tests >/dev/null
bin=$(swift build --show-bin-path)
cli=$(cd "${PHOTOCAP_BINARIES:-$bin}" && pwd)
[[ -x $cli/photocap ]] || { echo "vivid scenarios: 0 passed, 1 failed (no photocap in $cli)"; exit 1; }
rm -rf "$out"
mkdir -p "$out/scripts"
# Copies: bash reads a script as it runs, so editing the originals must not change a running
# guest (an edit during a run once failed it with a syntax error).
cp -r "$here/guest-scenarios.sh" "$here/scenarios.d" "$out/scripts/"
# The guest sees the host's file system read-only, so it runs these very binaries.
cat >"$out/scenarios.sh" <<SCRIPT
export BIN=$(printf %q "$bin") PHOTOCAP_BINARIES=$(printf %q "$cli")
export VIVID_CLI=$(printf %q "${VIVID_CLI:-1}") VIVID_FILTER=$(printf %q "${VIVID_FILTER:-Vivid}")
exec bash $(printf %q "$out/scripts/guest-scenarios.sh")
SCRIPT
# What the scenarios start again and again, kept in the guest's memory (vivid-vm.sh says why).
in_memory=()
while IFS= read -r path; do in_memory+=(--in-memory "$path"); done < <(
    bash "$here/in-memory-paths.sh" --exiftool "$cli/photocap" $(ls "$cli/libphotocap-libcamera.so" 2>/dev/null))
rc=0
bash "$here/vivid-vm.sh" "$out/scenarios.sh" "$out" --memory 3G --cpus 2 --timeout 2400 "${in_memory[@]}" || rc=$?
summary=$(grep -E "^vivid scenarios: " "$out/guest.log" 2>/dev/null | tail -1 || true)
echo "${summary:-vivid scenarios: 0 passed, 1 failed (the VM did not report)}"
exit "$rc"
