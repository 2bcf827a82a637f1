import PhotoCapture

/// A region written into a photo's XMP (`--faces`, `--smart-framing`) in the CLI's JSON: its
/// kind (`Face`) and the part of it inside the photo, normalised to the upright photo after its
/// crop (origin top-left), as `PhotoRegion` takes it; the file holds it turned onto the stored
/// pixels as MWG's rule says.
struct RegionReport: Encodable {
    let type: String
    let x: Double, y: Double, width: Double, height: Double

    /// The regions `photo` carries: none in a DNG, which never gets them.
    static func written(in photo: CapturePhoto) -> [RegionReport]? {
        let regions = photo.resolvedSettings.metadata.regions
        guard !regions.isEmpty, !photo.isRawPhoto else { return nil }
        return regions.compactMap { region in
            region.boundsInPhoto.map { RegionReport(type: region.kind.rawValue, x: $0.x, y: $0.y, width: $0.width, height: $0.height) }
        }
    }
}
