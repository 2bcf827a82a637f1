#!/usr/bin/env bash
# Builds the kernel's vimc driver (a virtual media-controller camera that libcamera drives, which
# Debian's kernel does not ship) out of tree for the kernel the test VM boots, with
# vimc-sensor-rotation.patch: module parameters that register the sensor's read-only rotation and
# orientation controls, as a real sensor driver does from its device-tree node.
#
# Usage: Tests/LibcameraIntegration/build-vimc.sh [KERNEL_VERSION]
# Prints the path of vimc.ko. The kernel defaults to the one vivid-vm.sh boots; the module is
# cached under .build/vimc/ by kernel version and patch hash, so a second run costs nothing.
# Needs root when it has to install linux-source-6.1 or the kernel's headers.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
patch=$here/vimc-sensor-rotation.patch
log() { printf 'build-vimc: %s\n' "$*" >&2; }

kver=${1:-}
[[ -n $kver ]] || kver=$(bash "$repo/Tests/V4L2Integration/vivid-vm.sh" --print-kernel)
[[ $kver =~ ^[0-9][A-Za-z0-9._+-]*$ ]] || { log "error: bad kernel version '$kver'"; exit 2; }
key=$kver-$(cat "$patch" | sha256sum | cut -c1-12)
cache=$repo/.build/vimc/$key
if [[ -f $cache/vimc.ko ]]; then
    echo "$cache/vimc.ko"
    exit 0
fi

headers=/usr/src/linux-headers-$kver
source_tar=/usr/src/linux-source-6.1.tar.xz
missing=()
[[ -f $headers/Makefile ]] || missing+=("linux-headers-$kver")
[[ -f $source_tar ]] || missing+=(linux-source-6.1)
if ((${#missing[@]})); then
    log "apt-get install ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    timeout 900 apt-get install -y -qq --no-install-recommends "${missing[@]}" </dev/null >&2 ||
        { timeout 900 apt-get update -qq </dev/null >&2 &&
            timeout 900 apt-get install -y -qq --no-install-recommends "${missing[@]}" </dev/null >&2; }
fi

start=$(date +%s)
work=$(mktemp -d "${TMPDIR:-/tmp}/vimc-build.XXXXXX")
trap 'rm -rf "$work"' EXIT
# Only vimc's folder: the whole tree is 1.4 GB unpacked.
tar -xJf "$source_tar" -C "$work" --strip-components=1 --wildcards 'linux-source-6.1/drivers/media/test-drivers/vimc/*'
patch -d "$work" -p1 --quiet --forward <"$patch"
src=$work/drivers/media/test-drivers/vimc
make -s -C "$headers" M="$src" CONFIG_VIDEO_VIMC=m -j"$(nproc)" modules >&2
mkdir -p "$cache.tmp"
cp "$src/vimc.ko" "$cache.tmp/"
rm -rf "$cache"
mv "$cache.tmp" "$cache"
log "built $cache/vimc.ko for $kver in $(($(date +%s) - start)) s"
echo "$cache/vimc.ko"
