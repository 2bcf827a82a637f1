#!/usr/bin/env bash
# The libcamera integration run: builds the patched vimc for the VM's kernel (build-vimc.sh)
# and the CLibcamera probe, boots the VM of vivid-vm.sh with udev, libcamera's tools and IPA
# modules on the host (the guest then runs udevd, which libcamera finds cameras through, and has
# `cam`; vimc's pipeline refuses to run without its IPA), runs guest-vimc.sh inside, and then
# judges the photos it took on the host (judge-photos.sh).
#
# Usage: Tests/LibcameraIntegration/run-vimc-vm.sh [OUTDIR]   (default .build/vimc-vm)
# VIMC_ROTATION (default 90) is the sensor's mounting, VIMC_SIZE (default 1920x1080) the size of the
# frames captured; VIMC_PROBE=0 skips building the probe, VIMC_PHOTOCAP=0 building photocap (whose
# devices and shoot guest-photocap.sh judges; PHOTOCAP_BINARIES names a built one instead).
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
here=$repo/Tests/LibcameraIntegration
cd "$repo"
out=$(realpath -m "${1:-.build/vimc-vm}")
command -v swift >/dev/null || export PATH="/opt/swift/usr/bin:$PATH"
vimc=$(bash "$here/build-vimc.sh")
probe=""
if [[ ${VIMC_PROBE:-1} == 1 ]]; then
    swift build --product clibcamera-probe >/dev/null
    probe=$(swift build --show-bin-path)/clibcamera-probe
fi
photocap=""
if [[ ${VIMC_PHOTOCAP:-1} == 1 ]]; then
    # The binaries people run: PHOTOCAP_BINARIES (.ci/test's release build) when set; the shim
    # is loaded from beside photocap.
    if [[ -n ${PHOTOCAP_BINARIES:-} ]]; then
        photocap=$(cd "$PHOTOCAP_BINARIES" && pwd)/photocap
    else
        swift build --product photocap >/dev/null
        swift build --product photocap-libcamera >/dev/null
        photocap=$(swift build --show-bin-path)/photocap
    fi
    [[ -f $(dirname "$photocap")/libphotocap-libcamera.so ]] || { echo "no libphotocap-libcamera.so beside $photocap" >&2; exit 1; }
fi
# One VM at a time per user: two TCG guests on this machine's cores would starve each other.
exec 9>>"${TMPDIR:-/tmp}/photocap-vivid-vm.$(id -u).lock"
flock 9
rm -rf "$out"
mkdir -p "$out"
# A copy: bash reads a script as it runs, so editing the original must not change a running guest.
cp "$here/guest-vimc.sh" "$here/guest-photocap.sh" "$out/"
cat >"$out/scenarios.sh" <<SCRIPT
export VIMC=$(printf %q "$vimc") PROBE=$(printf %q "$probe") VIMC_ROTATION=$(printf %q "${VIMC_ROTATION:-90}")
export PHOTOCAP=$(printf %q "$photocap") VIMC_ORIENTATION=$(printf %q "${VIMC_ORIENTATION:-1}")
export VIMC_SIZE=$(printf %q "${VIMC_SIZE:-1920x1080}")
exec bash "\$OUT/guest-vimc.sh"
SCRIPT
# What the scenarios start again and again, kept in the guest's memory (vivid-vm.sh says why).
in_memory=()
if [[ -n $photocap ]]; then
    while IFS= read -r path; do in_memory+=(--in-memory "$path"); done < <(
        bash "$repo/Tests/V4L2Integration/in-memory-paths.sh" "$photocap" "$(dirname "$photocap")/libphotocap-libcamera.so")
fi
rc=0
bash "$repo/Tests/V4L2Integration/vivid-vm.sh" "$out/scenarios.sh" "$out" --memory 2G --cpus 2 --timeout 1500 \
    --package udev --package libcamera-tools --package libcamera-ipa ${in_memory[@]+"${in_memory[@]}"} || rc=$?
# The two numbers of a summary line "...: N passed, N failed"; nothing when it is not one.
counts() { sed -nE 's/.*: ([0-9]+) passed, ([0-9]+) failed.*/\1 \2/p' <<<"$1"; }
# A guest or a judge that did not report counts as one failure.
read -r passed failed < <(counts "$(grep -E "^vimc guest: " "$out/guest.log" 2>/dev/null | tail -1)") || true
passed=${passed:-0} failed=${failed:-1}
# The photos the guest took, judged here (judge-photos.sh says why).
if [[ -n $photocap ]]; then
    judged=$(bash "$here/judge-photos.sh" "$out") || rc=1
    echo "$judged"
    read -r judged_passed judged_failed < <(counts "$(tail -1 <<<"$judged")") || true
    passed=$((passed + ${judged_passed:-0})) failed=$((failed + ${judged_failed:-1}))
fi
echo "vimc scenarios: $passed passed, $failed failed"
exit "$rc"
