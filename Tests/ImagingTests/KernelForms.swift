import CImagingKernels
import Synchronization

/// The forms of the row kernels this processor runs, and a way to force one. The
/// form is process-wide: suites that force it take turns through one lock, so none sees
/// another's choice.
enum KernelForms {
    static let hasAVX2: Bool = {
        let cpuinfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        return cpuinfo.split(separator: "\n").first { $0.hasPrefix("flags") }?.split(separator: " ").contains("avx2") ?? false
    }()

    /// The forms this processor can run.
    static let all = hasAVX2 ? [PC_KERNELS_BASELINE, PC_KERNELS_AVX2] : [PC_KERNELS_BASELINE]

    private static let turn = Mutex(())

    /// Runs `body` with `form` forced (the automatic choice for `PC_KERNELS_AUTOMATIC`), then
    /// restores the automatic choice.
    static func with<T>(_ form: pc_kernel_form, _ body: () throws -> T) rethrows -> T {
        try turn.withLock { _ in
            precondition(pc_kernels_set_form(form) == 1, "form \(form.rawValue) cannot run here")
            defer { pc_kernels_set_form(PC_KERNELS_AUTOMATIC) }
            return try body()
        }
    }
}
