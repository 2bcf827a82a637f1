import PhotoCapture

/// People who come and go at scripted places: a portrait composited over a plain background at
/// scripted positions and sizes over time, deterministic, with every face's true box known.
///
/// It drives the synthetic camera (`CaptureDevice.synthetic(_:)` with a scene)
/// and frame files, so the face analysis and the smart framing monitor are tested on real faces
/// against ground truth. The portrait is any picture of one person (read it with
/// `PhotoCapture`'s `ImageDecoder`); the face's box in it is found by the face detector unless
/// given. See <doc:ScriptedScenes>.
public struct ScriptedPeopleScene: Sendable {
    /// One person: where the face's centre is (normalised to the upright picture) and how wide
    /// the face is, as a fraction of the picture's width.
    public struct Person: Sendable, Hashable {
        /// Centre of the face, horizontally (0 left … 1 right).
        public var x: Double
        /// Centre of the face, vertically (0 top … 1 bottom).
        public var y: Double
        /// Width of the face over the picture's width.
        public var faceWidth: Double
        /// A person with the face centred at (`x`, `y`), `faceWidth` wide.
        public init(x: Double, y: Double, faceWidth: Double) { (self.x, self.y, self.faceWidth) = (x, y, faceWidth) }
    }

    /// From `start` seconds on (until the next part), these people are in view.
    public struct Part: Sendable, Hashable {
        /// Seconds from the start of the scene.
        public var start: Double
        /// Who is in view, drawn in this order (later ones in front).
        public var people: [Person]
        /// A part starting at `start` with `people` in view.
        public init(start: Double, people: [Person]) { (self.start, self.people) = (start, people) }
    }

    /// The parts, by start time.
    public let parts: [Part]
    /// The picture of a person composited for each face.
    public let portrait: RGBImage
    /// Where the face is in ``portrait``; the rest of the portrait around it comes along.
    public let faceInPortrait: PixelRect
    /// How much of the portrait around the face is drawn, in face sizes on each side:
    /// left, top, right, bottom.
    public let surroundings: (left: Double, top: Double, right: Double, bottom: Double) = (0.28, 0.45, 0.28, 0.9)

    /// A scene of `parts` drawing `portrait`, whose face is at `faceInPortrait`.
    public init(parts: [Part], portrait: RGBImage, faceInPortrait: PixelRect) {
        self.parts = parts.sorted { $0.start < $1.start }
        (self.portrait, self.faceInPortrait) = (portrait, faceInPortrait)
    }

    /// A scene of `parts` drawing `portrait`, whose one face `detector` finds (OpenCV's Haar
    /// cascade, ``CascadeFaceDetector``, when nil).
    ///
    /// Throws ``ScriptedSceneError/noFace(portraitSize:)`` or
    /// ``ScriptedSceneError/severalFaces(_:)`` unless exactly one face is found.
    public init(parts: [Part], portrait: RGBImage, detector: (any FaceDetecting)? = nil) throws(ScriptedSceneError) {
        self.init(parts: parts, portrait: portrait, faceInPortrait: try Self.face(in: portrait, detector: detector))
    }

    /// The box of the one face `detector` (``CascadeFaceDetector`` when nil) finds in `portrait`,
    /// in its pixels.
    public static func face(in portrait: RGBImage, detector: (any FaceDetecting)? = nil) throws(ScriptedSceneError) -> PixelRect {
        let faces: [NormalizedRect]
        do throws(FaceDetectionError) {
            let chosen: any FaceDetecting = if let detector { detector } else { try CascadeFaceDetector() }
            faces = try chosen.detectFaces(in: LumaPicture(portrait)).map(\.bounds)
        } catch {
            throw .detectionFailed(error)
        }
        let boxes = faces.map { $0.pixelRect(in: portrait.size) }.filter { !$0.size.isEmpty }
        guard let face = boxes.first else { throw .noFace(portraitSize: portrait.size) }
        guard boxes.count == 1 else { throw .severalFaces(boxes) }
        return face
    }

    /// The script of the smart framing acceptance, `partLength` seconds each: one person centred,
    /// a friend joins, three in a row, everyone leaves; the face in `portrait` found by
    /// `detector` (``CascadeFaceDetector`` when nil), as ``init(parts:portrait:detector:)`` does.
    public static func joiningFriends(portrait: RGBImage, detector: (any FaceDetecting)? = nil,
                                      partLength: Double = 4) throws(ScriptedSceneError) -> ScriptedPeopleScene {
        joiningFriends(portrait: portrait, faceInPortrait: try face(in: portrait, detector: detector), partLength: partLength)
    }

