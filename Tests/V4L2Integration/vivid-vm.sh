#!/usr/bin/env bash
# Boot a throw-away QEMU VM (virtme-ng, Debian's stock kernel) in which the
# `vivid` virtual camera driver can be loaded, run one script inside it as
# root, and hand back that script's output and exit status.
#
# Usage:
#   vivid-vm.sh GUEST_SCRIPT OUTDIR [--memory 2G] [--cpus N] [--timeout SECONDS] [--package P]...
#               [--in-memory PATH]...
#   vivid-vm.sh --setup-only | --print-kernel
#
# GUEST_SCRIPT runs in the guest with OUT=<OUTDIR> (same path in the guest,
# writable there) and the host's root file system mounted read-only, so host
# binaries (v4l2-ctl, swift-built executables, python3) work in the guest.
# Its stdout+stderr land in OUTDIR/guest.log and its exit code in
# OUTDIR/guest.rc; vng's console goes to OUTDIR/vng.log. This script prints
# guest.log and exits with the guest's exit code, or 124 when the guest never
# reported one (hang, kernel panic, timeout). --package installs a Debian package on the
# host for the guest too (udev: vng then starts udevd in the guest, which libcamera needs).
# --print-kernel sets up and prints the guest's kernel version (for out-of-tree modules).
# --in-memory PATH (a file or folder the guest script runs many times) is copied into the
# guest's memory before the script starts and mounted over its own path: the guest reads the
# host's files over 9p without a cache, a round trip per read under TCG, so a program started
# often pays for its pages at every start (the Performance article has the figures).
#
# Environment:
#   PHOTOCAP_VM_CACHE  kernel cache dir (default /var/cache/photocap-vm)
#   PHOTOCAP_VM_KVER   force a kernel version, e.g. 6.1.0-56-amd64
#
# Needs root (apt-get, /lib/modules). Safe to run with CI=true and no stdin.
set -euo pipefail

SELF=vivid-vm
log() { printf '%s: %s\n' "$SELF" "$*" >&2; }
die() { log "error: $*"; exit 2; }
now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }

usage() {
    sed -n '5,8p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
}

