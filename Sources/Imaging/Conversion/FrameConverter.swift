import CImagingKernels
import CYUV
import Dispatch
import FoundationEssentials
import Synchronization

/// Converts a camera frame to a ``PlanarImage`` in one pass: format conversion, crop, range
/// expansion, mirror and rotation together.
///
/// The frame is read once, in strips of a few rows. Each strip is converted into a small
/// cache-resident buffer and rotated from there into the destination, so a rotated photo costs
/// one read of the frame and one write of the image — not a full-size conversion followed by a
/// full-size rotation.
package struct FrameConverter: Sendable {
    /// Rows converted per strip: small enough for the strip to stay in L2, even for 4:2:0.
    package var stripHeight: Int
    /// Rows per strip when the transform has a quarter turn. 128 rows turn into 128 bytes of
    /// every luma row and 64 of every chroma row: whole cache lines, which the turn streams
    /// to memory (`pc_rotate_plane`); a 4032-pixel strip (774 KB) still stays in L2.
    package var quarterTurnStripHeight: Int
    /// Rows per block of a quarter-turned band converted just before it is encoded
    /// (``FrameConversion/convert(rows:into:firstRow:)``): a 64-column band's 32-row block and its turned
    /// place stay in L1 while the next one is fetched. 12 MP YUYV, 90°, 2-strip encode with
    /// 64-row bands, CPU time against the upright fused encode: 16-row blocks 1.23x (a call per
    /// few bytes), 32-row 1.07x, 64-row 1.08x, 128-row 1.13x; the whole frame converted first
    /// 1.19x. Bands of 128 rows were no better than 64.
    package var quarterTurnBlockHeight: Int
    /// Threads converting bands of strips side by side.
    package var threads: Int

    /// Creates a converter; strip and block heights are rounded up to even numbers; `threads`
    /// defaults to one per core, at most 4.
    package init(stripHeight: Int = 32, quarterTurnStripHeight: Int = 128, quarterTurnBlockHeight: Int = 32,
                 threads: Int = min(4, Processors.active)) {
        self.stripHeight = max(2, (stripHeight + 1) & ~1)
        self.quarterTurnStripHeight = max(2, (quarterTurnStripHeight + 1) & ~1)
        self.quarterTurnBlockHeight = max(2, (quarterTurnBlockHeight + 1) & ~1)
        self.threads = max(1, threads)
    }

    /// The crop that will really be used for `requested` on `frame`: clamped origin and size
    /// made even, because 4:2:0 chroma covers 2×2 pixels.
    package static func effectiveCrop(_ requested: PixelRect?, frameSize: PixelSize) throws(ImagingError) -> PixelRect {
        let rect = requested ?? PixelRect(covering: frameSize)
        guard rect.x >= 0, rect.y >= 0, !rect.size.isEmpty,
              rect.x + rect.size.width <= frameSize.width,
              rect.y + rect.size.height <= frameSize.height
        else { throw .cropOutsideFrame(rect, frame: frameSize) }
        let x = rect.x & ~1, y = rect.y & ~1
        let width = (rect.size.width + (rect.x - x)) & ~1
        let height = (rect.size.height + (rect.y - y)) & ~1
        guard width >= 2, height >= 2 else { throw .invalidSize(PixelSize(width: width, height: height)) }
        return PixelRect(x: x, y: y, size: PixelSize(width: width, height: height))
    }

    /// Converts `frame` (cropped to `crop`, by default the whole frame, made even as
    /// ``effectiveCrop(_:frameSize:)`` says) and applies `transform` to the pixels.
    ///
    /// The result's size is `transform.apply(to: crop.size)`.
    package func convert(_ delivered: Frame, crop: PixelRect? = nil, applying transform: Orientation = .up) throws(ImagingError) -> PlanarImage {
        try convert(prepare(delivered, crop: crop, applying: transform))
    }

    /// Does all of a prepared conversion at once: bands of strips of the crop's rows, one band
    /// per thread, each strip read from the frame row by row.
    package func convert(_ conversion: FrameConversion) throws(ImagingError) -> PlanarImage {
        let (width, height) = (conversion.rect.size.width, conversion.rect.size.height)
        let stripHeight = conversion.stripHeight, lead = conversion.lead
        let strips = (height + stripHeight - 1) / stripHeight
        @Sendable func stripStart(_ index: Int) -> Int {
            lead == 0 ? min(height, index * stripHeight) : index == 0 ? 0 : min(height, lead + (index - 1) * stripHeight)
        }
        // Bands of whole strips, one per thread; strips never straddle two bands.
        let bands = max(1, min(threads, strips))
        let stripsPerBand = (strips + bands - 1) / bands
        let failure = Mutex<ImagingError?>(nil)
        let output = FrameConversion.Output(image: try PlanarImage(size: conversion.size), firstRow: 0)
        try conversion.withSource { source in
            DispatchQueue.concurrentPerform(iterations: bands) { band in
                let first = min(strips, band * stripsPerBand), last = min(strips, first + stripsPerBand)
                do throws(ImagingError) {
                    try conversion.convertStrips(source, cropRows: stripStart(first)..<stripStart(last), columns: 0..<width,
                                                 into: output)
                } catch {
                    failure.withLock { $0 = $0 ?? error }
                }
            }
        }
        if let error = failure.withLock({ $0 }) { throw error }
        return output.image
    }

    /// The conversion ``convert(_:crop:applying:)`` does, prepared to be done a band of output
    /// rows at a time (``FrameConversion/convert(rows:into:firstRow:)``), on whichever threads need them.
    package func prepare(_ frame: Frame, crop: PixelRect? = nil, applying transform: Orientation = .up) throws(ImagingError) -> FrameConversion {
        try FrameConversion(frame: frame, crop: crop, transform: transform, converter: self)
    }
}

