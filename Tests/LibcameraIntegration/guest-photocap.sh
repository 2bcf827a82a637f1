# Sourced by guest-vimc.sh once `cam` has captured $frame (BGR888, $size): photocap's libcamera
# backend on the same camera. `devices` must list libcamera's camera with the sensor's mounting
# (and no raw vimc node as a camera); `shoot` with no --device must take that camera (no
# synthetic fallback) and give an upright photo, JPEG and HEIC, with and without compensation,
# and so must --device with libcamera's id.
# Upright is judged on the host after the VM (judge-photos.sh, at the host's speed rather than
# the emulated CPU's): this script lists, in judge.list, each reference (cam's frame and the
# sensor's mounting) and each photo to hold against the reference listed last before it.
camera_id="platform/vimc.0 Sensor B"

timed timeout 300 "$PHOTOCAP" devices >pc-devices.txt 2>pc-devices.err
cat pc-devices.txt pc-devices.err
grep -qF "$camera_id: " pc-devices.txt && grep -qF "[libcamera]" pc-devices.txt &&
    pass "photocap devices lists libcamera's camera" || fail "photocap devices lists libcamera's camera" "$(head -3 pc-devices.txt)"
grep -qF "sensor: rotation $rotation° (from libcamera: sensor rotation $rotation°" pc-devices.txt &&
    pass "photocap devices shows the mounting from libcamera" || fail "photocap devices shows the mounting from libcamera" "$(grep sensor: pc-devices.txt)"
grep -qE '^/dev/video[0-9]+: ' pc-devices.txt && fail "photocap devices hides vimc's raw nodes" "$(grep -E '^/dev/video' pc-devices.txt)" ||
    pass "photocap devices hides vimc's raw nodes"
grep -qF "photocap: skipped: /dev/video" pc-devices.err && grep -qF "is one stage of a media-controller pipeline, which streams only once it is configured: use libcamera's camera, --device '$camera_id'" pc-devices.err &&
    pass "photocap devices says why vimc's nodes are skipped, and what to use" || fail "photocap devices says why vimc's nodes are skipped" "$(head -3 pc-devices.err)"
timed timeout 300 "$PHOTOCAP" devices --json >pc-devices.json 2>/dev/null
grep -q '"sensorRotationSource" : "libcamera Rotation"' pc-devices.json &&
    pass "devices --json says the mounting came from libcamera" || fail "devices --json says the mounting came from libcamera" "$(grep -i rotation pc-devices.json)"

# controls: the camera's controls with the names and ranges `cam --list-controls` prints (vimc:
# Brightness, Contrast, Saturation, as floats), in `devices` too; --set is refused before the
# camera is touched, since libcamera applies controls to each request.
timed timeout 120 cam -c 1 --list-controls >cam-controls.txt 2>&1
timed timeout 120 "$PHOTOCAP" controls --device "$camera_id" >pc-controls.txt 2>&1
# "NAME MIN MAX", numbers as awk's %g prints them: cam writes floats as 1.000000, photocap as 1.
normalise() { awk '{ printf "%s %g %g\n", $1, $2, $3 }' | sort; }
cam_ranges=$(sed -nE 's/^Control: ([A-Za-z0-9]+): \[(-?[0-9.]+)\.\.(-?[0-9.]+)\]$/\1 \2 \3/p' cam-controls.txt | normalise)
pc_ranges=$(sed -nE 's/^([A-Za-z0-9]+) \([^)]*\) ([^ ]+)\.\.\.([^ ]+)( default .*)?$/\1 \2 \3/p' pc-controls.txt | normalise)
[[ -n $cam_ranges && $pc_ranges == "$cam_ranges" ]] &&
    pass "controls lists libcamera's controls as cam does: $(echo $pc_ranges | tr '\n' ' ')" ||
    fail "controls lists libcamera's controls as cam does" "cam: $(echo $cam_ranges) photocap: $(head -c 600 pc-controls.txt)"
