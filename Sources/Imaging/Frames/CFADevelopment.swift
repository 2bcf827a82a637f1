import CImagingKernels
import Glibc

/// How the 16-bit CFA samples of a RAW file become 8-bit sRGB when photocap develops them
/// itself, in the conversion pass, a band of rows at a time (``Frame/development``): per site of
/// the 2×2 filter tile the black level is subtracted and the white balance and white level
/// scale it to 0...65535; Malvar–He–Cutler's filters demosaic it; the camera's matrix takes it
/// to linear sRGB and the sRGB curve to 8 bits. The parameters are LibRaw's for the file, so
/// the result matches LibRaw's whole-picture development but for the demosaic.
package struct CFADevelopment: Sendable {
    /// Per site of the tile, row by row: the black level …
    package let blackLevels: [Int32]
    /// … and the factor that takes `value - black` to 0...65535.
    package let scales: [Float]
    /// Camera red, green, blue to linear sRGB, row by row.
    package let matrix: [Float]

    /// Fails (nil) unless there are four black levels and scales and nine matrix entries.
    package init?(blackLevels: [Int32], scales: [Float], matrix: [Float]) {
        guard blackLevels.count == 4, scales.count == 4, matrix.count == 9,
              scales.allSatisfy({ $0.isFinite && $0 >= 0 }), matrix.allSatisfy(\.isFinite) else { return nil }
        (self.blackLevels, self.scales, self.matrix) = (blackLevels, scales, matrix)
    }

    /// The sRGB curve from linear 0...65535 to 8 bits, truncated as LibRaw's 8-bit output is
    /// (its 16-bit curve's high byte).
    static let curve: [UInt8] = (0...65535).map { index in
        let linear = Double(index) / 65535
        let encoded = linear <= 0.0031308 ? 12.92 * linear : 1.055 * pow(linear, 1 / 2.4) - 0.055
        return UInt8(min(255, max(0, Int(encoded * 256))))
    }

    /// Calls `body` with the parameters as the row kernel takes them.
    func withKernelParameters<Result>(_ body: (UnsafePointer<pc_development>) -> Result) -> Result {
        Self.curve.withUnsafeBufferPointer { curve in
            var parameters = pc_development()
            // The arrays' own buffers, borrowed for the copy: an implicit array-to-pointer
            // conversion would dangle once its argument was evaluated.
            blackLevels.withUnsafeBytes { levels in withUnsafeMutableBytes(of: &parameters.black) { $0.copyMemory(from: levels) } }
            scales.withUnsafeBytes { scales in withUnsafeMutableBytes(of: &parameters.scale) { $0.copyMemory(from: scales) } }
            matrix.withUnsafeBytes { matrix in withUnsafeMutableBytes(of: &parameters.matrix) { $0.copyMemory(from: matrix) } }
            parameters.curve = curve.baseAddress
            return withUnsafePointer(to: parameters, body)
        }
    }
}
