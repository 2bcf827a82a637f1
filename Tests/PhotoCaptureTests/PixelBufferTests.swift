import PhotoCapture
import Testing

/// The pixel buffer's planes as an app reads them (like `CVPixelBuffer`'s plane accessors).
@Suite struct PixelBufferTests {
    @Test func planesRebuildThePictureWithJFIFFormulas() async throws {
        let (session, output) = try await runningSession(CaptureDevice.synthetic())
        var settings = PhotoSettings(format: .uncompressed)
        settings.maxPhotoDimensions = PixelSize(width: 66, height: 50)  // odd chroma: 33x25
        let photo = try await output.capturePhoto(with: settings)
        await session.stopRunning()
        let buffer = photo.pixelBuffer
        #expect(buffer.planeCount == 3)
        #expect(buffer.size(ofPlane: 0) == buffer.size)
        #expect(buffer.size(ofPlane: 1) == PixelSize(width: (buffer.size.width + 1) / 2, height: (buffer.size.height + 1) / 2))
        for plane in 0..<3 { #expect(buffer.bytesPerRow(ofPlane: plane) >= buffer.size(ofPlane: plane).width) }

        // Full-range BT.601 (JFIF) back to RGB, pixel by pixel, against the library's own conversion.
        let rgb = try buffer.rgbImage()
        let planes = (0..<3).map { plane in
            buffer.withUnsafeBytes(ofPlane: plane) { bytes in
                (bytes: [UInt8](bytes), stride: buffer.bytesPerRow(ofPlane: plane))
            }
        }
        var worst = 0.0
        for y in 0..<buffer.size.height {
            for x in 0..<buffer.size.width {
                let luma = Double(planes[0].bytes[y * planes[0].stride + x])
                let cb = Double(planes[1].bytes[(y / 2) * planes[1].stride + x / 2]) - 128
                let cr = Double(planes[2].bytes[(y / 2) * planes[2].stride + x / 2]) - 128
                let expected = (luma + 1.402 * cr, luma - 0.344136 * cb - 0.714136 * cr, luma + 1.772 * cb)
                let actual = rgb.pixel(x: x, y: y)
                for (a, e) in [(actual.r, expected.0), (actual.g, expected.1), (actual.b, expected.2)] {
                    worst = max(worst, abs(Double(a) - min(255, max(0, e))))
                }
            }
        }
        // Rounding and chroma siting differ by a few levels at most; a wrong plane or stride by 100+.
        #expect(worst <= 6, "plane reconstruction differs by \(worst)")
    }
}