grep -qF "  controls (set per capture request):" pc-devices.txt && grep -qE "^    Brightness \(float, " pc-devices.txt &&
    pass "devices lists the camera's libcamera controls" || fail "devices lists the camera's libcamera controls" "$(grep -A4 controls pc-devices.txt)"
timed timeout 120 "$PHOTOCAP" controls --device "$camera_id" --json >pc-controls.json 2>/dev/null
grep -qF '"name" : "Brightness"' pc-controls.json && grep -qF '"valueType" : "float"' pc-controls.json &&
    grep -qF '"minimum" : "-1"' pc-controls.json && grep -q '"libcameraControls" : \[' pc-devices.json &&
    pass "controls --json and devices --json carry the libcamera controls" ||
    fail "controls --json and devices --json carry the libcamera controls" "$(head -c 400 pc-controls.json)"
rc=0
timed timeout 120 "$PHOTOCAP" controls --device "$camera_id" --set Brightness=0.5 >pc-controls-set.txt 2>&1 || rc=$?
[[ $rc == 64 ]] && grep -qF "applied to each capture request" pc-controls-set.txt &&
    pass "controls --set on a libcamera camera is refused, saying why" || fail "controls --set on a libcamera camera is refused" "rc $rc: $(head -2 pc-controls-set.txt)"

