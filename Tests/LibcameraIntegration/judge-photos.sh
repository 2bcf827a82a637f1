#!/usr/bin/env bash
# Judges, on the host, the photos the vimc guest took (guest-photocap.sh lists them in
# OUT/judge.list): ImageMagick and ExifTool run here at the host's speed, where the guest's
# emulated CPU took seconds a call. Each line of judge.list, in order:
#   reference SIZE FRAME ROTATION [CROP KEY]  cam's BGR888 FRAME of SIZE turned by the
#       compensation of a sensor mounted at ROTATION (counter-clockwise by ROTATION), and the
#       wrong way (a half turn from upright), optionally cropped at the centre to CROP, both
#       scaled to 96x96, kept under KEY (default SIZE);
#   upright NAME FILE KEY  the photo as a viewer shows it (EXIF orientation and HEIC irot
#       applied: -auto-orient, libheif) must be within $tolerance normalised RMSE of KEY's
#       upright reference and nearer to it than to the wrong turn (same size as cam's frame:
#       vimc's test pattern writes its text at a fixed pixel size);
#   dimensions FILE WxH WHAT  the photo's stored width and height.
# Prints PASS/FAIL per check and "vimc photos judged on the host: N passed, N failed"; exits
# non-zero when any failed or the list is missing.
# Usage: judge-photos.sh OUT
set -uo pipefail
cd "$1" || exit 1
tolerance=0.08
passed=0 failed=0
pass() { echo "PASS $1"; passed=$((passed + 1)); }
fail() { echo "FAIL $1: $2"; failed=$((failed + 1)); }
distance() { compare -metric RMSE "$1" "$2" null: 2>&1 | sed -n 's/.*(\([0-9.e-]*\)).*/\1/p'; }

reference() {  # SIZE FRAME ROTATION [CROP KEY]
    local size=$1 frame=$2 rotation=$3 key=${5:-$1} before=() after=()
    # Sampled down first when the whole frame is kept (squashing then turning is turning then
    # squashing); a crop is taken from the full frame.
    if [[ -n ${4:-} ]]; then after=(-gravity center -crop "$4+0+0" +repage); else before=(-sample '384x384!'); fi
    convert -size "$size" -depth 8 "rgb:$frame" "${before[@]}" -rotate "-$rotation" "${after[@]}" \
        -resize '96x96!' "ref-upright-$key.png" &&
        convert -size "$size" -depth 8 "rgb:$frame" "${before[@]}" -rotate "$((180 - rotation))" "${after[@]}" \
            -resize '96x96!' "ref-wrong-$key.png" ||
        fail "reference $key from $frame" "convert failed"
}

upright() {  # NAME FILE KEY
    local name=$1 file=$2 key=$3 good bad
    exiftool -Orientation -ImageWidth -ImageHeight "$file" | tr '\n' ' '; echo
    convert -define jpeg:size=384x384 "$file" -auto-orient -resize '96x96!' "pc-$name-seen.png"
    good=$(distance "pc-$name-seen.png" "ref-upright-$key.png") bad=$(distance "pc-$name-seen.png" "ref-wrong-$key.png")
    if awk -v g="$good" -v b="$bad" -v t="$tolerance" 'BEGIN { exit !(g != "" && g <= t && g < b) }'; then
        pass "photocap shoot $name is upright (RMSE $good to the reference frame turned, $bad to the wrong turn)"
    else
        fail "photocap shoot $name is upright" "RMSE $good to the reference frame turned, $bad to the wrong turn (tolerance $tolerance)"
    fi
}

dimensions() {  # FILE WxH WHAT
    local found
    found=$(exiftool -s3 -ImageWidth -ImageHeight "$1" | paste -sd x)
    [[ $found == "$2" ]] && pass "$3" || fail "$3" "$found"
}

if [[ ! -s judge.list ]]; then
    fail "the guest lists its photos to judge" "no judge.list in $PWD"
else
    while IFS= read -r line; do
        eval "set -- $line"
        case $1 in
        reference | upright | dimensions) "$@" ;;
        *) fail "judge.list" "unknown line: $line" ;;
        esac
    done <judge.list
fi
echo "vimc photos judged on the host: $passed passed, $failed failed"
((failed == 0))
