import PhotoCaptureVision

/// The framing geometry worked out again from its documented definitions, apart from the
/// recommender's and the photo pipeline's code, in pixels of the upright picture: what the
/// framing tests check a recommendation against.
enum FramingGeometry {
    /// A rectangle in pixels, by its edges.
    struct Box: CustomStringConvertible {
        var left: Double, top: Double, right: Double, bottom: Double

        var area: Double { max(0, right - left) * max(0, bottom - top) }

        func union(_ other: Box) -> Box {
            Box(left: min(left, other.left), top: min(top, other.top), right: max(right, other.right), bottom: max(bottom, other.bottom))
        }

        func intersection(_ other: Box) -> Box {
            Box(left: max(left, other.left), top: max(top, other.top), right: min(right, other.right), bottom: min(bottom, other.bottom))
        }

        var description: String {
            func f(_ value: Double) -> String { String((value * 10).rounded() / 10) }
            return "(\(f(left))…\(f(right)) × \(f(top))…\(f(bottom)))"
        }
    }

    /// The centred crop of `framing`: the largest rectangle of its ratio in the picture, shrunk
    /// about the centre by its zoom (exact, where the pipeline rounds to even pixels).
    static func crop(_ framing: Framing, in size: PixelSize) -> Box {
        let (pictureWidth, pictureHeight) = (Double(size.width), Double(size.height))
        let ratio = Double(framing.aspectRatio.width) / Double(framing.aspectRatio.height)
        let fullWidth = min(pictureWidth, pictureHeight * ratio)
        let (width, height) = (fullWidth / framing.zoomFactor, fullWidth / ratio / framing.zoomFactor)
        let (left, top) = ((pictureWidth - width) / 2, (pictureHeight - height) / 2)
        return Box(left: left, top: top, right: left + width, bottom: top + height)
    }

    /// A person's head and shoulders as the recommender documents them: 2.2 face widths wide
    /// about the face's centre, from half a face height above the face to one and a half below
    /// it, clipped to the picture.
    static func headAndShoulders(_ face: NormalizedRect, in size: PixelSize) -> Box {
        let (pictureWidth, pictureHeight) = (Double(size.width), Double(size.height))
        let (width, height) = (face.width * pictureWidth, face.height * pictureHeight)
        let centre = (face.x + face.width / 2) * pictureWidth, top = face.y * pictureHeight
        return Box(left: max(0, centre - 1.1 * width), top: max(0, top - 0.5 * height),
                   right: min(pictureWidth, centre + 1.1 * width), bottom: min(pictureHeight, top + 2.5 * height))
    }

    /// The box around everyone's head and shoulders.
    static func people(_ faces: [NormalizedRect], in size: PixelSize) -> Box? {
        faces.map { headAndShoulders($0, in: size) }.reduce(nil) { $0?.union($1) ?? $1 }
    }

    /// Whether `inner` lies in `outer` with `slack` pixels to spare: a positive slack lets it
    /// stick out that far, a negative one asks for that much room inside. A side of `outer` on
    /// the picture's edge holds anything (what is beyond was clipped away).
    static func contains(_ outer: Box, _ inner: Box, slack: Double, in size: PixelSize) -> Bool {
        let edge = 0.5
        return (outer.left <= edge || inner.left >= outer.left - slack)
            && (outer.top <= edge || inner.top >= outer.top - slack)
            && (outer.right >= Double(size.width) - edge || inner.right <= outer.right + slack)
            && (outer.bottom >= Double(size.height) - edge || inner.bottom <= outer.bottom + slack)
    }

    /// The fraction of `people` that `crop` shows.
    static func coverage(of people: Box, by crop: Box) -> Double {
        people.area > 0 ? crop.intersection(people).area / people.area : 1
    }
}