    /// The script of the smart framing acceptance, `partLength` seconds each: one person centred,
    /// a friend joins, three in a row, everyone leaves.
    public static func joiningFriends(portrait: RGBImage, faceInPortrait: PixelRect, partLength: Double = 4) -> ScriptedPeopleScene {
        let (y, width) = (0.44, 0.085)
        return ScriptedPeopleScene(parts: [
            Part(start: 0, people: [Person(x: 0.5, y: y, faceWidth: width)]),
            Part(start: partLength, people: [Person(x: 0.42, y: y, faceWidth: width), Person(x: 0.58, y: y, faceWidth: width)]),
            Part(start: 2 * partLength, people: [0.2, 0.5, 0.8].map { Person(x: $0, y: y, faceWidth: width) }),
            Part(start: 3 * partLength, people: []),
        ], portrait: portrait, faceInPortrait: faceInPortrait)
    }

    /// The scene as the synthetic camera's script: the picture changes at each part's start.
    public var syntheticScript: SyntheticSceneScript {
        SyntheticSceneScript(name: "scripted people", changeTimes: parts.map(\.start)) { [self] time, size in
            image(at: time, size: size)
        }
    }

    /// The part in view at `time` seconds (the first before it starts).
    public func part(at time: Double) -> Part {
        parts.last { $0.start <= time } ?? parts[0]
    }

    /// The true face boxes at `time` in an upright picture of `size`, normalised, left to right
    /// as listed.
    public func faces(at time: Double, in size: PixelSize) -> [NormalizedRect] {
        part(at: time).people.map { faceBox($0, in: size) }
    }

    private func faceBox(_ person: Person, in size: PixelSize) -> NormalizedRect {
        let width = person.faceWidth
        let height = width * Double(size.width) / Double(size.height)
            * Double(faceInPortrait.size.height) / Double(faceInPortrait.size.width)
        return NormalizedRect(x: person.x - width / 2, y: person.y - height / 2, width: width, height: height)
    }

    /// The upright picture at `time` of `size`: a soft vertical gradient with the people in view.
    public func image(at time: Double, size: PixelSize) -> RGBImage {
        var pixels = [UInt8](repeating: 0, count: size.area * 3)
        for y in 0..<size.height {
            let level = UInt8(150 + 60 * y / max(1, size.height))
            for x in 0..<size.width {
                let i = (y * size.width + x) * 3
                (pixels[i], pixels[i + 1], pixels[i + 2]) = (level, level, UInt8(Int(level) * 9 / 10))
            }
        }
        for person in part(at: time).people { draw(person, into: &pixels, size: size) }
        return RGBImage(size: size, pixels: pixels)
    }

    /// Draws the portrait around the face, scaled bilinearly so the face lands on its true box.
    private func draw(_ person: Person, into pixels: inout [UInt8], size: PixelSize) {
        let face = faceBox(person, in: size)
        let (W, H) = (Double(size.width), Double(size.height))
        let scale = face.width * W / Double(faceInPortrait.size.width)  // picture pixels per portrait pixel
        let faceSize = (w: face.width * W, h: face.height * H)
        let left = max(0, Int((face.x * W - surroundings.left * faceSize.w).rounded()))
        let right = min(size.width, Int((face.maxX * W + surroundings.right * faceSize.w).rounded()))
        let top = max(0, Int((face.y * H - surroundings.top * faceSize.h).rounded()))
        let bottom = min(size.height, Int((face.maxY * H + surroundings.bottom * faceSize.h).rounded()))
        guard left < right, top < bottom else { return }
        let source = portrait.pixels, (pw, ph) = (portrait.size.width, portrait.size.height)
        for y in top..<bottom {
            let sy = Double(faceInPortrait.y) + (Double(y) + 0.5 - face.y * H) / scale - 0.5
            let y0 = max(0, min(ph - 1, Int(sy.rounded(.down)))), y1 = min(ph - 1, y0 + 1)
            let fy = max(0, min(1, sy - Double(y0)))
            for x in left..<right {
                let sx = Double(faceInPortrait.x) + (Double(x) + 0.5 - face.x * W) / scale - 0.5
                let x0 = max(0, min(pw - 1, Int(sx.rounded(.down)))), x1 = min(pw - 1, x0 + 1)
                let fx = max(0, min(1, sx - Double(x0)))
                for c in 0..<3 {
                    let top = Double(source[(y0 * pw + x0) * 3 + c]) * (1 - fx) + Double(source[(y0 * pw + x1) * 3 + c]) * fx
                    let bottom = Double(source[(y1 * pw + x0) * 3 + c]) * (1 - fx) + Double(source[(y1 * pw + x1) * 3 + c]) * fx
                    pixels[(y * size.width + x) * 3 + c] = UInt8(max(0, min(255, (top * (1 - fy) + bottom * fy).rounded())))
                }
            }
        }
    }
}
