# Dynamic aspect ratio, sourced by guest-scenarios.sh: pass/fail, $P, $DEV.

# aspect 1: 1:1 at 1280x720 on vivid's HDMI input is a 720x720 photo cropped by the driver.
if "$P" shoot --device $DEV --input 3 --size 1280x720 --aspect 1:1 --json --output hw.jpg >hw.json 2>hw.err &&
    [[ $(identify -format %wx%h hw.jpg) == 720x720 ]] &&
    python3 - hw.json <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
c = r["crop"]
ok = (c["method"] == "hardware" and c["aspectRatio"] == "1:1"
      and c["hardwareCrop"] == {"x": 280, "y": 0, "width": 720, "height": 720}
      and r["frameDimensions"] == {"width": 720, "height": 720} and r["dimensions"] == {"width": 720, "height": 720})
sys.exit(0 if ok else 1)
PY
then
    pass "shoot --input 3 --aspect 1:1 at 1280x720: 720x720 by the driver's crop"
else
    fail "shoot --input 3 --aspect 1:1 at 1280x720" "$(cat hw.json hw.err)"
fi
# The driver is left uncropped for the next program.
v4l2-ctl -d $DEV --get-selection target=crop | grep -q "Width 1280, Height 720" ||
    fail "driver crop reset after shoot" "$(v4l2-ctl -d $DEV --get-selection target=crop)"

# aspect 2: the webcam input cannot crop: the same request is cropped in the conversion pass.
if "$P" shoot --device $DEV --input 0 --size 1280x720 --aspect 9:16 --zoom 1.5 --json --output sw.jpg >sw.json 2>sw.err &&
    [[ $(identify -format %wx%h sw.jpg) == 270x480 ]] && grep -q '"method":"software"' sw.json; then
    pass "shoot --input 0 --aspect 9:16 --zoom 1.5: 270x480 in software"
else
    fail "shoot --input 0 --aspect 9:16 --zoom 1.5" "$(cat sw.json sw.err; identify sw.jpg)"
fi

# aspect 3: an input the device does not have is named, with the inputs it has.
if ! "$P" shoot --device $DEV --input 9 --output none.jpg >/dev/null 2>input.err &&
    grep -q "has no input 9 (inputs: 0 (Webcam 0), 1 (TV 0), 2 (S-Video 0), 3 (HDMI 0))" input.err && [[ ! -e none.jpg ]]; then
    pass "shoot --input 9: named error"
else
    fail "shoot --input 9: named error" "$(cat input.err)"
fi
