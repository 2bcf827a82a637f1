# Sourced by guest-vimc.sh once `cam` has captured $frame (BGR888, $size): photocap's libcamera
# backend on the same camera. `devices` must list libcamera's camera with the sensor's mounting
# (and no raw vimc node as a camera); `shoot` with no --device must take that camera (no
# synthetic fallback) and give an upright photo, JPEG and HEIC, with and without compensation,
# and so must --device with libcamera's id.
# Upright is judged by ImageMagick: the photo as a viewer shows it (EXIF orientation and HEIC
# irot applied: -auto-orient, libheif) against cam's frame of the same size turned by the
# compensation of a sensor mounted at $rotation (counter-clockwise by $rotation), both scaled to
# 96x96; the normalised RMSE must be at most $tolerance, and the opposite turn must be further
# away. (Same size: vimc's test pattern writes its text at a fixed pixel size.)
tolerance=0.08
camera_id="platform/vimc.0 Sensor B"

timed timeout 300 "$PHOTOCAP" devices >pc-devices.txt 2>pc-devices.err
cat pc-devices.txt pc-devices.err
grep -qF "$camera_id: " pc-devices.txt && grep -qF "[libcamera]" pc-devices.txt &&
    pass "photocap devices lists libcamera's camera" || fail "photocap devices lists libcamera's camera" "$(head -3 pc-devices.txt)"
grep -qF "sensor: rotation $rotation° (from libcamera: sensor rotation $rotation°" pc-devices.txt &&
    pass "photocap devices shows the mounting from libcamera" || fail "photocap devices shows the mounting from libcamera" "$(grep sensor: pc-devices.txt)"
grep -qE '^/dev/video[0-9]+: ' pc-devices.txt && fail "photocap devices hides vimc's raw nodes" "$(grep -E '^/dev/video' pc-devices.txt)" ||
    pass "photocap devices hides vimc's raw nodes"
timed timeout 300 "$PHOTOCAP" devices --json >pc-devices.json 2>/dev/null
grep -q '"sensorRotationSource" : "libcamera Rotation"' pc-devices.json &&
    pass "devices --json says the mounting came from libcamera" || fail "devices --json says the mounting came from libcamera" "$(grep -i rotation pc-devices.json)"

# The references: cam's frame (BGR888 is R, G, B in memory) turned upright, and the wrong way.
reference() {  # SIZE FRAME
    convert -size "$1" -depth 8 "rgb:$2" -rotate "-$rotation" -resize '96x96!' "ref-upright-$1.png"
    convert -size "$1" -depth 8 "rgb:$2" -rotate "$rotation" -resize '96x96!' "ref-wrong-$1.png"
}
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
distance() { compare -metric RMSE "$1" "$2" null: 2>&1 | sed -n 's/.*(\([0-9.e-]*\)).*/\1/p'; }

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
    exiftool -Orientation -ImageWidth -ImageHeight "pc-$name.$format" | tr '\n' ' '; echo
    convert "pc-$name.$format" -auto-orient -resize '96x96!' "pc-$name-seen.png"
    local good bad
    good=$(distance "pc-$name-seen.png" "ref-upright-$reference.png") bad=$(distance "pc-$name-seen.png" "ref-wrong-$reference.png")
    if awk -v g="$good" -v b="$bad" -v t="$tolerance" 'BEGIN { exit !(g != "" && g <= t && g < b) }'; then
        pass "photocap shoot $name is upright (RMSE $good to cam's frame turned, $bad to the wrong turn)"
    else
        fail "photocap shoot $name is upright" "RMSE $good to cam's frame turned, $bad to the wrong turn (tolerance $tolerance)"
    fi
}
# The first with no option at all (the camera's largest size); the others at cam's size, which
# keeps the VM's emulated CPU within the run's time.
shoot jpeg jpg "${largest:-$size}"
shoot jpeg-uncompensated jpg "$size" --no-compensation --size "$size"
shoot heic heic "$size" --size "$size"
shoot heic-uncompensated heic "$size" --no-compensation --size "$size"
shoot jpeg-by-id jpg "$size" --device "$camera_id" --size "$size"
