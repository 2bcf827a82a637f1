import CTurboJPEG
import FoundationEssentials
import Imaging

/// Turns a JPEG's stored pixels by one of the eight orientations without re-encoding, with
/// TurboJPEG's `tjTransform`, only where that is exact.
///
/// A lossless transform moves whole iMCUs, so it is exact only when each dimension whose edge
/// moves is a multiple of the iMCU size (8 or 16 px, from the chroma subsampling): mirror
/// left-right (2) needs the width aligned, top-bottom (4) the height, 180° (3) and transverse (7)
/// both, 90° clockwise (6) the height, 90° counter-clockwise (8) the width; transpose (5) is
/// always exact. Otherwise the result would be shifted with an untransformed strip (without
/// TJXOPT_TRIM) or lose edge pixels (with it): this type refuses instead.
package enum JPEGLosslessTransform {
    /// The transform is not exact for this file.
    package typealias NotExact = LosslessTurnRefusal

    /// The iMCU size of a TurboJPEG subsampling (tjMCUWidth × tjMCUHeight).
    static func mcuSize(subsampling: Int32) -> PixelSize {
        switch subsampling {
        case Int32(TJSAMP_422.rawValue): return PixelSize(width: 16, height: 8)
        case Int32(TJSAMP_420.rawValue): return PixelSize(width: 16, height: 16)
        case Int32(TJSAMP_440.rawValue): return PixelSize(width: 8, height: 16)
        case Int32(TJSAMP_411.rawValue): return PixelSize(width: 32, height: 8)
        default: return PixelSize(width: 8, height: 8)  // 4:4:4 and grey
        }
    }

    /// Whether turning a `size` image with iMCU `mcu` by `orientation` is exact.
    package static func isExact(_ orientation: Orientation, size: PixelSize, mcu: PixelSize) -> Bool {
        (!NotExact.needsWidth(orientation) || size.width % mcu.width == 0)
            && (!NotExact.needsHeight(orientation) || size.height % mcu.height == 0)
    }

    /// The stored size and iMCU size of `jpeg`.
    package static func geometry(of jpeg: [UInt8]) throws(CodecError) -> (size: PixelSize, mcu: PixelSize) {
        let header = try JPEGHandle(decompressing: ()).header(of: jpeg)
        return (header.size, mcuSize(subsampling: header.subsampling))
    }

    /// Why turning `jpeg` by `orientation` losslessly is refused: nil when it is exact. Throws
    /// for a header that cannot be read, a picture larger than the pixel budget (tjTransform
    /// holds every coefficient of the image: as much memory as its pixels), or a file too short
    /// to hold the picture it declares.
    package static func refusal(of jpeg: [UInt8], applying orientation: Orientation) throws(CodecError) -> NotExact? {
        let geometry = try geometry(of: jpeg)
        try PixelBudget.check(geometry.size, declaredBy: "JPEG")
        try JPEGDecoder.checkHoldsItsPicture(jpeg)
        return isExact(orientation, size: geometry.size, mcu: geometry.mcu)
            ? nil : NotExact(orientation: orientation, size: geometry.size, mcu: geometry.mcu)
    }

    /// `jpeg` with its stored pixels turned by `orientation` (what a viewer would do for that
    /// EXIF value); markers (APPn, COM) are copied as they are. A turn that is not exact
    /// (``refusal(of:applying:)``, which callers ask first) throws
    /// ``CodecError/losslessTurnNotExact(_:)`` with that refusal.
    ///
    /// The turn runs in up to `strips` strips joined with restart markers (one per core by
    /// default); tjTransform, in one piece, takes what libjpeg's coefficient API does not.
    package static func transform(_ jpeg: [UInt8], applying orientation: Orientation,
                                  strips: Int = Processors.active) throws(CodecError) -> [UInt8] {
        if let refusal = try refusal(of: jpeg, applying: orientation) { throw .losslessTurnNotExact(refusal) }
        if orientation == .up { return jpeg }
        // In strips on every core where libjpeg's coefficient API takes the file; the markers
        // are the original's, as tjTransform copies them.
        if let turn = try JPEGCoefficientTurn(jpeg, orientation: orientation, strips: strips) {
            return try turn.turned(inserting: JPEGFile.applicationSegments(of: jpeg)).jpeg
        }
        let operation: TJXOP
        switch orientation {
        case .up: return jpeg
        case .upMirrored: operation = TJXOP_HFLIP
        case .down: operation = TJXOP_ROT180
        case .downMirrored: operation = TJXOP_VFLIP
        case .leftMirrored: operation = TJXOP_TRANSPOSE
        case .right: operation = TJXOP_ROT90
        case .rightMirrored: operation = TJXOP_TRANSVERSE
        case .left: operation = TJXOP_ROT270
        }
        guard let handle = tjInitTransform() else {
            throw CodecError.turboJPEG(function: "tjInitTransform", message: String(cString: tjGetErrorStr2(nil)))
        }
        defer { tjDestroy(handle) }
        var transform = tjtransform()
        transform.op = Int32(operation.rawValue)
        // PERFECT makes libjpeg refuse too, should the check above ever disagree; never TRIM.
        transform.options = TJXOPT_PERFECT
        var output: UnsafeMutablePointer<UInt8>?
        var outputSize: UInt = 0
        let code = jpeg.withUnsafeBufferPointer {
            tjTransform(handle, $0.baseAddress, UInt($0.count), 1, &output, &outputSize, &transform, 0)
        }
        defer { if let output { tjFree(output) } }
        guard code == 0, let output else {
            throw CodecError.turboJPEG(function: "tjTransform", message: String(cString: tjGetErrorStr2(handle)))
        }
        return Array(UnsafeBufferPointer(start: output, count: Int(outputSize)))
    }
}

