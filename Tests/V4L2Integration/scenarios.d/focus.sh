# Focus: vivid has no focus controls, so photocap devices says so and
# shoot --focus is refused before capture, with no file written. The focus path itself is tested
# on the host against FakeV4L2Driver's lens (FocusV4L2FakeDriverTests).
# (Sourced by guest-scenarios.sh: uses $P, $DEV, pass, fail.)
mkdir -p focus
"$P" devices >focus/devices.txt 2>&1
if grep -q "focus: none (fixed focus)" focus/devices.txt &&
    ! "$P" shoot --device $DEV --size 640x360 --focus once --output focus/once.jpg 2>focus/once.err &&
    grep -q "$DEV has no focus control" focus/once.err && [[ ! -e focus/once.jpg ]]; then
    pass "focus refused before capture on vivid (no focus controls)"
else
    fail "focus refused before capture on vivid (no focus controls)" "$(cat focus/devices.txt focus/once.err | head -c 2000)"
fi
