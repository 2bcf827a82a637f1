import PhotoCaptureVision

/// What `watch --overlay` draws on its preview so a person sees what the monitor sees: each
/// tracked face's outline with its ID on a dark label, and the recommended framing's crop as an
/// outline of another colour.
///
/// Everything arrives in metadata coordinates (normalised to the upright picture after the
/// current aspect-ratio crop), which is the picture the preview shows — or, with auto-framing,
/// moved into the whole picture the preview then shows; ``MetadataCoordinates`` turns them into
/// the preview's pixels.
struct PreviewOverlay {
    /// One face: its ID and bounds in metadata coordinates.
    struct Face: Equatable {
        let id: Int
        let bounds: NormalizedRect
    }

    static let faceColour = RGBCanvas.Colour(r: 40, g: 230, b: 40)
    static let framingColour = RGBCanvas.Colour(r: 255, g: 40, b: 220)
    static let labelBackground = RGBCanvas.Colour(r: 0, g: 0, b: 0)

    /// The faces to outline.
    var faces: [Face]
    /// The recommended crop, in metadata coordinates; nil draws none.
    var crop: NormalizedRect?

    /// An overlay of `faces` and `crop`.
    init(faces: [Face], crop: NormalizedRect?) {
        (self.faces, self.crop) = (faces, crop)
    }

    /// The overlay of what the metadata output and the monitor report now. `framing`'s crop is
    /// of the whole upright picture, which is the metadata picture while the device does not
    /// crop (watch never sets a ratio or zoom).
    init(faces: [MetadataFaceObject], framing: Framing?, uprightSize: PixelSize) {
        self.init(faces: faces.map { Face(id: $0.detectedObjectID, bounds: $0.bounds) },
                  crop: framing?.crop(inUpright: uprightSize))
    }

    /// The overlay on the whole upright picture while the camera applies `crop` (normalised to
    /// the whole picture; auto-framing): the faces, reported in the cropped picture, moved into
    /// the whole one, and the crop drawn.
    init(faces: [MetadataFaceObject], onWholePictureCroppedTo crop: NormalizedRect) {
        self.init(faces: faces.map { Face(id: $0.detectedObjectID, bounds: $0.bounds.absolute(in: crop)) }, crop: crop)
    }

    /// Lines 1 pixel thick up to 480 pixels, thicker on larger previews so they stay visible.
    static func lineWidth(for size: PixelSize) -> Int {
        max(1, min(size.width, size.height) / 240)
    }

    /// `image` with the crop and then the faces drawn on it.
    func drawn(on image: RGBImage) -> RGBImage {
        var canvas = RGBCanvas(image)
        let line = Self.lineWidth(for: image.size)
        if let crop {
            canvas.strokeRectangle(MetadataCoordinates.photoRect(fromMetadata: crop, photoSize: image.size),
                                   lineWidth: line, colour: Self.framingColour)
        }
        for face in faces {
            let box = MetadataCoordinates.photoRect(fromMetadata: face.bounds, photoSize: image.size)
            canvas.strokeRectangle(box, lineWidth: line, colour: Self.faceColour)
            label(face.id, on: box, scale: max(2, line), canvas: &canvas)
        }
        return canvas.image
    }

    /// The ID on a dark label just above the box's top-left corner, or inside the box under its
    /// top edge when there is no room above.
    private func label(_ id: Int, on box: PixelRect, scale: Int, canvas: inout RGBCanvas) {
        let text = RGBCanvas.numberSize(id, scale: scale)
        let padding = scale
        let height = text.height + 2 * padding
        let top = box.y - height >= 0 ? box.y - height : box.y + scale
        canvas.fill(PixelRect(x: box.x, y: top, size: PixelSize(width: text.width + 2 * padding, height: height)),
                    colour: Self.labelBackground)
        canvas.drawNumber(id, x: box.x + padding, y: top + padding, scale: scale, colour: Self.faceColour)
    }
}
