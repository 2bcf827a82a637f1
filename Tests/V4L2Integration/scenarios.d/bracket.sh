# Bracketed capture on vivid (sourced by guest-scenarios.sh: $P, $DEV, pass, fail, ended, load_vivid).
# vivid's only exposure-type control is gain (inactive while gain_automatic is 1); v4l2-ctl,
# not photocap, reads the controls back.
ctl() { v4l2-ctl -d $DEV -C "$1" | awk -F': ' '{print $2}'; }

# B1. An EV bracket scales the gain set by hand (60 → 30, 60, 120), one file per member, and the
#     gain is 60 again afterwards.
load_vivid
v4l2-ctl -d $DEV -c gain_automatic=0 && v4l2-ctl -d $DEV -c gain=60
mkdir -p bracket-ev
if "$P" shoot --device $DEV --size 640x360 --bracket=-1,0,+1 --json --output bracket-ev/ev.jpg >bracket-ev.json 2>bracket-ev.err &&
    [[ $(ls bracket-ev) == $'ev-b1.jpg\nev-b2.jpg\nev-b3.jpg' ]] && [[ $(ctl gain) == 60 && $(ctl gain_automatic) == 0 ]] &&
    python3 - bracket-ev.json <<'PY'; then
import json, sys
rows = [json.loads(line) for line in open(sys.argv[1])]
applied = [r["bracket"]["applied"] for r in rows]
ok = [a["iso"] for a in applied] == [30, 60, 120] and [a["exposureTargetBias"] for a in applied] == [-1, 0, 1] \
    and [r["sequenceCount"] for r in rows] == [1, 2, 3] and len({r["uniqueID"] for r in rows}) == 1
sys.exit(0 if ok else 1)
PY
    pass "bracket: EV through gain, files -b1..-b3, gain restored"
else
    fail "bracket: EV through gain" "$(cat bracket-ev.json bracket-ev.err; ls bracket-ev; ctl gain)"
fi

# B2. vivid has no exposure time: a manual time is refused before anything is captured.
mkdir -p bracket-refused
"$P" shoot --device $DEV --bracket-manual 1/100@50 --output bracket-refused/ >/dev/null 2>bracket-refused.err
rc=$?
if ((rc == 1)) && grep -q "has no exposure time control" bracket-refused.err && [[ -z $(ls -A bracket-refused) ]]; then
    pass "bracket: manual time refused on a camera without exposure time"
else
    fail "bracket: manual time refused" "rc=$rc $(cat bracket-refused.err)"
fi

# B3. SIGINT mid-bracket: automatic gain (switched off for the bracket) is back on, exit 130.
load_vivid
mkdir -p bracket-sigint
"$P" shoot --device $DEV --size 640x360 --bracket-manual @40,@80,@160 --settle-frames 50 --output bracket-sigint/ \
    >/dev/null 2>bracket-sigint.err &
shooter=$!
for _ in $(seq 200); do [[ $(ctl gain_automatic) == 0 ]] && break; sleep 0.1; done
during=$(ctl gain_automatic)
kill -INT $shooter
if ended $shooter 100 "bracket: SIGINT restores controls" "10 s after SIGINT"; then
    if ((rc == 130)) && [[ $during == 0 && $(ctl gain_automatic) == 1 ]] &&
        grep -q "interrupted: $DEV's exposure controls restored" bracket-sigint.err; then
        pass "bracket: SIGINT mid-bracket restores automatic gain, exit 130"
    else
        fail "bracket: SIGINT restores controls" "rc=$rc during=$during after=$(ctl gain_automatic) $(cat bracket-sigint.err)"
    fi
fi

# B4. Unplugged mid-bracket: a named error, promptly, only complete photos on disk.
load_vivid
mkdir -p bracket-gone
"$P" shoot --device $DEV --size 640x360 --bracket-manual @40,@80,@160,@240 --settle-frames 10 --output bracket-gone/ \
    >/dev/null 2>bracket-gone.err &
shooter=$!
for _ in $(seq 300); do [[ $(ctl gain 2>/dev/null) == 80 ]] && break; sleep 0.1; done
v4l2-ctl -d $DEV -c disconnect=1
if ended $shooter 150 "bracket: disconnect mid-bracket" "15 s after the disconnect"; then
    leftovers=$(only_complete_jpegs bracket-gone)
    if ((rc == 1)) && grep -Eq "request [0-9]+: $DEV was disconnected" bracket-gone.err && [[ -z $leftovers ]] &&
        (($(ls bracket-gone | wc -l) < 4)); then
        pass "bracket: disconnect mid-bracket ends with a named error"
    else
        fail "bracket: disconnect mid-bracket" "rc=$rc $leftovers $(cat bracket-gone.err; ls bracket-gone)"
    fi
fi
load_vivid