# One line of judge.list: the words, each quoted as the shell reads it back.
judge() { printf '%q ' "$@" >>judge.list; echo >>judge.list; }
rm -f judge.list
# The references (judge-photos.sh makes them): cam's frame of SIZE turned upright for a sensor
# mounted at $rotation, and turned the wrong way.
reference() { judge reference "$1" "$2" "$rotation"; }  # SIZE FRAME
reference "$size" "$frame"
# photocap's default size is the camera's largest; cam's frame of that size for its reference.
largest=$(sed -n 's/^  default still format: [A-Z0-9]* \([0-9]*x[0-9]*\).*/\1/p' pc-devices.txt | head -1)
if [[ -n $largest && $largest != "$size" ]]; then
    rm -f cam-largest-*.bin
    timed timeout 240 cam -c 1 --capture=2 --file="$OUT/cam-largest-#.bin" \
        -s role=still,width=${largest%x*},height=${largest#*x} >cam-largest.txt 2>&1
    largest_frame=$(ls cam-largest-*.bin 2>/dev/null | head -1)
    [[ -n $largest_frame ]] && reference "$largest" "$largest_frame" || fail "cam captures a $largest frame" "$(tail -3 cam-largest.txt)"
fi

shoot() {  # NAME EXTENSION REFERENCE_SIZE [ARGS...]
    local name=$1 format=$2 reference=$3; shift 3
    rm -f "pc-$name.$format"
    timed timeout 600 "$PHOTOCAP" shoot --format "${format/jpg/jpeg}" --output "pc-$name.$format" "$@" >"pc-$name.txt" 2>&1
    local rc=$?
    cat "pc-$name.txt"
    if ((rc != 0)) || [[ ! -s pc-$name.$format ]]; then
        fail "photocap shoot $name" "rc $rc: $(tail -3 "pc-$name.txt")"
        return
    fi
    grep -qi synthetic "pc-$name.txt" && { fail "photocap shoot $name" "fell back to the synthetic camera"; return; }
    judge upright "$name" "pc-$name.$format" "$reference"
}
# The first with no option at all (the camera's largest size), one by libcamera's id at cam's
# size. The mountings below are judged at a small size, which keeps the VM's emulated CPU (x265
# takes over a minute for a 1080p HEIC there) within the run's time; so does x265's fastest
# preset, which changes how the picture is compressed, not how it is turned.
shoot jpeg jpg "${largest:-$size}"
shoot jpeg-by-id jpg "$size" --device "$camera_id" --size "$size"

# No fake photo when a real camera is there: a photocap without its libcamera shim beside it sees
# only vimc's pipeline nodes, which cannot stream unconfigured. shoot must fail, naming each node
# and why libcamera is not there, and write nothing (no synthetic picture).
mkdir -p alone alone-shots
rm -f alone-shots/*
cp "$PHOTOCAP" alone/photocap
timed timeout 300 alone/photocap shoot --output alone-shots/ >pc-alone.txt 2>&1
rc=$?
cat pc-alone.txt
if ((rc == 1)) && grep -q "^photocap: error: \(request 1: \)\?no camera of this machine can be used: /dev/video[0-9]* is one stage of a media-controller pipeline" pc-alone.txt &&
    grep -qF "photocap's libcamera support is not loaded: libphotocap-libcamera.so: cannot open shared object file" pc-alone.txt &&
    ! grep -qi "synthetic" pc-alone.txt && [[ -z $(ls alone-shots) ]]; then
    pass "without libcamera, shoot refuses vimc's pipeline nodes with their reason and writes nothing"
else
    fail "without libcamera, shoot refuses vimc's pipeline nodes" "rc $rc, files: $(ls alone-shots | head -3)"
fi

# Each mounting, 90° (as loaded), 0°, 180° and 270° (VIMC_ROTATIONS): vimc reloaded with its
# sensor so reported, cam's frame of each as the reference, JPEG and HEIC with and without
# compensation; at 90°, also --aspect and --zoom, against cam's frame turned and cropped.
small=${VIMC_SMALL_SIZE:-636x480}
# vimc's picture does not depend on the mounting it reports: one frame of cam's is the reference
# for every mounting.
rm -f cam-small-*.bin
timed timeout 240 cam -c 1 --capture=2 --file="$OUT/cam-small-#.bin" -s role=still,width=${small%x*},height=${small#*x} \
    >cam-small.txt 2>&1
small_frame=$(ls cam-small-*.bin 2>/dev/null | head -1)
[[ -n $small_frame ]] || fail "cam captures a $small frame" "$(tail -3 cam-small.txt)"
loaded=$rotation
for more in ${VIMC_ROTATIONS-90 0 180 270}; do
    [[ -n $small_frame ]] || break
    if [[ $more != "$loaded" ]]; then
        if ! rmmod vimc || ! insmod "$VIMC" sensor_rotation="$more" sensor_orientation="${VIMC_ORIENTATION:-1}"; then
            fail "vimc reloads with its sensor at $more°" "rmmod or insmod failed"
            continue
        fi
        loaded=$more
        udevadm settle --timeout=60
    fi
    rotation=$more
    more_frame=$small_frame
    reference "$small" "$more_frame"
    shoot "jpeg-at-$more" jpg "$small" --size "$small"
    shoot "jpeg-at-$more-uncompensated" jpg "$small" --no-compensation --size "$small"
    shoot "heic-at-$more" heic "$small" --size "$small" --heic-speed ultrafast
    shoot "heic-at-$more-uncompensated" heic "$small" --no-compensation --size "$small" --heic-speed ultrafast
    if [[ $more == 90 ]]; then
        # Upright, the 636x480 frame is 480x636; 1:1 keeps its centre 480x480, zoom 2 half of that.
        judge reference "$small" "$more_frame" "$rotation" 240x240 zoomed
        shoot aspect-zoom jpg zoomed --size "$small" --aspect 1:1 --zoom 2
        judge dimensions pc-aspect-zoom.jpg 240x240 "--aspect 1:1 --zoom 2 gives 240x240"
    fi
done

# A pipeline streamed as a plain V4L2 node, configured by hand (media-ctl for the links and the
# subdevices' formats, v4l2-ctl for the nodes', as boards whose sensor libcamera does not support
# are used): photocap offers the node's configured format, and reads the mounting from the sensor
# subdevice the enabled links lead back to (media topology), as the node has no such controls.
# First with the node at a format the pipeline does not carry (BGR24 where the scaler gives
# RGB888): a clear error naming the node, and no file.
capture_node=/dev/$(basename "$(dirname "$(grep -l 'RGB/YUV Capture' /sys/class/video4linux/video*/name | head -1)")")
raw_node=/dev/$(basename "$(dirname "$(grep -l 'Raw Capture 1' /sys/class/video4linux/video*/name | head -1)")")
media=/dev/$(basename "$(ls -d /sys/bus/platform/devices/vimc.0/media* | head -1)")
rotation=$loaded
if media-ctl -d "$media" -l '"Debayer A":1->"Scaler":0[0], "Debayer B":1->"Scaler":0[1]' &&
    media-ctl -d "$media" -V "\"Sensor B\":0[fmt:SRGGB8_1X8/$small], \"Debayer B\":0[fmt:SRGGB8_1X8/$small], \"Debayer B\":1[fmt:RGB888_1X24/$small], \"Scaler\":0[fmt:RGB888_1X24/$small]" &&
    # Sensor B's raw node is on an enabled link too: streaming validates its format as well.
    v4l2-ctl -d "$raw_node" -v "width=${small%x*},height=${small#*x},pixelformat=RGGB" &&
    v4l2-ctl -d "$capture_node" -v "width=${small%x*},height=${small#*x},pixelformat=BGR3"; then
    media-ctl -d "$media" -p 2>&1 | grep -E "entity|fmt:|->" | head -40
    rm -f pc-mc-refused.jpg
    timed timeout 300 "$PHOTOCAP" shoot --device "$capture_node" --output pc-mc-refused.jpg >pc-mc-refused.txt 2>&1
    rc=$?
    cat pc-mc-refused.txt
    ((rc == 1)) && grep -qF "$capture_node is one stage of a media-controller pipeline" pc-mc-refused.txt &&
        grep -qF "configure it with media-ctl" pc-mc-refused.txt && [[ ! -e pc-mc-refused.jpg ]] &&
        pass "a pipeline node that will not stream: a clear error, nothing written" ||
        fail "a pipeline node that will not stream" "rc $rc: $(tail -1 pc-mc-refused.txt)"
    v4l2-ctl -d "$capture_node" -v "width=${small%x*},height=${small#*x},pixelformat=RGB3"
    rm -f pc-mc.jpg
    timed timeout 300 "$PHOTOCAP" shoot --device "$capture_node" --json --output pc-mc.jpg >pc-mc.json 2>pc-mc.err
    rc=$?
    cat pc-mc.json pc-mc.err
    if ((rc == 0)) && [[ -s pc-mc.jpg ]] && grep -qF "\"sensorRotation\":$rotation," pc-mc.json &&
        grep -qE '"sensorRotationSource":"V4L2_CID_CAMERA_SENSOR_ROTATION on /dev/v4l-subdev[0-9]+ \(Sensor B\)"' pc-mc.json; then
        pass "a configured pipeline's node: its format, and its sensor subdevice's mounting ($rotation°)"
        # The reference: v4l2-ctl's frame of the same node (vimc's text differs from the frames
        # of libcamera's configuration).
        rm -f v4l2-mc.bin
        timed timeout 120 v4l2-ctl -d "$capture_node" --stream-mmap --stream-count=1 --stream-to=v4l2-mc.bin
        if [[ -s v4l2-mc.bin ]]; then
            judge reference "$small" v4l2-mc.bin "$rotation" "" media-ctl
            judge upright media-ctl-node pc-mc.jpg media-ctl
        else
            fail "v4l2-ctl captures a frame of the configured node" "no frame"
        fi
    else
        dmesg | grep -E "vimc" | tail -4
        fail "a configured pipeline's node" "rc $rc: $(head -c 600 pc-mc.json) $(tail -2 pc-mc.err)"
    fi
