import Foundation
import PhotoCaptureVision
import TestSupport
import Testing

/// The framing algorithm on scenes where the framing depends on every person: the first-listed
/// person in the centre and friends at the sides, people listed in every order, friends joining
/// a tight framing, and the hysteresis around them. Recommendations are checked against the
/// geometry worked out apart from the recommender (``FramingGeometry``) and against framings
/// worked out by hand from the documented rules.
///
/// Mutations of `FramingRecommender` this suite and ``SmartFramingEveryPersonTests`` catch,
/// each planted alone in `update` or `preferred(for:)` (every one fails the tests named, whose
/// messages name the scene):
/// - framing the first face only (`preferred(for: Self.headAndShoulders(faces[0]))`) and
///   dropping the last face: `everyoneFromTheStart`, `theCentrePersonFirstThenFriends`,
///   `inEveryOrder`, `everyoneFitsWheneverAnEnabledFramingCan`, `swayingAtTheEdgeKeepsTheFraming`,
///   `steppingBackInZoomsOnlyWithRoomToSpare`, `aFriendComingAndGoingChangesAtMostOnceASecond`
///   and both scenes of `theFramingWidensForAFriendEnteringAtASide`;
/// - ignoring the faces not wholly inside, or not touching, the current recommended crop:
///   `theCentrePersonFirstThenFriends`, `everyoneFitsWheneverAnEnabledFramingCan`,
///   `aFriendComingAndGoingChangesAtMostOnceASecond`, and the monitor's scene of a friend
///   outside the recommended crop;
/// - no fill hysteresis (the current framing not kept while it holds everyone with half the
///   margin): `swayingAtTheEdgeKeepsTheFraming`, `steppingBackInZoomsOnlyWithRoomToSpare`;
/// - a tighter framing taken with the plain margin instead of 1.3 times it:
///   `steppingBackInZoomsOnlyWithRoomToSpare`;
/// - no hold (a new choice recommended at once): `aPasserByChangesNothing`;
/// - no least interval between changes: `aFriendComingAndGoingChangesAtMostOnceASecond`.
@Suite struct FramingEveryPersonTests {
    static let size = PixelSize(width: 640, height: 480)
    // The crops in the 640x480 picture, in pixels (x range, y range):
    static let tight = Framing(aspectRatio: .ratio3x4, zoomFactor: 2)  // 230…410, 120…360
    static let square = Framing(aspectRatio: .ratio1x1, zoomFactor: 2)  // 200…440, 120…360
    static let band = Framing(aspectRatio: .ratio16x9, zoomFactor: 1.5)  // 107…533, 120…360
    static let portrait = Framing(aspectRatio: .ratio3x4)  // 140…500, the whole height
    static let wide = Framing(aspectRatio: .ratio16x9)  // the whole width, 60…420
    static let landscape = Framing(aspectRatio: .ratio4x3)  // the whole picture
    /// Widest first, so the tightest is never simply the first listed.
    static let enabled = [landscape, wide, portrait, band, square, tight]

    /// A face of 40x40 pixels centred at (`x`, `y`): its head and shoulders are 88 pixels wide
    /// about `x` and run from `y - 40` to `y + 80`.
    static func face(_ x: Double, _ y: Double = 200) -> NormalizedRect {
        NormalizedRect(x: (x - 20) / 640, y: (y - 20) / 480, width: 40 / 640, height: 40 / 480)
    }

    /// People in view, the first listed in the centre, and the framing the documented rule asks
    /// for: the tightest enabled framing holding everyone's head and shoulders with 5% of its
    /// width and height to spare (none needed along the picture's edge).
    struct Scene: Sendable, CustomTestStringConvertible {
        let name: String
        let faces: [NormalizedRect]
        let expected: Framing
        var testDescription: String { name }
    }

