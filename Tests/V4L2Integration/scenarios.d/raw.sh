# RAW: vivid's Bayer frames as DNG from the command line. 8-, 10- and 12-bit captures
# must give DNGs that exiftool -validate passes and dcraw -i identifies with the right size and
# filter pattern; --raw-plus gives both files from one frame; develop turns a vivid DNG into a JPEG.
# (Sourced by guest-scenarios.sh: uses $P, $DEV, pass and fail.)
mkdir -p raw
raw_problems=""
for spec in "BA81 BG/GR 8" "RG10 RG/GB 10" "BA12 GR/BG 12"; do
    read -r fourcc pattern bits <<<"$spec"
    file="raw/$fourcc.dng"
    if ! "$P" shoot --device $DEV --format dng --pixel-format $fourcc --size 640x360 --json --output "$file" \
        >"raw/$fourcc.json" 2>"raw/$fourcc.err"; then
        raw_problems+="$fourcc: $(cat raw/$fourcc.err); "
        continue
    fi
    verdict=$(exiftool -validate -warning -error -a "$file" 2>&1)
    [[ $verdict =~ Validate[[:space:]]+:\ OK && ! $verdict =~ Warning ]] || raw_problems+="$fourcc exiftool: $verdict; "
    identified=$(dcraw -i -v "$file" 2>&1)
    grep -q "Filter pattern: $pattern" <<<"$identified" && grep -q "Full size:    640 x 360" <<<"$identified" ||
        raw_problems+="$fourcc dcraw: $identified; "
    grep -q "\"bitsPerSample\":$bits," "raw/$fourcc.json" && grep -q '"isRawPhoto":true' "raw/$fourcc.json" ||
        raw_problems+="$fourcc json: $(cat raw/$fourcc.json); "
done
[[ -z $raw_problems ]] && pass "shoot --format dng: Bayer 8/10/12-bit DNGs validate and identify" ||
    fail "shoot --format dng: Bayer 8/10/12-bit DNGs validate and identify" "$raw_problems"

if "$P" shoot --device $DEV --raw-plus jpeg --pixel-format GB12 --size 640x360 --output raw/both.jpg >raw/both.out 2>&1 &&
    [[ -f raw/both.dng && -f raw/both.jpg ]] && djpeg raw/both.jpg >/dev/null &&
    exiftool -validate -warning -error -a raw/both.dng | grep -q "Validate *: OK$"; then
    pass "shoot --raw-plus jpeg: DNG and JPEG from one frame"
else
    fail "shoot --raw-plus jpeg: DNG and JPEG from one frame" "$(cat raw/both.out; ls raw)"
fi

if "$P" develop raw/RG10.dng --format jpeg --output raw/developed.jpg >raw/develop.out 2>&1 &&
    djpeg raw/developed.jpg >/dev/null && exiftool -validate -warning -error -a raw/developed.jpg | grep -q "Validate *: OK$"; then
    pass "develop: a vivid DNG becomes a valid JPEG"
else
    fail "develop: a vivid DNG becomes a valid JPEG" "$(cat raw/develop.out)"
fi