/// Why a JPEG cannot be turned losslessly by an orientation: the turn moves whole iMCUs, and a
/// dimension whose edge moves is not a multiple of the iMCU size, so the partial blocks at that
/// edge would be shifted or lost.
public struct LosslessTurnRefusal: Error, Hashable, Sendable, CustomStringConvertible {
    /// The orientation asked for.
    public let orientation: Orientation
    /// The stored size of the JPEG.
    public let size: PixelSize
    /// The iMCU size of the JPEG (8 or 16 px a side, from its chroma subsampling).
    public let mcu: PixelSize

    /// The refusal to turn a `size` JPEG with iMCU `mcu` by `orientation`.
    public init(orientation: Orientation, size: PixelSize, mcu: PixelSize) {
        (self.orientation, self.size, self.mcu) = (orientation, size, mcu)
    }

    /// Whether the width must be a multiple of the iMCU width.
    public var needsAlignedWidth: Bool { Self.needsWidth(orientation) && size.width % mcu.width != 0 }
    /// Whether the height must be a multiple of the iMCU height.
    public var needsAlignedHeight: Bool { Self.needsHeight(orientation) && size.height % mcu.height != 0 }

    /// One line for people: the orientation, the sizes and the dimension that is not aligned.
    public var description: String {
        var needs: [String] = []
        if needsAlignedWidth { needs.append("the width \(size.width) a multiple of \(mcu.width)") }
        if needsAlignedHeight { needs.append("the height \(size.height) a multiple of \(mcu.height)") }
        return "lossless orientation \(orientation.exifValue) is not exact for \(size) with a \(mcu) MCU "
            + "(it needs \(needs.joined(separator: " and ")))"
    }
    // A partial iMCU at the right (bottom) edge cannot move to the start of a row (column).
    static func needsWidth(_ orientation: Orientation) -> Bool { orientation.reversesColumns }
    static func needsHeight(_ orientation: Orientation) -> Bool { orientation.reversesRows }
}