else
    fail "media-ctl and v4l2-ctl configure vimc's Sensor B pipeline" "a call failed"
fi

# A live session of 60 s on libcamera's camera (watch runs in photocap-vision, beside photocap):
# a report each second, frames streamed all along, and a clean stop.
timed timeout 300 "$PHOTOCAP" watch --device "$camera_id" --duration 60 --json >pc-watch.json 2>pc-watch.err
rc=$?
tail -2 pc-watch.json
seconds=$(grep -c '"second"' pc-watch.json)
streamed=$(tail -1 pc-watch.json | sed -n 's/.*"framesStreamed":\([0-9]*\).*/\1/p')
halfway=$(grep '"second":30}' pc-watch.json | sed -n 's/.*"framesStreamed":\([0-9]*\).*/\1/p')
((rc == 0 && seconds >= 59 && ${halfway:-0} > 0 && ${streamed:-0} > ${halfway:-0})) &&
    pass "a 60 s live session: $seconds reports, $streamed frames ($halfway by second 30)" ||
    fail "a 60 s live session" "rc $rc, $seconds reports, frames ${halfway:-?} then ${streamed:-?}: $(tail -2 pc-watch.err)"

# Not there yet on libcamera, and so refused before capture rather than faked: a bracket (no
# exposure controls yet) and a focus scan (no focus controls yet).
for refused in "--bracket -1,0,+1" "--focus once"; do
    rm -f refused.jpg
    timed timeout 300 "$PHOTOCAP" shoot --device "$camera_id" --size "$small" $refused --output refused.jpg >pc-refused.txt 2>&1
    rc=$?
    cat pc-refused.txt
    ((rc == 1)) && grep -qF "$camera_id" pc-refused.txt && [[ ! -e refused.jpg ]] &&
        pass "shoot $refused on libcamera's camera is refused, nothing written" || fail "shoot $refused is refused" "rc $rc: $(tail -1 pc-refused.txt)"
