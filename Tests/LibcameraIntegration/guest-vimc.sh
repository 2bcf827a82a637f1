#!/usr/bin/env bash
# Runs inside the VM (see run-vimc-vm.sh): loads the patched vimc with the sensor mounted at
# VIMC_ROTATION degrees (and its location VIMC_ORIENTATION: 0 front, 1 back, the default), then
# judges libcamera's view of it with libcamera's own `cam`; when PROBE names the CLibcamera probe,
# the C shim against what `cam` got; when PHOTOCAP names the built photocap, its `devices` and
# `shoot` (listing the photos for the host to judge against `cam`'s frame). Needs VIMC (vimc.ko)
# and OUT (shared with the host). Prints PASS/FAIL per check and a "vimc guest:" summary line.
set -uo pipefail
rotation=${VIMC_ROTATION:-90}
passed=0 failed=0
pass() { echo "PASS $1"; passed=$((passed + 1)); }
fail() { echo "FAIL $1: $2"; failed=$((failed + 1)); }
timed() { local t0=$SECONDS; "$@"; local rc=$?; echo "($* took $((SECONDS - t0)) s, rc $rc)" >&2; return $rc; }
cd "$OUT"

# The guest's own modules for what vimc needs, then ours, which depmod does not know.
modprobe -a $(modinfo -F depends "$VIMC" | tr , ' ') || { echo "FAIL vimc: dependencies"; exit 1; }
insmod "$VIMC" sensor_rotation="$rotation" sensor_orientation="${VIMC_ORIENTATION:-1}" || { echo "FAIL vimc: insmod"; exit 1; }
# libcamera finds media devices through udev: without udevd it lists no camera.
pgrep -x systemd-udevd >/dev/null || pgrep -x udevd >/dev/null && pass "udevd runs" || fail "udevd runs" "not running"
udevadm settle --timeout=60
ls /dev/media* /dev/video* | tr '\n' ' '; echo
v4l2-ctl -d "$(grep -l 'Sensor B' /sys/class/video4linux/v4l-subdev*/name | head -1 | xargs dirname | xargs basename | sed 's|^|/dev/|')" -l 2>&1 | grep -E 'rotation|orientation'

timed timeout 300 cam -l >cam-list.txt 2>&1
cat cam-list.txt
# "1: Internal front camera (platform/vimc.0 Sensor B)"; libcamera's log names the sensor too.
grep -qE "^[0-9]+: .*vimc.*Sensor B" cam-list.txt && pass "cam lists vimc's Sensor B" || fail "cam lists vimc's Sensor B" "$(tail -5 cam-list.txt)"

timed timeout 300 cam -c 1 -p >cam-properties.txt 2>&1
cat cam-properties.txt
grep -q "Rotation = $rotation\$" cam-properties.txt && pass "cam reports Rotation = $rotation" ||
    fail "cam reports Rotation = $rotation" "$(grep -i rotation cam-properties.txt)"

if [[ -n ${PROBE:-} ]]; then
    timed timeout 300 "$PROBE" >probe-list.txt 2>&1
    grep -v '^\[' probe-list.txt
    grep -q "rotation $rotation " probe-list.txt && pass "shim lists the camera with rotation $rotation" ||
        fail "shim lists the camera with rotation $rotation" "$(tail -5 probe-list.txt)"
fi

rm -f cam-frame-*.bin
# 1920x1080 is the pipeline's default size; others are adjusted (640x480 to 636x480), and the
# probe must be adjusted alike.
size=${VIMC_SIZE:-1920x1080}
# Two frames: vimc's capture queue starts streaming only once two buffers are queued
# (min_buffers_needed), so cam --capture=1, which queues one request, waits for ever.
# VIMC_LOG_LEVELS=*:0 gives libcamera's debug log, which shows where a capture stopped.
LIBCAMERA_LOG_LEVELS=${VIMC_LOG_LEVELS:-*:1} timed timeout 240 cam -c 1 --capture=2 --file="$OUT/cam-frame-#.bin" \
    -s role=still,width=${size%x*},height=${size#*x} >cam-capture.txt 2>&1
grep -vE 'DEBUG (IPC|Buffer|Request)' cam-capture.txt | tail -20
frame=$(ls cam-frame-*.bin 2>/dev/null | head -1)
if [[ -n $frame ]]; then
    pass "cam captures a frame ($frame, $(stat -c %s "$frame") bytes)"
else
    fail "cam captures a frame" "$(tail -5 cam-capture.txt)"
fi

if [[ -z $frame ]]; then
    # Whether vimc streams at all without libcamera, through the links cam left configured.
    node=/dev/$(basename "$(dirname "$(grep -l 'RGB/YUV Capture' /sys/class/video4linux/video*/name | head -1)")")
    timed timeout 120 v4l2-ctl -d "$node" --stream-mmap --stream-count=1 --stream-to=v4l2-frame.bin 2>&1 | tail -3
    ls -l v4l2-frame.bin 2>&1
fi
if [[ -n ${PROBE:-} && -n $frame ]]; then
    timed timeout 240 "$PROBE" --capture "$OUT/probe-frame.bin" --size "$size" >probe.txt 2>&1
    grep -v '^\[' probe.txt
    # libcamera logs "configuring streams: (0) 1920x1080-BGR888", adjusted; the shim must agree.
    cam_stream=$(sed -n 's/.*configuring streams: (0) \([0-9]*x[0-9]*-[A-Z0-9_]*\).*/\1/p' cam-capture.txt | head -1)
    probe_stream=$(sed -n 's/^captured \([^ ]*\) .*/\1/p' probe.txt)
    if [[ -n $cam_stream && $cam_stream == "$probe_stream" && -s probe-frame.bin ]] &&
        [[ $(stat -c %s probe-frame.bin) == $(stat -c %s "$frame") ]]; then
        pass "shim captures a $probe_stream frame as cam does"
    else
        fail "shim captures the frame cam does" "cam $cam_stream, shim $probe_stream"
    fi
fi
if [[ -n ${PHOTOCAP:-} ]]; then
    source "$OUT/guest-photocap.sh"
fi
echo "vimc guest: $passed passed, $failed failed"
((failed == 0))
