import Testing
import TestSupport

extension Trait where Self == ConditionTrait {
    /// Runs a suite only next to the kernel's vivid camera, inside the VM harness.
    static var vivid: Self { .enabled(if: Vivid.isAvailable, "needs vivid: run Tests/V4L2Integration/run-vivid-vm.sh") }
}