    // Worked by hand: faces at y = 200 have head and shoulders on rows 160…280, inside the
    // 132…348 that every crop's margin leaves, so only columns count. People whose face centres
    // span a…b fit 3:4 ×2 when 283 ≤ a and b ≤ 357, 1:1 ×2 when 256 ≤ a and b ≤ 384, 16:9 ×1.5
    // when 174 ≤ a and b ≤ 468, and 16:9 whatever the columns.
    static let scenes = [
        Scene(name: "centre first, friends left and right", faces: [face(320), face(230), face(420)], expected: band),
        Scene(name: "centre first, a friend at the left", faces: [face(320), face(265)], expected: square),
        Scene(name: "centre first, a friend at the right", faces: [face(320), face(375)], expected: square),
        Scene(name: "centre first, friends far at both sides", faces: [face(320), face(100), face(560)], expected: wide),
        Scene(name: "centre first, the far friend at the right listed last", faces: [face(320), face(290), face(450)], expected: band),
        // The child's head and shoulders reach row 440: past 3:4 ×2, 1:1 ×2 and 16:9 ×1.5
        // (348) and 16:9 (402); 3:4 has the whole height and columns 158…482 inside its margin.
        Scene(name: "centre first, a child below at the right", faces: [face(320), face(330, 360)], expected: portrait),
    ]

    /// A stretch of the timeline: `seconds` long, the faces at each time of it.
    struct Stretch {
        let seconds: Double
        let faces: (Double) -> [NormalizedRect]
        init(_ seconds: Double, _ faces: @escaping (Double) -> [NormalizedRect]) { (self.seconds, self.faces) = (seconds, faces) }
        init(_ seconds: Double, _ faces: [NormalizedRect]) { self.init(seconds) { _ in faces } }
    }

    /// Plays `timeline` at 10 analyses a second into `recommender`; returns its changes.
    static func play(_ timeline: [Stretch], into recommender: inout FramingRecommender) -> [(time: Double, framing: Framing)] {
        var changes: [(time: Double, framing: Framing)] = []
        var step = 0
        for stretch in timeline {
            // Times from a step count, not a running sum, so the holds are not off by a rounding.
            let end = step + Int((stretch.seconds * 10).rounded())
            while step < end {
                let time = Double(step) / 10
                if let change = recommender.update(faces: stretch.faces(time), at: time) { changes.append((time, change)) }
                step += 1
            }
        }
        return changes
    }

    /// The head-and-shoulders boxes of `faces` that `framing`'s crop leaves out (3 pixels of
    /// slack for the pipeline's even-pixel crop).
    static func leftOut(_ faces: [NormalizedRect], by framing: Framing?, in size: PixelSize) -> [FramingGeometry.Box] {
        guard let framing else { return faces.map { FramingGeometry.headAndShoulders($0, in: size) } }
        let crop = FramingGeometry.crop(framing, in: size)
        return faces.map { FramingGeometry.headAndShoulders($0, in: size) }
            .filter { !FramingGeometry.contains(crop, $0, slack: 3, in: size) }
    }

    /// Checks that `recommender` ended on `scene`'s framing, with everyone in it.
    static func check(_ recommender: FramingRecommender, _ scene: Scene, _ how: String) {
        let recommended = recommender.recommended
        #expect(recommended == scene.expected, "\(scene.name), \(how): \(recommended.map(String.init(describing:)) ?? "nothing") recommended")
        let missed = leftOut(scene.faces, by: recommended, in: size)
        #expect(missed.isEmpty, "\(scene.name), \(how): \(missed) outside \(recommended.map { FramingGeometry.crop($0, in: size) }.map(String.init(describing:)) ?? "nothing")")
    }

    /// Checks that changes are at least the documented second apart.
    static func checkSpacing(_ changes: [(time: Double, framing: Framing)], _ name: String) {
        for (before, after) in zip(changes, changes.dropFirst()) {
            #expect(after.time - before.time >= 1 - 1e-9, "\(name): \(after.framing) at \(after.time) s, \(before.framing) at \(before.time) s")
        }
    }

    @Test(arguments: scenes)
    func everyoneFromTheStart(scene: Scene) {
        var recommender = FramingRecommender(enabledFramings: Self.enabled, uprightSize: Self.size)
        let changes = Self.play([Stretch(3, scene.faces)], into: &recommender)
        Self.check(recommender, scene, "everyone from the start")
        #expect(changes.map(\.framing) == [scene.expected], "\(scene.name), everyone from the start: \(changes)")
    }

    @Test(arguments: scenes)
    func theCentrePersonFirstThenFriends(scene: Scene) {
        var recommender = FramingRecommender(enabledFramings: Self.enabled, uprightSize: Self.size)
        let changes = Self.play([Stretch(3, [scene.faces[0]]), Stretch(4, scene.faces)], into: &recommender)
        Self.check(recommender, scene, "the centre person alone for 3 s, then the friends join")
        // 3:4 ×2 for the centre person alone, then one change within 1.5 s of the friends joining.
        #expect(changes.map(\.framing) == [Self.tight, scene.expected], "\(scene.name), friends joining: \(changes)")
        #expect(changes.last.map { $0.time >= 3 && $0.time <= 4.5 } == true, "\(scene.name), friends joining: \(changes)")
        Self.checkSpacing(changes, "\(scene.name), friends joining")
    }

