# Timelapse on vivid (sourced by guest-scenarios.sh: $P, $DEV, pass, fail, ended, load_vivid).

# T1. An unplugged camera is waited for and the timelapse resumes: vivid's disconnect control
#     unregisters the node; reloading the module brings back a camera with the same bus info.
load_vivid
mkdir -p lapse
"$P" shoot --device $DEV --size 640x360 --interval 1s --count 10 --reconnect-timeout 30s \
    --latest lapse/latest.jpg --output lapse/ --json >lapse.json 2>lapse.err &
shooter=$!
# Unplugged once two photos are in (the VM's camera runs at about 2 frames a second).
for _ in $(seq 300); do (($(wc -l <lapse.json) >= 2)) && break; sleep 0.1; done
v4l2-ctl -d $DEV -c disconnect=1
# photocap notices at its next slot and closes the vanished device, so the module can go.
for _ in $(seq 50); do modprobe -r vivid 2>/dev/null && break; sleep 0.2; done
sleep 1
load_vivid
if ended $shooter 600 "timelapse: reconnect" "60 s after the camera came back" lapse.err; then
    photos=$(wc -l <lapse.json)
    latest=$(readlink lapse/latest.jpg)
    last=$(python3 -c 'import json,sys; print([json.loads(l) for l in open(sys.argv[1])][-1]["path"].split("/")[-1])' lapse.json 2>/dev/null)
    if ((rc == 0)) && ((photos == 10)) && grep -q "disconnected; waiting" lapse.err && grep -q "is back after" lapse.err &&
        grep -Eq "timelapse: 10 photos every 1.0s, .*camera away for [0-9.]+ s at slot" lapse.err &&
        [[ -n $latest && $latest == "$last" ]] && only_complete_jpegs lapse >/dev/null; then
        pass "timelapse: unplugged camera waited for and resumed ($photos photos, $(grep -o 'camera away for [0-9.]* s' lapse.err))"
    else
        fail "timelapse: reconnect" "rc=$rc photos=$photos latest=$latest last=$last $(cat lapse.err)"
    fi
fi
