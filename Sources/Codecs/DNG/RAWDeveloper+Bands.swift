import CRaw
import Imaging

extension RAWDeveloper {
    /// The visible CFA image as a 16-bit Bayer frame over LibRaw's own sensor data (no copy),
    /// carrying how LibRaw would develop it (``Frame/development``: black levels, white
    /// balance as shot, white level, the camera's matrix to sRGB), so that the conversion pass
    /// develops it a band of rows at a time: the whole picture is never held, developed, beside
    /// the sensor data. The frame keeps this developer alive.
    ///
    /// Nil when LibRaw's development cannot be said per site of a 2×2 Bayer tile: another
    /// filter layout, a black pattern that does not repeat every two rows and columns, no
    /// white balance.
    package func bandedFrame() -> Frame? {
        let size = imageSize
        guard let image = info.raw_image, size.width >= 2, size.height >= 2,
              let pattern = FramePixelFormat.BayerPattern.allCases.first(where: { $0.colorIndices == cfaColorIndices }),
              let format = FramePixelFormat.bayer(pattern, bits: 16), let development = bandDevelopment() else { return nil }
        let pitch = Int(info.raw_pitch)
        let first = Int(info.top_margin) * pitch / 2 + Int(info.left_margin)
        let available = pitch * Int(info.raw_height) - first * 2
        // The storage only keeps the developer, whose LibRaw processor owns the samples.
        let keeper = Keeper(developer: self)
        let storage = FrameStorage(borrowing: UnsafeRawBufferPointer(start: image + first, count: available), holder: .source) { _ in
            withExtendedLifetime(keeper) {}
        }
        guard var frame = try? Frame(format: format, size: size, bytesPerRow: pitch, storage: storage) else { return nil }
        frame.development = development
        return frame
    }

    /// LibRaw's development of this file per site of the filter tile, or nil (see ``bandedFrame()``).
    private func bandDevelopment() -> CFADevelopment? {
        var black: (UInt32, UInt32, UInt32, UInt32) = (0, 0, 0, 0)
        var multipliers: (Float, Float, Float, Float) = (0, 0, 0, 0)
        var white: UInt32 = 0
        let known = withUnsafeMutableBytes(of: &black) { black in
            withUnsafeMutableBytes(of: &multipliers) { multipliers in
                pc_raw_site_levels(raw, black.baseAddress!.assumingMemoryBound(to: UInt32.self),
                                   multipliers.baseAddress!.assumingMemoryBound(to: Float.self), &white)
            }
        }
        guard known != 0 else { return nil }
        let sites = [multipliers.0, multipliers.1, multipliers.2, multipliers.3]
        // scale_colors without highlight recovery: the smallest multiplier is 1, so every
        // channel clips at white.
        let smallest = sites.min()!
        let scales = sites.map { $0 / smallest * 65535 / Float(white) }
        // LibRaw's matrix columns follow its colour names; the kernel's are red, green, blue.
        let names = withUnsafeBytes(of: info.colors) { Array($0) }
        let columns = [UInt8(ascii: "R"), UInt8(ascii: "G"), UInt8(ascii: "B")].map { names.firstIndex(of: $0) }
        guard columns.allSatisfy({ $0 != nil && $0! < 3 }) else { return nil }
        let rows = withUnsafeBytes(of: info.camera_to_srgb) { Array($0.bindMemory(to: Float.self)) }
        let matrix = (0..<3).flatMap { row in columns.map { rows[row * 4 + $0!] } }
        return CFADevelopment(blackLevels: [black.0, black.1, black.2, black.3].map { Int32(clamping: $0) },
                              scales: scales, matrix: matrix)
    }

    /// Keeps a developer alive for a frame's storage, which must be Sendable; the developer is
    /// never used through it.
    private struct Keeper: @unchecked Sendable {
        let developer: RAWDeveloper
    }
}
