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
        let span = RowSpan(firstRow: firstRow, direction: upward ? -1 : 1, x: x, width: width, rows: rows)
        if expandingRange, frame.format == .yuyv || frame.format == .uyvy,
           pc_packed_to_i420_expanded(base + firstRow * stride + x * 2, span.direction * stride, target.y, target.image.lumaStride,
                                      target.cb, target.cr, target.image.chromaStride, Int32(width), Int32(rows),
                                      frame.format == .uyvy ? 1 : 0) != 0 {
            return true
        }
        let call: LibyuvCall
        switch frame.format {
        case .yuyv, .uyvy: call = convertPacked(span, into: target)
        case .nv12, .nv21: call = convertSemiPlanar(span, into: target)
        case .i420, .yv12: call = convertPlanar(span, into: target)
        case .rgb24, .bgr24, .grey, .xbgr32, .rgbx32: call = convertRGB(span, into: target)
        case .xrgb32, .bgrx32: call = try convertReordered(span, into: target, scratch: scratch!)
        case .mjpeg: throw .compressedFrame(frame.format)
        default: call = convertBayer(span, into: target, scratch: scratch!)
        }
        guard call.code == 0 else { throw .libyuvFailed(function: call.function, code: call.code) }
        return false
    }

    /// The rows one ``convertRows(startingAt:upward:x:width:rows:expandingRange:into:scratch:)``
    /// call converts.
    private struct RowSpan {
        let firstRow: Int
        /// 1 going down the frame, -1 going up (a vertical flip).
        let direction: Int
        let x: Int
        let width: Int
        let rows: Int
        var size: (Int32, Int32) { (Int32(width), Int32(rows)) }
    }

    /// The libyuv function called and what it returned.
    private typealias LibyuvCall = (function: String, code: Int32)

    private func lumaRow(_ span: RowSpan) -> UnsafePointer<UInt8> { base + span.firstRow * stride }
    private func lumaStride(_ span: RowSpan) -> Int32 { Int32(span.direction * stride) }

    /// YUYV and UYVY.
    private func convertPacked(_ span: RowSpan, into target: Destination) -> LibyuvCall {
        let packed = lumaRow(span) + span.x * 2
        let (w, h) = span.size
        if frame.format == .yuyv {
            return ("YUY2ToI420", YUY2ToI420(packed, lumaStride(span), target.y, target.lumaStride, target.cb, target.chromaStride,
                                             target.cr, target.chromaStride, w, h))
        }
        return ("UYVYToI420", UYVYToI420(packed, lumaStride(span), target.y, target.lumaStride, target.cb, target.chromaStride,
                                         target.cr, target.chromaStride, w, h))
    }

    /// NV12 and NV21. With an even crop origin and even strips, chroma rows pair up with luma
    /// rows exactly.
    private func convertSemiPlanar(_ span: RowSpan, into target: Destination) -> LibyuvCall {
        let chroma = base + stride * frame.size.height + span.firstRow / 2 * stride + span.x
        let (luma, lumaStride, chromaStride) = (lumaRow(span) + span.x, lumaStride(span), Int32(span.direction * stride))
        let (w, h) = span.size
        if frame.format == .nv12 {
            return ("NV12ToI420", NV12ToI420(luma, lumaStride, chroma, chromaStride, target.y, target.lumaStride,
                                             target.cb, target.chromaStride, target.cr, target.chromaStride, w, h))
        }
        return ("NV21ToI420", NV21ToI420(luma, lumaStride, chroma, chromaStride, target.y, target.lumaStride,
                                         target.cb, target.chromaStride, target.cr, target.chromaStride, w, h))
    }

    /// I420 and YV12 (chroma planes swapped).
    private func convertPlanar(_ span: RowSpan, into target: Destination) -> LibyuvCall {
        let firstChroma = base + stride * frame.size.height
        let secondChroma = firstChroma + planarChromaStride * chromaRows
        let offset = span.firstRow / 2 * planarChromaStride + span.x / 2
        let (cb, cr) = frame.format == .i420 ? (firstChroma, secondChroma) : (secondChroma, firstChroma)
        let chromaStride = Int32(span.direction * planarChromaStride)
        let (w, h) = span.size
        return ("I420Copy", I420Copy(lumaRow(span) + span.x, lumaStride(span), cb + offset, chromaStride, cr + offset, chromaStride,
                                     target.y, target.lumaStride, target.cb, target.chromaStride, target.cr, target.chromaStride,
                                     w, h))
    }

    /// RGB, BGR, grey and the 32-bit orders libyuv converts directly.
    private func convertRGB(_ span: RowSpan, into target: Destination) -> LibyuvCall {
        let row = lumaRow(span)
        let rowStride = lumaStride(span)
        let (w, h) = span.size
        switch frame.format {
        case .rgb24:  // libyuv's "RAW" is R, G, B in memory
            return ("RAWToJ420", RAWToJ420(row + span.x * 3, rowStride, target.y, target.lumaStride, target.cb, target.chromaStride,
                                           target.cr, target.chromaStride, w, h))
        case .bgr24:  // libyuv's "RGB24" is B, G, R in memory
            return ("RGB24ToJ420", RGB24ToJ420(row + span.x * 3, rowStride, target.y, target.lumaStride, target.cb, target.chromaStride,
                                               target.cr, target.chromaStride, w, h))
        case .grey:
            return ("I400ToI420", I400ToI420(row + span.x, rowStride, target.y, target.lumaStride, target.cb, target.chromaStride,
                                             target.cr, target.chromaStride, w, h))
        case .xbgr32:  // libyuv's "ARGB" is B, G, R, A in memory
            return ("ARGBToJ420", ARGBToJ420(row + span.x * 4, rowStride, target.y, target.lumaStride, target.cb, target.chromaStride,
                                             target.cr, target.chromaStride, w, h))
        default:  // .rgbx32: libyuv's "ABGR" is R, G, B, A in memory
            return ("ABGRToJ420", ABGRToJ420(row + span.x * 4, rowStride, target.y, target.lumaStride, target.cb, target.chromaStride,
                                             target.cr, target.chromaStride, w, h))
        }
    }

    /// XRGB and BGRX: reordered to B, G, R, X in `scratch` (X R G B: bytes 3 2 1 0; X B G R:
    /// bytes 1 2 3 0), then converted.
    private func convertReordered(_ span: RowSpan, into target: Destination,
                                  scratch bgrx: UnsafeMutablePointer<UInt8>) throws(ImagingError) -> LibyuvCall {
        let order: [UInt8] = frame.format == .xrgb32 ? [3, 2, 1, 0] : [1, 2, 3, 0]
        let shuffle = (0..<16).map { order[$0 % 4] + UInt8($0 / 4 * 4) }
        let (w, h) = span.size
        let shuffled = shuffle.withUnsafeBufferPointer {
            ARGBShuffle(lumaRow(span) + span.x * 4, lumaStride(span), bgrx, w * 4, $0.baseAddress, w, h)
        }
        guard shuffled == 0 else { throw .libyuvFailed(function: "ARGBShuffle", code: shuffled) }
        return ("ARGBToJ420", ARGBToJ420(bgrx, w * 4, target.y, target.lumaStride, target.cb, target.chromaStride,
                                         target.cr, target.chromaStride, w, h))
    }

    /// Bayer: each row demosaiced (or, with the frame's ``Frame/development``, developed) into
    /// R, G, B in `scratch`, then the strip converted.
    private func convertBayer(_ span: RowSpan, into target: Destination, scratch rgb: UnsafeMutablePointer<UInt8>) -> LibyuvCall {
        let format = frame.format
        let tile = format.bayerPattern!.colorIndices
        let bytesPerSample = format.bitsPerSample == 8 ? 1 : 2
        let (w, h) = span.size
        func row(_ line: Int) -> Int32 { Int32(span.firstRow + span.direction * line) }
        tile.withUnsafeBufferPointer { pattern in
            if let development = frame.development, bytesPerSample == 2 {
                let samples = UnsafeRawPointer(base).assumingMemoryBound(to: UInt16.self)
                development.withKernelParameters { parameters in
                    for line in 0..<span.rows {
                        pc_develop_row(samples, stride / 2, Int32(frame.size.width), Int32(frame.size.height), pattern.baseAddress,
                                       parameters, row(line), Int32(span.x), w, rgb + line * span.width * 3)
                    }
                }
                return
            }
            for line in 0..<span.rows {
                pc_demosaic_row(base, stride, Int32(frame.size.width), Int32(frame.size.height),
                                Int32(bytesPerSample), Int32(format.bitsPerSample), pattern.baseAddress,
                                row(line), Int32(span.x), w, rgb + line * span.width * 3)
            }
        }
        return ("RAWToJ420", RAWToJ420(rgb, w * 3, target.y, target.lumaStride, target.cb, target.chromaStride,
                                       target.cr, target.chromaStride, w, h))
    }
}
