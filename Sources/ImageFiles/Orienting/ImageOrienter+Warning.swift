import Codecs
import Imaging

extension ImageOrienter {
    /// Something the user should know about a turned file: a part of it that could not be
    /// turned and was dropped (and why), or a flaw of the source that shows in the result.
    /// Its ``description`` is the sentence `photocap orient` prints after "warning: ".
    public enum Warning: Sendable, Equatable, CustomStringConvertible {
        /// `part` of the file was dropped, for `reason`.
        case dropped(Part, because: Reason)
        /// The JPEG is cut short at byte `atByte`: the part of the picture its data does not
        /// reach comes out grey (``ImageOrienter/acceptsTruncatedJPEG``).
        case truncated(atByte: Int)
        /// The file's XMP packet names `tiff:Orientation` but libxml2 cannot read it (`error`
        /// says why): it is kept as it was, everything in it, and may still give the old
        /// orientation, which viewers reading XMP would apply again.
        case xmpOrientationKept(because: CodecError)

        /// A part of an image file that turns with its picture.
        public enum Part: Sendable, Hashable {
            /// A HEIC auxiliary image of `kind` ("alpha", "depth", a gain map's URN...).
            case auxiliaryImage(kind: String)
            /// A JPEG's extended XMP (and the pictures in it).
            case extendedXMP
            /// A picture an Android portrait JPEG carries in its XMP.
            case xmpPicture(XMPPicture)
            /// Image `number` (counting the main one as 1) of a JPEG's Multi-Picture index,
            /// `bytes` long after the picture; dropped with the index and its other images.
            case multiPictureImage(number: Int, bytes: Int)
        }

        /// The pictures an Android portrait JPEG carries in its XMP.
        public enum XMPPicture: Sendable, Hashable {
            /// `GDepth:Confidence`.
            case depthConfidenceMap
            /// `GDepth:Data`; dropped with the rest of its description.
            case depthMap
            /// `GImage:Data`, the unblurred original; dropped with the rest of its description.
            case originalPicture
        }

        /// Why a part was dropped.
        public enum Reason: Sendable, Equatable {
            /// libheif 1.15 writes one alpha auxiliary image; the file has another.
            case secondAlphaImage
            /// Its samples are deeper than `bits` bits, more than can be written back.
            case samplesDeeperThan(bits: Int)
            /// The picture is written as a grid, which libheif 1.15 gives no alpha.
            case pictureIsAGrid
            /// The turned image is `image`, not the picture's `picture`.
            case sizeDiffers(image: PixelSize, picture: PixelSize)
            /// The picture has a clean aperture (`clap`) the auxiliary image does not share.
            case pictureHasCleanAperture
            /// The auxiliary image has `irot`/`imir`/`clap` of its own, not the picture's.
            case ownTransformations
            /// It cannot be read: the codec error says why.
            case unreadable(CodecError)
            /// It cannot be turned: the error says why.
            case notTurnable(ImageFileError)
        }

        /// One sentence for people, without the file's name.
        public var description: String {
            switch self {
            case .truncated(let byte):
                return "the file is cut short at byte \(byte): the part of the picture its data does not reach comes out grey"
            case .xmpOrientationKept(let error):
                return "its XMP packet names tiff:Orientation but cannot be read (\(error)): it is kept as it was and may still give the old orientation"
            case .dropped(let part, .unreadable(let error)):
                return "\(part.name) cannot be read (\(error)): it is dropped\(part.droppedWith)"
            case .dropped(let part, .notTurnable(let error)):
                return "\(part.name) cannot be turned (\(error)): it is dropped\(part.droppedWith)"
            case .dropped(let part, let reason):
                return "\(part.name) was dropped: \(reason.sentence)"
            }
        }
    }
}

extension ImageOrienter.Warning.Part {
    /// How a warning names the part.
    var name: String {
        switch self {
        case .auxiliaryImage(let kind): "its \(kind) image"
        case .extendedXMP: "its extended XMP"
        case .xmpPicture(.depthConfidenceMap): "its depth confidence map (GDepth:Confidence)"
        case .xmpPicture(.depthMap): "its depth map (GDepth:Data)"
        case .xmpPicture(.originalPicture): "its original picture (GImage:Data)"
        case .multiPictureImage(let number, let bytes): "image \(number) of the Multi-Picture index (\(bytes) bytes after the picture)"
        }
    }

    /// What goes with the part when it is dropped.
    var droppedWith: String {
        switch self {
        case .auxiliaryImage, .extendedXMP, .xmpPicture(.depthConfidenceMap): ""
        case .xmpPicture(.depthMap), .xmpPicture(.originalPicture): ", with the rest of its description"
        case .multiPictureImage: ", with the index and its other images"
        }
    }
}

extension ImageOrienter.Warning.Reason {
    /// The reason as the end of a sentence.
    var sentence: String {
        switch self {
        case .secondAlphaImage: "libheif 1.15 cannot write a second alpha auxiliary image"
        case .samplesDeeperThan(let bits): "its samples are deeper than \(bits) bits"
        case .pictureIsAGrid: "the picture is written as a grid, which libheif 1.15 gives no alpha"
        case .sizeDiffers(let image, let picture): "it is \(image) for a \(picture) picture"
        case .pictureHasCleanAperture: "the picture has a clean aperture (clap) it does not share"
        case .ownTransformations: "its own irot/imir/clap are not the picture's"
        case .unreadable(let error): "it cannot be read (\(error))"
        case .notTurnable(let error): "it cannot be turned (\(error))"
        }
    }

    /// The reason the codec layer gave for dropping a HEIC auxiliary image.
    init(_ drop: HEIFAuxiliaryWriter.DropReason) {
        switch drop {
        case .pictureHasCleanAperture: self = .pictureHasCleanAperture
        case .ownTransformations: self = .ownTransformations
        case .samplesDeeperThan8Bits: self = .samplesDeeperThan(bits: 8)
        }
    }
}
