# Per-shot controls: shoot --control NAME=VALUE sets V4L2 controls for the
# shot and puts them back afterwards, when a later control is refused, and on SIGINT. v4l2-ctl,
# not photocap, reads the controls back; djpeg decodes the photos.
# (Sourced by guest-scenarios.sh: uses $P, $DEV, pass, fail, load_vivid.)
cctl() { v4l2-ctl -d $DEV -C "$1" | awk -F': ' '{print $2}'; }
# Mean sample value of a JPEG, from djpeg's PPM.
mean_level() {
    djpeg -pnm "$1" | python3 -c '
import sys
data = sys.stdin.buffer.read()
# P6 header: magic, width, height, maxval, each followed by one whitespace byte.
fields, position = [], 0
while len(fields) < 4:
    while data[position:position + 1].isspace(): position += 1
    start = position
    while not data[position:position + 1].isspace(): position += 1
    fields.append(data[start:position])
pixels = data[position + 1:]
print(sum(pixels) // len(pixels))'
}

# C1. brightness 255 for one shot: the photo is brighter than one at the default, and
#     brightness is back at its earlier value (100, set by hand) afterwards.
load_vivid
mkdir -p controls
v4l2-ctl -d $DEV -c brightness=100
if "$P" shoot --device $DEV --size 640x360 --skip 3 --output controls/plain.jpg 2>controls/plain.err &&
    "$P" shoot --device $DEV --size 640x360 --skip 3 --control brightness=255 --control contrast=60 \
        --output controls/bright.jpg 2>controls/bright.err &&
    [[ $(cctl brightness) == 100 && $(cctl contrast) == 128 ]]; then
    plain=$(mean_level controls/plain.jpg)
    bright=$(mean_level controls/bright.jpg)
    if ((bright > plain + 40)); then
        pass "shoot --control: brightness for the shot (mean $plain → $bright), restored afterwards"
    else
        fail "shoot --control: the photo shows the control" "mean $plain without, $bright with brightness=255"
    fi
else
    fail "shoot --control: set and restored" "$(cat controls/plain.err controls/bright.err) brightness=$(cctl brightness) contrast=$(cctl contrast)"
fi

# C2. A refused second control: the first is put back, nothing is written, exit 1.
"$P" shoot --device $DEV --control brightness=255 --control no_such_control=1 --output controls/refused.jpg \
    >/dev/null 2>controls/refused.err
rc=$?
if ((rc == 1)) && [[ $(cctl brightness) == 100 && ! -e controls/refused.jpg ]] &&
    grep -q "has no control 'no_such_control'" controls/refused.err; then
    pass "shoot --control: a refused control puts back those already set"
else
    fail "shoot --control: refused control" "rc=$rc brightness=$(cctl brightness) $(cat controls/refused.err)"
fi

# C3. SIGINT in the middle of a long run: brightness back at 100, exit 130.
mkdir -p controls/sigint
# 3000 photos outlast the test by far. The signal is sent only once a photo exists: a job started
# with & from a script ignores SIGINT until photocap installs its handler, so an earlier one is lost.
"$P" shoot --device $DEV --size 640x360 --count 3000 --control brightness=200 --output controls/sigint/ \
    >/dev/null 2>controls/sigint.err &
shooter=$!
for _ in $(seq 1200); do [[ -n $(ls -A controls/sigint) ]] && break; sleep 0.1; done
during=$(cctl brightness)
kill -INT $shooter
if ended $shooter 100 "shoot --control: SIGINT restores" "10 s after SIGINT"; then
    if ((rc == 130)) && [[ $during == 200 && $(cctl brightness) == 100 ]] &&
        grep -q "interrupted: $DEV's --control values restored" controls/sigint.err; then
        pass "shoot --control: SIGINT mid-run restores the control, exit 130"
    else
        fail "shoot --control: SIGINT restores" "rc=$rc during=$during after=$(cctl brightness) $(cat controls/sigint.err)"
    fi
fi
