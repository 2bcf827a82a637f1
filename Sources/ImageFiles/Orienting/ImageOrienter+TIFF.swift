import Codecs
import FoundationEssentials
import Imaging

/// TIFF: turned in its own kind.
extension ImageOrienter {
    /// The picture turned in its own kind (bit depth, samples, photometric, compression), every
    /// other byte of the file kept (``TIFFPixelTurner``).
    func tiff(_ data: [UInt8]) throws(ImageFileError) -> (bytes: [UInt8], size: PixelSize, warnings: [Warning]) {
        guard let turned = try ImageFileError.damaged({ () throws(CodecError) in try TIFFPixelTurner.upright(data) }) else {
            throw Self.orientationReadTwiceDiffers
        }
        return (turned.bytes, turned.size, Self.warnings(xmpKept: turned.xmpKept))
    }

    private static var orientationReadTwiceDiffers: ImageFileError {
        ImageFileError(.damaged(.corruptFile(format: "TIFF", reason: "the Orientation read twice differs")))
    }

    /// ``orientFile(at:writingTo:overwrite:)-(String,String,_)`` for a TIFF open as
    /// `descriptor`, read but for its strips (``SparseTIFF``), decoded from the file as needed,
    /// the turned strips coded into a nameless scratch file beside `target` and the result
    /// written piece by piece (``TurnedTIFF``): neither the file nor its result is held, only
    /// the stored picture. nil, having read little, for a file that is not a TIFF read this
    /// way; the caller then reads it whole.
    func orientTIFFFile(_ descriptor: Int32, fileSize: Int, at path: String, writingTo target: String, inPlace: Bool,
                        overwrite: Bool) throws(ImageFileError) -> Outcome? {
        guard let file = SparseTIFF(descriptor: descriptor, fileSize: fileSize) else { return nil }
        let info = try inspected(file.head)
        guard info.format == .tiff else { return nil }
        try refuseExisting(target, overwrite: overwrite)
        guard info.orientation != .up else {
            if !inPlace {
                try AtomicFileWriter.write(to: target, overwrite: overwrite) { (output) throws(ImageFileError) in
                    try output.copy(0..<fileSize, of: descriptor)
                }
            }
            return .alreadyUpright
        }
        let scratch = try PendingFile(beside: target, readable: true)
        defer { scratch.discard() }
        guard let turned = try ImageFileError.damaged({ () throws(CodecError) in
            try TIFFPixelTurner.upright(file, descriptor: descriptor, scratch: scratch.descriptor)
        }) else { throw Self.orientationReadTwiceDiffers }
        try save(path, to: target, inPlace: inPlace, overwrite: overwrite) { (output) throws(ImageFileError) in
            try output.write(turned, original: descriptor, scratch: scratch.descriptor)
        }
        return .turned(from: info.orientation, size: turned.size, warnings: Self.warnings(xmpKept: turned.xmpKept))
    }

    /// What a turned TIFF's result says: that its XMP packet was kept, and why, when it was.
    private static func warnings(xmpKept: CodecError?) -> [Warning] {
        xmpKept.map { [.xmpOrientationKept(because: $0)] } ?? []
    }
}

extension PendingFile {
    /// Writes the pieces of `turned`, taking runs of the `original` file and of the `scratch`
    /// file from those descriptors.
    func write(_ turned: TurnedTIFF, original: Int32, scratch: Int32) throws(ImageFileError) {
        for piece in turned.pieces {
            switch piece {
            case .head(let range): try write(turned.head[range])
            case .original(let range): try copy(range, of: original)
            case .scratch(let range): try copy(range, of: scratch)
            case .zeros(let count): try writeZeros(count)
            }
        }
    }
}