    @Test(arguments: scenes)
    func inEveryOrder(scene: Scene) {
        // Each analysis lists the people in the next of their orders: the detector's order means nothing.
        let orders = Self.permutations(scene.faces)
        var recommender = FramingRecommender(enabledFramings: Self.enabled, uprightSize: Self.size)
        let changes = Self.play([Stretch(4) { orders[Int(($0 * 10).rounded()) % orders.count] }], into: &recommender)
        Self.check(recommender, scene, "listed in every order in turn")
        #expect(changes.map(\.framing) == [scene.expected], "\(scene.name), every order: \(changes)")
    }

    /// Every order of `faces`.
    static func permutations(_ faces: [NormalizedRect]) -> [[NormalizedRect]] {
        guard let first = faces.first else { return [[]] }
        return permutations(Array(faces.dropFirst())).flatMap { rest in
            (0...rest.count).map { index in var order = rest; order.insert(first, at: index); return order }
        }
    }

    // The fill hysteresis, worked by hand: 1:1 ×2 holds a friend right of the centre with half
    // the margin (6 px) up to a face centre at 390, with the margin (12 px) up to 384, with 1.3
    // times the margin (15.6 px) up to 380.4.

    @Test func swayingAtTheEdgeKeepsTheFraming() {
        let name = "a friend at the right swaying across the edge of what 1:1 ×2 holds"
        var recommender = FramingRecommender(enabledFramings: Self.enabled, uprightSize: Self.size)
        // The friend's face centre sways over 380…388, a 4 s period, for 20 s.
        let changes = Self.play([Stretch(20) { time in [Self.face(320), Self.face(384 - 4 * cos(time * .pi / 2))] }], into: &recommender)
        #expect(changes.map(\.framing) == [Self.square], "\(name): \(changes)")
    }

    @Test func steppingBackInZoomsOnlyWithRoomToSpare() {
        let name = "a friend steps back in from the right, just inside what 1:1 ×2 holds, then further"
        var recommender = FramingRecommender(enabledFramings: Self.enabled, uprightSize: Self.size)
        let changes = Self.play([
            Stretch(3, [Self.face(320), Self.face(400)]),  // 16:9 ×1.5
            Stretch(5, [Self.face(320), Self.face(382)]),  // 1:1 ×2 holds with the margin, not 1.3 times it
            Stretch(3, [Self.face(320), Self.face(376)]),  // now with 1.3 times the margin
        ], into: &recommender)
        #expect(changes.map(\.framing) == [Self.band, Self.square], "\(name): \(changes)")
        #expect(changes.last.map { $0.time >= 8 && $0.time <= 9.5 } == true, "\(name): \(changes)")
    }

    @Test func aPasserByChangesNothing() {
        let name = "a passer-by at the right for 0.2 s beside the centre person"
        var recommender = FramingRecommender(enabledFramings: Self.enabled, uprightSize: Self.size)
        let changes = Self.play([
            Stretch(3, [Self.face(320)]), Stretch(0.2, [Self.face(320), Self.face(450)]), Stretch(3, [Self.face(320)]),
        ], into: &recommender)
        #expect(changes.map(\.framing) == [Self.tight], "\(name): \(changes)")
    }

    @Test func aFriendComingAndGoingChangesAtMostOnceASecond() {
        let name = "a friend at the right comes for 0.5 s and goes for 0.8 s, ten times"
        var recommender = FramingRecommender(enabledFramings: Self.enabled, uprightSize: Self.size)
        let visit = [Stretch(0.5, [Self.face(320), Self.face(450)]), Stretch(0.8, [Self.face(320)])]
        let changes = Self.play([Stretch(2, [Self.face(320)])] + Array(repeating: visit, count: 10).flatMap { $0 }, into: &recommender)
        // Out to 16:9 ×1.5 as the friend comes, back to 3:4 ×2 once gone 0.6 s: each change
        // waits for a second since the last, so some visits change nothing.
        #expect(changes.count >= 3 && Set(changes.map(\.framing)) == [Self.tight, Self.band], "\(name): \(changes)")
        Self.checkSpacing(changes, name)
    }

