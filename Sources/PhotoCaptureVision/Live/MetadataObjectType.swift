/// A kind of object a ``MetadataOutput`` reports, like Apple's `AVMetadataObject.ObjectType`.
///
/// Only the types in ``MetadataOutput/availableMetadataObjectTypes`` exist (there is no public
/// initialiser), so ``MetadataOutput/metadataObjectTypes`` can never ask for one the output
/// cannot deliver.
public struct MetadataObjectType: Sendable, Hashable, CustomStringConvertible {
    /// The type's name, as Apple spells it (`"face"`).
    public let rawValue: String

    private init(rawValue: String) { self.rawValue = rawValue }

    /// Faces (``MetadataFaceObject``), like `AVMetadataObject.ObjectType.face`.
    public static let face = MetadataObjectType(rawValue: "face")

    /// The name.
    public var description: String { rawValue }
}