/// Rows of a destination image, starting at `row`.
struct Destination {
    let image: PlanarImage
    let row: Int

    var y: UnsafeMutablePointer<UInt8> { image.baseAddress(ofPlane: 0) + row * image.lumaStride }
    var cb: UnsafeMutablePointer<UInt8> { image.baseAddress(ofPlane: 1) + (row / 2) * image.chromaStride }
    var cr: UnsafeMutablePointer<UInt8> { image.baseAddress(ofPlane: 2) + (row / 2) * image.chromaStride }
    var lumaStride: Int32 { Int32(image.lumaStride) }
    var chromaStride: Int32 { Int32(image.chromaStride) }

    /// Stretches studio-swing samples to full range while the strip is still in cache.
    func expandRange(width: Int, rows: Int, format: FramePixelFormat) {
        pc_expand_luma_rows(y, image.lumaStride, width, rows)
        guard format != .grey else { return }
        pc_expand_chroma_rows(cb, image.chromaStride, (width + 1) / 2, (rows + 1) / 2)
        pc_expand_chroma_rows(cr, image.chromaStride, (width + 1) / 2, (rows + 1) / 2)
    }
}

/// The planes of a frame as V4L2 lays out a single-plane buffer.
///
/// Unchecked: the pointer is only read, by the bands of one conversion, while the frame's
/// storage is held.
struct SourcePlanes: @unchecked Sendable {
    let frame: Frame
    let base: UnsafePointer<UInt8>

    private var stride: Int { frame.bytesPerRow }

    /// Whether rows go through an RGB scratch strip first (Bayer, and X-first 32-bit RGB).
    var needsScratch: Bool { frame.format.isBayer || frame.format == .xrgb32 || frame.format == .bgrx32 }
    private var planarChromaStride: Int { (frame.bytesPerRow + 1) / 2 }
    private var chromaRows: Int { (frame.size.height + 1) / 2 }

    /// Asks for the bytes ``convertRows(startingAt:upward:x:width:rows:expandingRange:into:scratch:)`` will
    /// read of the frame's first plane (the packed pixels, or luma), ahead of the call.
    func prefetch(startingAt firstRow: Int, upward: Bool, x: Int, width: Int, rows: Int) {
        let first = frame.format.minimumBytesPerRow(width: x)
        let bytes = frame.format.minimumBytesPerRow(width: x + width) - first
        pc_prefetch_rows(base + firstRow * stride + first, upward ? -stride : stride, Int32(rows), bytes, 0)
    }

