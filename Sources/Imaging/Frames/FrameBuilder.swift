import CYUV

/// Lays out an RGB picture as a camera frame of a given pixel format, as a sensor would deliver
/// it. Used by the synthetic camera and by tests that need frames of every format.
package enum FrameBuilder {
    /// A frame of `format` showing `image`; Y'CbCr formats are limited range BT.601, as V4L2
    /// cameras deliver them by default.
    package static func frame(from image: RGBImage, format: FramePixelFormat, sequence: UInt64 = 0,
                             timestampNanoseconds: UInt64 = 0) throws(ImagingError) -> Frame {
        if format.isCSI2Packed {
            return try frame(from: image, format: format.unpacked, sequence: sequence, timestampNanoseconds: timestampNanoseconds)
                .packedCSI2(as: format)
        }
        let size = image.size
        guard size.width % 2 == 0, size.height % 2 == 0 || !format.hasVerticalSubsampling else {
            throw .invalidSize(size)
        }
        let stride = format.minimumBytesPerRow(width: size.width)
        let count = try format.frameByteCount(size: size, bytesPerRow: stride)
        let storage = try FrameStorage(count: count) { (buffer) throws(ImagingError) in
            let target = buffer.baseAddress!.assumingMemoryBound(to: UInt8.self)
            try image.pixels.withUnsafeBufferPointer { (rgb) throws(ImagingError) in
                try write(rgb.baseAddress!, size: size, format: format, stride: stride, into: target)
            }
        }
        return try Frame(format: format, size: size, bytesPerRow: stride, storage: storage, sequence: sequence,
                         timestampNanoseconds: timestampNanoseconds)
    }

    private static func write(_ rgb: UnsafePointer<UInt8>, size: PixelSize, format: FramePixelFormat, stride: Int,
                              into target: UnsafeMutablePointer<UInt8>) throws(ImagingError) {
        let (w, h) = (Int32(size.width), Int32(size.height))
        let rgbStride = Int32(size.width * 3)
        var code: Int32 = 0
        var function = ""
        switch format {
        case .mjpeg:
            throw .compressedFrame(format)
        case .xbgr32, .rgbx32, .xrgb32, .bgrx32:
            writeRGBX(rgb, size: size, format: format, into: target)
        case _ where format.isBayer:
            bayerMosaic(rgb, size: size, format: format, curves: sampleCurves(for: format.bitsPerSample),
                        stride: stride, into: target)
        case .rgb24:
            target.update(from: rgb, count: size.area * 3)
        case .bgr24:
            function = "RAWToRGB24"
            code = RAWToRGB24(rgb, rgbStride, target, Int32(stride), w, h)
        case .grey:
            function = "RAWToJ400"
            code = RAWToJ400(rgb, rgbStride, target, Int32(stride), w, h)
        case .i420, .yv12:
            let chromaStride = Int32(stride / 2)
            let first = target + stride * size.height
            let second = first + stride / 2 * (size.height / 2)
            let (cb, cr) = format == .i420 ? (first, second) : (second, first)
            function = "RAWToI420"
            code = RAWToI420(rgb, rgbStride, target, Int32(stride), cb, chromaStride, cr, chromaStride, w, h)
        default:
            (function, code) = try writeRepacked(rgb, size: size, format: format, stride: stride, into: target)
        }
        guard code == 0 else { throw .libyuvFailed(function: function, code: code) }
    }

    /// R, G, B into the byte positions the 32-bit `format` names; X is 255.
    private static func writeRGBX(_ rgb: UnsafePointer<UInt8>, size: PixelSize, format: FramePixelFormat,
                                  into target: UnsafeMutablePointer<UInt8>) {
        let positions: [Int] = switch format {
        case .xbgr32: [2, 1, 0]
        case .rgbx32: [0, 1, 2]
        case .xrgb32: [1, 2, 3]
        default: [3, 2, 1]
        }
        let padding = 6 - positions.reduce(0, +)
        for pixel in 0..<size.area {
            let out = target + pixel * 4
            out[padding] = 255
            for channel in 0..<3 { out[positions[channel]] = rgb[pixel * 3 + channel] }
        }
    }

    /// YUYV, UYVY, NV12, NV21: through a limited-range I420 image, then repacked; the libyuv
    /// function that repacked and its code.
    private static func writeRepacked(_ rgb: UnsafePointer<UInt8>, size: PixelSize, format: FramePixelFormat, stride: Int,
                                      into target: UnsafeMutablePointer<UInt8>) throws(ImagingError) -> (String, Int32) {
        let (w, h) = (Int32(size.width), Int32(size.height))
        let planar = try PlanarImage(size: size)
        let p = planar.planes
        let (ls, cs) = (Int32(planar.lumaStride), Int32(planar.chromaStride))
        let code = RAWToI420(rgb, Int32(size.width * 3), p.y, ls, p.cb, cs, p.cr, cs, w, h)
        guard code == 0 else { throw .libyuvFailed(function: "RAWToI420", code: code) }
        switch format {
        case .yuyv:
            return ("I420ToYUY2", I420ToYUY2(p.y, ls, p.cb, cs, p.cr, cs, target, Int32(stride), w, h))
        case .uyvy:
            return ("I420ToUYVY", I420ToUYVY(p.y, ls, p.cb, cs, p.cr, cs, target, Int32(stride), w, h))
        case .nv12:
            return ("I420ToNV12", I420ToNV12(p.y, ls, p.cb, cs, p.cr, cs, target, Int32(stride),
                                             target + stride * size.height, Int32(stride), w, h))
        default:
            return ("I420ToNV21", I420ToNV21(p.y, ls, p.cb, cs, p.cr, cs, target, Int32(stride),
                                             target + stride * size.height, Int32(stride), w, h))
        }
    }
}
