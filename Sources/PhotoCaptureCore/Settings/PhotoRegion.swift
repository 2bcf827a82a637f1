import Codecs
import Imaging

/// A region of a photo — a face — that the app supplies in ``PhotoMetadata/regions``, written
/// into the photo's XMP as a Metadata Working Group region (`mwg-rs:Regions`), which digiKam,
/// Lightroom and exiftool read.
///
/// ``bounds`` is normalised to the photo as the user sees it: upright (its Orientation applied)
/// and after its crop (aspect ratio and zoom), origin at the top-left corner. The part outside
/// the photo is clipped off; a region wholly outside is left out.
///
/// In the file the region follows MWG's rule for an oriented picture: the Metadata Working
/// Group's *Guidelines for Handling Image Metadata* 2.0 (November 2010), section 5.9 "Image
/// Region Metadata", applies regions to "the actual image bits stored within the file", and
/// `mwg-rs:AppliedToDimensions` gives that image's size. So a photo written with an Orientation
/// other than 1 gets its area turned back onto the stored pixels, and the stored width and
/// height — as digiKam writes them (`MetadataHub::writeFaceTagsMap` turns each face "back to
/// the unaligned image" before normalising it to the image's stored dimensions, which it writes
/// as AppliedToDimensions).
public struct PhotoRegion: Sendable, Hashable {
    /// What a region shows, as `mwg-rs:Type` names it.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// A person's face (`Face`).
        case face = "Face"
    }

    /// What the region shows.
    public var kind: Kind
    /// Who or what it is (`mwg-rs:Name`), when known.
    public var name: String?
    /// Where it is, normalised to the upright photo after its crop (0...1 on both axes).
    public var bounds: NormalizedRect

    /// A region of `kind` at `bounds` (normalised to the upright photo), named `name`.
    public init(kind: Kind = .face, name: String? = nil, bounds: NormalizedRect) {
        (self.kind, self.name, self.bounds) = (kind, name, bounds)
    }

    /// Throws ``PhotoCaptureError/Code/invalidMetadata(_:)`` for bounds that are not finite or
    /// have no positive width and height; `index` counts from 1 in the message.
    func validate(index: Int) throws(PhotoCaptureError) {
        let values = [bounds.x, bounds.y, bounds.width, bounds.height]
        guard values.allSatisfy(\.isFinite), bounds.width > 0, bounds.height > 0 else {
            throw PhotoCaptureError(.invalidMetadata("region \(index) has bounds \(bounds): "
                                                     + "they must be finite, with a positive width and height"))
        }
    }

    /// The part of ``bounds`` inside the photo (normalised to the upright photo): what is written;
    /// nil when the region lies wholly outside the photo, which leaves it out.
    public var boundsInPhoto: NormalizedRect? {
        let visible = bounds.intersection(.whole)
        return visible.width > 0 && visible.height > 0 ? visible : nil
    }

    /// The region as the file records it: clipped to the photo, turned onto the stored pixels
    /// (shown after `orientation`), centre-based; nil when none of it is inside the photo.
    func stored(turnedBy orientation: Orientation) -> XMPRegionInfo.Region? {
        guard let visible = boundsInPhoto else { return nil }
        let stored = orientation.inverse.apply(toNormalized: visible)
        return XMPRegionInfo.Region(type: kind.rawValue, name: name, centreX: stored.midX, centreY: stored.midY,
                                    width: stored.width, height: stored.height)
    }
}

extension [PhotoRegion] {
    /// The regions written into a photo stored as `storedSize` pixels shown after `orientation`;
    /// nil when none is inside the photo.
    func regionInfo(storedSize: PixelSize, orientation: Orientation) -> XMPRegionInfo? {
        let stored = compactMap { $0.stored(turnedBy: orientation) }
        return stored.isEmpty ? nil : XMPRegionInfo(appliedToDimensions: storedSize, regions: stored)
    }
}