    /// Converts `rows` rows of `width` pixels from column `x`, starting at frame row `firstRow`
    /// and going down (or up, for a vertical flip), into `target`.
    ///
    /// With `expandingRange`, YUYV and UYVY rows may be taken to full range in the same pass
    /// (`pc_packed_to_i420_expanded`); returns whether they were, else the caller expands them.
    func convertRows(startingAt firstRow: Int, upward: Bool, x: Int, width: Int, rows: Int, expandingRange: Bool = false,
                     into target: Destination, scratch: UnsafeMutablePointer<UInt8>?) throws(ImagingError) -> Bool {
        let direction = upward ? -1 : 1
        if expandingRange, frame.format == .yuyv || frame.format == .uyvy,
           pc_packed_to_i420_expanded(base + firstRow * stride + x * 2, direction * stride, target.y, target.image.lumaStride,
                                      target.cb, target.cr, target.image.chromaStride, Int32(width), Int32(rows),
                                      frame.format == .uyvy ? 1 : 0) != 0 {
            return true
        }
        let lumaStride = Int32(direction * stride)
        let lumaRow = base + firstRow * stride
        // With an even crop origin and even strips, chroma rows pair up with luma rows exactly.
        let chromaRow = firstRow / 2
        let (w, h) = (Int32(width), Int32(rows))
        let code: Int32
        let function: String
        switch frame.format {
        case .yuyv, .uyvy:
            let packed = lumaRow + x * 2
            if frame.format == .yuyv {
                function = "YUY2ToI420"
                code = YUY2ToI420(packed, lumaStride, target.y, target.lumaStride, target.cb, target.chromaStride,
                                  target.cr, target.chromaStride, w, h)
            } else {
                function = "UYVYToI420"
                code = UYVYToI420(packed, lumaStride, target.y, target.lumaStride, target.cb, target.chromaStride,
                                  target.cr, target.chromaStride, w, h)
            }
        case .nv12, .nv21:
            let chroma = base + stride * frame.size.height + chromaRow * stride + x
            let chromaStride = Int32(direction * stride)
            if frame.format == .nv12 {
                function = "NV12ToI420"
                code = NV12ToI420(lumaRow + x, lumaStride, chroma, chromaStride, target.y, target.lumaStride,
                                  target.cb, target.chromaStride, target.cr, target.chromaStride, w, h)
            } else {
                function = "NV21ToI420"
                code = NV21ToI420(lumaRow + x, lumaStride, chroma, chromaStride, target.y, target.lumaStride,
                                  target.cb, target.chromaStride, target.cr, target.chromaStride, w, h)
            }
        case .i420, .yv12:
            let firstChroma = base + stride * frame.size.height
            let secondChroma = firstChroma + planarChromaStride * chromaRows
            let offset = chromaRow * planarChromaStride + x / 2
            let (cb, cr) = frame.format == .i420 ? (firstChroma, secondChroma) : (secondChroma, firstChroma)
            let chromaStride = Int32(direction * planarChromaStride)
            function = "I420Copy"
            code = I420Copy(lumaRow + x, lumaStride, cb + offset, chromaStride, cr + offset, chromaStride,
                            target.y, target.lumaStride, target.cb, target.chromaStride, target.cr, target.chromaStride,
                            w, h)
        case .rgb24:
            function = "RAWToJ420"  // libyuv's "RAW" is R, G, B in memory
            code = RAWToJ420(lumaRow + x * 3, lumaStride, target.y, target.lumaStride, target.cb, target.chromaStride,
                             target.cr, target.chromaStride, w, h)
        case .bgr24:
            function = "RGB24ToJ420"  // libyuv's "RGB24" is B, G, R in memory
            code = RGB24ToJ420(lumaRow + x * 3, lumaStride, target.y, target.lumaStride, target.cb, target.chromaStride,
                               target.cr, target.chromaStride, w, h)
        case .grey:
            function = "I400ToI420"
            code = I400ToI420(lumaRow + x, lumaStride, target.y, target.lumaStride, target.cb, target.chromaStride,
                              target.cr, target.chromaStride, w, h)
        case .xbgr32:
            function = "ARGBToJ420"  // libyuv's "ARGB" is B, G, R, A in memory
            code = ARGBToJ420(lumaRow + x * 4, lumaStride, target.y, target.lumaStride, target.cb, target.chromaStride,
                              target.cr, target.chromaStride, w, h)
        case .rgbx32:
            function = "ABGRToJ420"  // libyuv's "ABGR" is R, G, B, A in memory
            code = ABGRToJ420(lumaRow + x * 4, lumaStride, target.y, target.lumaStride, target.cb, target.chromaStride,
                              target.cr, target.chromaStride, w, h)
        case .xrgb32, .bgrx32:
            // Reorder to B, G, R, X (X R G B: bytes 3 2 1 0; X B G R: bytes 1 2 3 0).
            let order: [UInt8] = frame.format == .xrgb32 ? [3, 2, 1, 0] : [1, 2, 3, 0]
            let shuffle = (0..<16).map { order[$0 % 4] + UInt8($0 / 4 * 4) }
            let bgrx = scratch!
            let shuffled = shuffle.withUnsafeBufferPointer {
                ARGBShuffle(lumaRow + x * 4, lumaStride, bgrx, w * 4, $0.baseAddress, w, h)
            }
            guard shuffled == 0 else { throw .libyuvFailed(function: "ARGBShuffle", code: shuffled) }
            function = "ARGBToJ420"
            code = ARGBToJ420(bgrx, w * 4, target.y, target.lumaStride, target.cb, target.chromaStride,
                              target.cr, target.chromaStride, w, h)
        case .mjpeg:
            throw .compressedFrame(frame.format)
        default:
            // Bayer: demosaic each row into R, G, B, then convert the strip.
            let rgb = scratch!
            let format = frame.format
            let tile = format.bayerPattern!.colorIndices
            let bytesPerSample = format.bitsPerSample == 8 ? 1 : 2
            tile.withUnsafeBufferPointer { pattern in
                for line in 0..<rows {
                    pc_demosaic_row(base, stride, Int32(frame.size.width), Int32(frame.size.height),
                                    Int32(bytesPerSample), Int32(format.bitsPerSample), pattern.baseAddress,
                                    Int32(firstRow + direction * line), Int32(x), w, rgb + line * width * 3)
                }
            }
            function = "RAWToJ420"
            code = RAWToJ420(rgb, w * 3, target.y, target.lumaStride, target.cb, target.chromaStride,
                             target.cr, target.chromaStride, w, h)
        }
        guard code == 0 else { throw .libyuvFailed(function: function, code: code) }
        return false
    }
}