# ---- arguments --------------------------------------------------------------
MEMORY=2G
CPUS=""
TIMEOUT=1200
SETUP_ONLY=0
PRINT_KERNEL=0
EXTRA_PKGS=()
IN_MEMORY=()
POSITIONAL=()
while (($#)); do
    case "$1" in
        --memory) [[ $# -ge 2 ]] || usage; MEMORY=$2; shift 2 ;;
        --memory=*) MEMORY=${1#*=}; shift ;;
        --cpus) [[ $# -ge 2 ]] || usage; CPUS=$2; shift 2 ;;
        --cpus=*) CPUS=${1#*=}; shift ;;
        --timeout) [[ $# -ge 2 ]] || usage; TIMEOUT=$2; shift 2 ;;
        --timeout=*) TIMEOUT=${1#*=}; shift ;;
        --setup-only) SETUP_ONLY=1; shift ;;
        --print-kernel) SETUP_ONLY=1; PRINT_KERNEL=1; shift ;;
        --package) [[ $# -ge 2 ]] || usage; EXTRA_PKGS+=("$2"); shift 2 ;;
        --in-memory) [[ $# -ge 2 ]] || usage; IN_MEMORY+=("$(realpath -m "$2")"); shift 2 ;;
        -h|--help) usage ;;
        --) shift; POSITIONAL+=("$@"); break ;;
        -*) die "unknown option $1" ;;
        *) POSITIONAL+=("$1"); shift ;;
    esac
done
if ((SETUP_ONLY)); then
    ((${#POSITIONAL[@]} == 0)) || usage
else
    ((${#POSITIONAL[@]} == 2)) || usage
    GUEST_SCRIPT=${POSITIONAL[0]}
    OUTDIR=${POSITIONAL[1]}
    [[ -f $GUEST_SCRIPT ]] || die "guest script not found: $GUEST_SCRIPT"
    OUTDIR=$(realpath -m "$OUTDIR")
    # vng passes the rwdir path on the kernel command line, unquoted.
    [[ $OUTDIR =~ ^[A-Za-z0-9._/+-]+$ ]] || die "OUTDIR must not contain spaces or special characters: $OUTDIR"
fi
[[ $TIMEOUT =~ ^[0-9]+$ ]] || die "--timeout wants whole seconds"
[[ -z $CPUS || $CPUS =~ ^[0-9]+$ ]] || die "--cpus wants a number"
[[ $(id -u) == 0 ]] || die "must run as root (installs packages and kernel modules)"

CACHE=${PHOTOCAP_VM_CACHE:-/var/cache/photocap-vm}
export DEBIAN_FRONTEND=noninteractive PIP_ROOT_USER_ACTION=ignore
# Setup steps only hit apt/PyPI; bound them so a stuck mirror fails the run
# instead of eating CI's whole budget.
SETUP_STEP_TIMEOUT=900

# ---- setup ------------------------------------------------------------------
t_setup0=$(now)
mkdir -p "$CACHE"
# Two runs at once would otherwise race on apt, dpkg -x and /lib/modules.
exec 9>"$CACHE/.lock"
flock 9

apt_updated=0
apt_update_once() {
    ((apt_updated)) && return 0
    log "apt-get update"
    timeout "$SETUP_STEP_TIMEOUT" apt-get update -qq </dev/null >&2
    apt_updated=1
}

# qemu-system-x86: the VM (recommends would pull in the GUI, not needed).
# busybox-static: vng builds an initramfs (needed because Debian's kernel has
#   9p/virtio-fs as modules) and refuses to without a static busybox.
# kmod: modprobe/depmod on host and guest. v4l-utils: v4l2-ctl in the guest.
PKGS=(qemu-system-x86 busybox-static kmod v4l-utils ${EXTRA_PKGS[@]+"${EXTRA_PKGS[@]}"})
missing=()
for p in "${PKGS[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if ((${#missing[@]})); then
    apt_update_once
    log "apt-get install ${missing[*]}"
    timeout "$SETUP_STEP_TIMEOUT" apt-get install -y -qq --no-install-recommends \
        "${missing[@]}" </dev/null >&2
fi

# vng comes from PyPI only. pip may put it in a directory that is not on PATH
# yet (pyenv shims need a rehash), so look in python's scripts dir too.
find_vng() {
    command -v vng 2>/dev/null && return 0
    local d
    d=$(python3 -c 'import sysconfig; print(sysconfig.get_path("scripts"))' 2>/dev/null) || return 1
    [[ -x $d/vng ]] && echo "$d/vng"
}
if ! VNG=$(find_vng); then
    # A bare Debian python3 has no pip module.
    if ! python3 -m pip --version >/dev/null 2>&1; then
        apt_update_once
        timeout "$SETUP_STEP_TIMEOUT" apt-get install -y -qq --no-install-recommends python3-pip </dev/null >&2
    fi
    log "pip install virtme-ng"
    # Debian's own python3 refuses plain pip installs (PEP 668).
    timeout "$SETUP_STEP_TIMEOUT" python3 -m pip install --quiet --disable-pip-version-check \
        --no-input virtme-ng </dev/null >&2 ||
        timeout "$SETUP_STEP_TIMEOUT" python3 -m pip install --quiet --disable-pip-version-check \
            --no-input --break-system-packages virtme-ng </dev/null >&2
    VNG=$(find_vng) || die "vng not found after pip install virtme-ng"
fi

# Kernel: Debian's stock amd64 kernel (has vivid as a module). Once fetched,
# reuse the cached version so later runs need neither apt lists nor network.
resolve_kver() {
    apt-cache depends linux-image-amd64 2>/dev/null |
        sed -n 's/^ *Depends: linux-image-\([0-9].*-amd64\)$/\1/p' | head -n1
}
KVER=${PHOTOCAP_VM_KVER:-}
if [[ -z $KVER && -f $CACHE/kver ]]; then
    KVER=$(<"$CACHE/kver")
    [[ -f $CACHE/$KVER/.complete ]] || KVER=""
fi
if [[ -z $KVER ]]; then
    KVER=$(resolve_kver)
    if [[ -z $KVER ]]; then
        apt_update_once
        KVER=$(resolve_kver)
    fi
    [[ -n $KVER ]] || die "cannot resolve kernel version from linux-image-amd64"
fi
KROOT=$CACHE/$KVER/root
# vmlinuz must NOT be booted from inside KROOT: vng walks up from the image
# to the first dir with lib/modules and then symlinks the guest's
# /lib/modules/<ver> to that dir. The cache lives under /var/cache, which the
# guest overlays with an empty tmpfs, so modprobe would find nothing. A copy
# beside KROOT makes vng fall back to / and the host's /lib/modules/<ver>.
VMLINUZ=$CACHE/$KVER/vmlinuz-$KVER

if [[ ! -f $CACHE/$KVER/.complete ]]; then
    rm -rf "${CACHE:?}/$KVER"
    mkdir -p "$CACHE/$KVER/dl"
    # apt drops to user _apt for downloads and warns if it cannot write here.
    chown _apt "$CACHE/$KVER/dl" 2>/dev/null || true
    # The signed and -unsigned packages both normally carry vmlinuz and
    # modules; take the first that really has vmlinuz and vivid.ko.
    got=""
    for pkg in "linux-image-$KVER" "linux-image-$KVER-unsigned"; do
        rm -f "$CACHE/$KVER/dl"/*.deb
        log "apt-get download $pkg"
        if ! (cd "$CACHE/$KVER/dl" && timeout "$SETUP_STEP_TIMEOUT" apt-get download -qq "$pkg" </dev/null >&2); then
            # Stale lists point at a deb the mirror no longer has.
            apt_update_once
            (cd "$CACHE/$KVER/dl" && timeout "$SETUP_STEP_TIMEOUT" apt-get download -qq "$pkg" </dev/null >&2) || continue
        fi
        deb=$(ls "$CACHE/$KVER/dl"/*.deb)
        listing=$(dpkg-deb -c "$deb")
        if grep -q "/boot/vmlinuz-$KVER\$" <<<"$listing" &&
            grep -q '/vivid\.ko' <<<"$listing"; then
            got=$deb
            break
        fi
        log "$pkg lacks vmlinuz or vivid.ko, trying next"
    done
    [[ -n $got ]] || die "no linux-image package for $KVER with vmlinuz + vivid.ko"
    dpkg -x "$got" "$KROOT"
    cp "$KROOT/boot/vmlinuz-$KVER" "$VMLINUZ"
    rm -rf "$CACHE/$KVER/dl"
    touch "$CACHE/$KVER/.complete"
fi
echo "$KVER" >"$CACHE/kver"
[[ -f $VMLINUZ ]] || cp "$KROOT/boot/vmlinuz-$KVER" "$VMLINUZ" || die "missing $VMLINUZ"

# vng (initramfs) and modprobe in the guest both read /lib/modules/<ver> of
# the host root, which the guest mounts read-only.
if [[ ! -d /lib/modules/$KVER/kernel ]]; then
    log "installing modules to /lib/modules/$KVER"
    mkdir -p /lib/modules
    rm -rf "/lib/modules/$KVER.tmp"
    # Hard links save ~400 MB when the cache is on the same file system.
    cp -al "$KROOT/lib/modules/$KVER" "/lib/modules/$KVER.tmp" 2>/dev/null ||
        { rm -rf "/lib/modules/$KVER.tmp"; cp -a "$KROOT/lib/modules/$KVER" "/lib/modules/$KVER.tmp"; }
    mv "/lib/modules/$KVER.tmp" "/lib/modules/$KVER"
fi
if [[ ! -s /lib/modules/$KVER/modules.dep || ! -s /lib/modules/$KVER/modules.alias ]]; then
    depmod "$KVER"
fi
flock -u 9
t_setup1=$(now)
log "setup took $(elapsed "$t_setup0" "$t_setup1") s (kernel $KVER, vng $VNG)"
((PRINT_KERNEL)) && echo "$KVER"
((SETUP_ONLY)) && exit 0

# ---- run --------------------------------------------------------------------
mkdir -p "$OUTDIR"
# The guest sees the host root read-only, but with fresh tmpfs over /run,
# /var/cache, /var/tmp, /var/log (and /tmp, /etc, /usr... as throw-away
# overlays), so a guest script from there could be invisible or stale: copy it
# into OUTDIR, which is shared read-write at the same path.
META=$OUTDIR/.vivid-vm
rm -rf "$META"
rm -f "$OUTDIR/guest.log" "$OUTDIR/guest.rc" "$OUTDIR/vng.log"
mkdir -p "$META"
cp "$GUEST_SCRIPT" "$META/guest-script"
chmod +x "$META/guest-script"
# One archive, read by the guest in one sequential pass: Perl's module folders alone hold
# thousands of files, each a round trip when copied one by one.
: >"$META/in-memory"
for path in ${IN_MEMORY[@]+"${IN_MEMORY[@]}"}; do
    [[ -e $path ]] || die "--in-memory: no such file or folder: $path"
    printf '%s\n' "$path" >>"$META/in-memory"
done
tar -C / -cf "$META/in-memory.tar" --files-from <(sed 's|^/||' "$META/in-memory")

# The guest gets virtme's minimal environment; hand it the host PATH so
# /opt/swift and friends resolve as on the host. Drop pyenv-style shims dirs:
# a shim is a bash script that runs pyenv, and over 9p under TCG each
# `python3` then costs 10-30 s instead of ~1.5 s for /usr/bin/python3.
guest_path=""
IFS=: read -ra path_dirs <<<"$PATH:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
for d in "${path_dirs[@]}"; do
    [[ -n $d && $d != */shims && :$guest_path: != *":$d:"* ]] && guest_path+=${guest_path:+:}$d
done
{
    echo '#!/bin/bash'
    printf 'export OUT=%q\n' "$OUTDIR"
    printf 'export PATH=%q\n' "$guest_path"
    printf 'export HOME=%q\n' "${HOME:-/root}"
    printf 'export CI=%q LANG=C.UTF-8\n' "${CI:-}"
    # libcamera links lttng-ust, whose start reads the ELF notes of every loaded library in
    # small reads, each a round trip over 9p.
    echo 'export LTTNG_UST_WITHOUT_BADDR_STATEDUMP=1'
    cat <<'EOF'
: >"$OUT/.vivid-vm/started"
cd "$OUT"
# --in-memory: each path copied into the guest's memory and mounted over itself.
copied=$SECONDS kept=0 missed=""
mkdir -p /run/vivid-vm-in-memory
tar -C /run/vivid-vm-in-memory -xf "$OUT/.vivid-vm/in-memory.tar"
while IFS= read -r path; do
    if mount --bind "/run/vivid-vm-in-memory$path" "$path"; then
        kept=$((kept + 1))
    else
        missed+=" $path"
    fi
done <"$OUT/.vivid-vm/in-memory"
echo "vivid-vm: $kept paths copied into memory in $((SECONDS - copied)) s${missed:+; could not copy$missed}" >"$OUT/guest.log"
rc=0
# Shebang-less scripts run with bash; others with their interpreter.
if head -c2 "$OUT/.vivid-vm/guest-script" | grep -q '^#!'; then
    "$OUT/.vivid-vm/guest-script" </dev/null >>"$OUT/guest.log" 2>&1 || rc=$?
else
    bash "$OUT/.vivid-vm/guest-script" </dev/null >>"$OUT/guest.log" 2>&1 || rc=$?
fi
# Write-then-rename so the host never reads a half-written code.
echo "$rc" >"$OUT/.vivid-vm/rc.tmp"
mv "$OUT/.vivid-vm/rc.tmp" "$OUT/guest.rc"
sync
EOF
} >"$META/wrapper.sh"
chmod +x "$META/wrapper.sh"

vng_args=(--disable-kvm --run "$VMLINUZ" --memory "$MEMORY" --rwdir "$OUTDIR"
    # --verbose: kernel console to stderr (vng.log) so a panic/hang is
    # diagnosable; without it vng hides the console entirely.
    --verbose
    --exec "$META/wrapper.sh")
[[ -n $CPUS ]] && vng_args+=(--cpus "$CPUS")

log "booting VM (memory $MEMORY${CPUS:+, cpus $CPUS}, timeout ${TIMEOUT}s)"
t_boot0=$(now)
# KVM is not usable on these machines (QEMU aborts on an MSR): TCG only.
# stdin from /dev/null and output to a file: vng needs /proc/self/fd/{0,1,2}
# to be openable read-write or it degrades to a console-only mode; a file
# and /dev/null satisfy that without a tty. timeout signals its whole
# process group, so qemu dies with vng.
timeout --kill-after=30 "$TIMEOUT" "$VNG" "${vng_args[@]}" </dev/null >"$OUTDIR/vng.log" 2>&1 &
vm_pid=$!
trap 'kill -TERM "$vm_pid" 2>/dev/null || true' EXIT INT TERM

# The rwdir is live-shared, so the host can see when the guest script starts
# and ends; this gives boot / run / shutdown times without trusting guest
# clocks (TCG guests drift).
t_started="" t_done=""
while kill -0 "$vm_pid" 2>/dev/null; do
    [[ -z $t_started && -e $META/started ]] && t_started=$(now) &&
        log "guest script started after $(elapsed "$t_boot0" "$t_started") s of boot"
    [[ -z $t_done && -e $OUTDIR/guest.rc ]] && t_done=$(now)
    sleep 0.2
done
vm_rc=0
wait "$vm_pid" || vm_rc=$?
rm -f "$META/in-memory.tar"
trap - EXIT INT TERM
t_end=$(now)
[[ -z $t_started && -e $META/started ]] && t_started=$t_end
[[ -z $t_done && -e $OUTDIR/guest.rc ]] && t_done=$t_end

if [[ -n $t_started ]]; then
    boot_s="$(elapsed "$t_boot0" "$t_started") s"
else
    boot_s="n/a (guest script never started)"
fi
if [[ -n $t_done ]]; then
    log "timings: setup $(elapsed "$t_setup0" "$t_setup1") s, boot $boot_s, guest script $(elapsed "$t_started" "$t_done") s, shutdown $(elapsed "$t_done" "$t_end") s, VM total $(elapsed "$t_boot0" "$t_end") s"
else
    log "timings: setup $(elapsed "$t_setup0" "$t_setup1") s, boot $boot_s, VM total $(elapsed "$t_boot0" "$t_end") s"
fi

if [[ -f $OUTDIR/guest.log ]]; then
    echo "----- guest.log -----"
    cat "$OUTDIR/guest.log"
    echo "----- end guest.log -----"
fi

rc=$(cat "$OUTDIR/guest.rc" 2>/dev/null || true)
if [[ ! $rc =~ ^[0-9]+$ ]]; then
    if ((vm_rc == 124 || vm_rc == 137)); then
        log "error: VM killed after ${TIMEOUT}s timeout; guest wrote no guest.rc"
    elif grep -q 'Kernel panic' "$OUTDIR/vng.log" 2>/dev/null; then
        log "error: guest kernel panicked before writing guest.rc (see vng.log)"
    else
        log "error: guest wrote no guest.rc (vng exited $vm_rc: guest hang, crash or boot failure)"
    fi
    log "last lines of $OUTDIR/vng.log:"
    tail -n 30 "$OUTDIR/vng.log" >&2 || true
    exit 124
fi
log "guest exit code $rc (vng exited $vm_rc, ignored)"
exit "$rc"