    /// Random scenes (fixed seed): 2 to 5 people of random sizes anywhere in pictures of five
    /// shapes, random enabled framings. One of them is alone for 2 s (the framing closes on
    /// them), then everyone is in view for 5 s, listed in a new random order at each analysis.
    /// Whenever an enabled framing's crop holds everyone's head and shoulders (with 3 pixels to
    /// spare, beyond the pipeline's rounding), the recommended one must too; when none comes
    /// near, it must show as much of them as the best one does. The same scene listed in one
    /// fixed order ends on the same framing.
    @Test func everyoneFitsWheneverAnEnabledFramingCan() {
        let seed: UInt64 = 0x00F4_A3E5_0039
        var random = SeededGenerator(seed: seed)
        let sizes = [PixelSize(width: 640, height: 480), PixelSize(width: 1920, height: 1080), PixelSize(width: 480, height: 640),
                     PixelSize(width: 1080, height: 1920), PixelSize(width: 1000, height: 1000)]
        var (fits, cannot, borderline) = (0, 0, 0)
        for index in 0..<600 {
            let size = sizes.randomElement(using: &random)!
            let enabled = Array(Framing.all.shuffled(using: &random).prefix(Int.random(in: 1...Framing.all.count, using: &random)))
            let faces = (0..<Int.random(in: 2...5, using: &random)).map { _ in Self.randomFace(in: size, using: &random) }
            let alone = faces.randomElement(using: &random)!
            let name = "random scene \(index) (seed \(seed)): \(size.width)x\(size.height), enabled \(enabled), faces \(faces), alone first \(alone)"

            var shuffled = FramingRecommender(enabledFramings: enabled, uprightSize: size)
            var orders = [[NormalizedRect]]()
            for _ in 0..<50 { orders.append(faces.shuffled(using: &random)) }
            let changes = Self.play([Stretch(2, [alone]), Stretch(5) { orders[Int(($0 * 10).rounded()) % 50] }], into: &shuffled)
            var fixed = FramingRecommender(enabledFramings: enabled, uprightSize: size)
            _ = Self.play([Stretch(2, [alone]), Stretch(5, faces.reversed())], into: &fixed)
            #expect(shuffled.recommended == fixed.recommended, "\(name): \(shuffled.recommended.map(String.init(describing:)) ?? "nothing") listed in random orders, \(fixed.recommended.map(String.init(describing:)) ?? "nothing") in one")
            Self.checkSpacing(changes, name)

            let people = FramingGeometry.people(faces, in: size)!
            let crops = enabled.map { FramingGeometry.crop($0, in: size) }
            guard let recommended = shuffled.recommended else {
                Issue.record("\(name): nothing recommended")
                continue
            }
            if crops.contains(where: { FramingGeometry.contains($0, people, slack: -3, in: size) }) {
                fits += 1
                let missed = Self.leftOut(faces, by: recommended, in: size)
                #expect(missed.isEmpty, "\(name): \(recommended) (crop \(FramingGeometry.crop(recommended, in: size))) leaves out \(missed)")
            } else if !crops.contains(where: { FramingGeometry.contains($0, people, slack: 3, in: size) }) {
                cannot += 1
                let best = crops.map { FramingGeometry.coverage(of: people, by: $0) }.max()!
                let shown = FramingGeometry.coverage(of: people, by: FramingGeometry.crop(recommended, in: size))
                #expect(shown >= best - 0.03, "\(name): \(recommended) shows \(shown) of the people box \(people), an enabled framing \(best)")
            } else {
                borderline += 1
            }
        }
        print("random framing scenes (seed \(seed)): everyone fits in \(fits), nobody can in \(cannot), borderline \(borderline)")
        // Both kinds of scene came up often enough to mean something.
        #expect(fits >= 300 && cannot >= 150, "\(fits) scenes everyone fits, \(cannot) nobody can, \(borderline) borderline")
    }

    /// A square face (in pixels) 4% to 14% of the picture's shorter side, wholly in the picture.
    static func randomFace(in size: PixelSize, using random: inout SeededGenerator) -> NormalizedRect {
        let (width, height) = (Double(size.width), Double(size.height))
        let side = Double.random(in: 0.04...0.14, using: &random) * min(width, height)
        let x = Double.random(in: 0...(width - side), using: &random), y = Double.random(in: 0...(height - side), using: &random)
        return NormalizedRect(x: x / width, y: y / height, width: side / width, height: side / height)
    }
}