done

# The camera held by another process: cam streams it (until killed); photocap must say so.
rm -f busy.jpg
cam -c 1 --capture -s role=still,width=${small%x*},height=${small#*x} >cam-busy.txt 2>&1 &
holder=$!
for _ in $(seq 120); do grep -q "seq:" cam-busy.txt && break; sleep 0.5; done
timed timeout 300 "$PHOTOCAP" shoot --device "$camera_id" --output busy.jpg >pc-busy.txt 2>&1
rc=$?
kill $holder; wait $holder 2>/dev/null
cat pc-busy.txt
((rc == 1)) && grep -qF "$camera_id is busy (another program is using it)" pc-busy.txt && [[ ! -e busy.jpg ]] &&
    pass "a camera held by cam: a clear error, nothing written" || fail "a camera held by cam" "rc $rc: $(tail -2 pc-busy.txt)"

# Unplugged mid-stream: a burst on libcamera's camera, vimc's device unbound once photos have
# begun. photocap must end with an error saying so, and every file it left must be whole.
mkdir -p unplug
rm -rf unplug/* unplug/.[!.]*
"$PHOTOCAP" shoot --device "$camera_id" --size "$small" --count 500 --output unplug/ >pc-unplug.txt 2>&1 &
shooter=$!
for _ in $(seq 240); do [[ -n $(ls unplug) ]] && break; sleep 0.5; done
echo vimc.0 >/sys/bus/platform/drivers/vimc/unbind
for _ in $(seq 240); do kill -0 $shooter 2>/dev/null || break; sleep 0.5; done
if kill -0 $shooter 2>/dev/null; then
    kill -9 $shooter
    fail "unplugged mid-burst" "photocap still ran 120 s after the unbind"
else
    wait $shooter
    rc=$?
    tail -3 pc-unplug.txt
    files=$(ls -A unplug | wc -l) whole=0
    for file in unplug/*.jpg; do [[ -e $file ]] && djpeg "$file" >/dev/null 2>&1 && whole=$((whole + 1)); done
    ((rc == 1)) && grep -qF "$camera_id was disconnected" pc-unplug.txt && ((files > 0 && files < 500 && whole == files)) &&
        pass "unplugged mid-burst: a clear error, $files whole photos, nothing half-written" ||
        fail "unplugged mid-burst" "rc $rc, $files files, $whole whole: $(tail -1 pc-unplug.txt)"
fi
echo vimc.0 >/sys/bus/platform/drivers/vimc/bind
