import PhotoCaptureVision
import Testing

/// The tracker's rules on tables of time-stamped detections.
@Suite struct FaceTrackerTests {
    static let a = NormalizedRect(x: 0.1, y: 0.2, width: 0.1, height: 0.13)
    static let b = NormalizedRect(x: 0.6, y: 0.2, width: 0.1, height: 0.13)
    static func moved(_ rect: NormalizedRect, by dx: Double) -> NormalizedRect {
        NormalizedRect(x: rect.x + dx, y: rect.y, width: rect.width, height: rect.height)
    }

    @Test func confirmsAfterTwoOfThreeAndKeepsTheIDWhileItMoves() {
        var tracker = FaceTracker()
        #expect(tracker.update(detections: [Self.a], at: 0).isEmpty)  // seen once: not yet
        let second = tracker.update(detections: [Self.moved(Self.a, by: 0.02)], at: 0.1)
        #expect(second.count == 1)
        let id = second.first?.detectedObjectID
        // Moving a little each analysis, with one analysis missed, keeps the same ID.
        for (step, time) in [0.2, 0.3, 0.5, 0.6].enumerated() {
            let faces = tracker.update(detections: step == 1 ? [] : [Self.moved(Self.a, by: 0.02 * Double(step + 2))], at: time)
            #expect(faces.map(\.detectedObjectID) == [id].compactMap { $0 })
        }
    }

    @Test func aSingleFalseDetectionNeverShows() {
        var tracker = FaceTracker()
        let table: [(time: Double, detections: [NormalizedRect], reported: Int)] = [
            (0.0, [Self.a], 0), (0.1, [Self.a, Self.b], 1), (0.2, [Self.a], 1), (0.3, [Self.a], 1), (0.4, [Self.a], 1),
        ]
        for row in table {
            #expect(tracker.update(detections: row.detections, at: row.time).count == row.reported, "at \(row.time)")
        }
    }

    @Test func dropsAfterOneAndAHalfSecondsUnseenAndANewPersonGetsANewID() {
        var tracker = FaceTracker()
        tracker.update(detections: [Self.a], at: 0)
        let first = tracker.update(detections: [Self.a], at: 0.1).map(\.detectedObjectID)
        #expect(tracker.update(detections: [], at: 1.5).map(\.detectedObjectID) == first)  // 1.4 s unseen
        #expect(tracker.update(detections: [], at: 1.7).isEmpty)  // 1.6 s unseen
        tracker.update(detections: [Self.a], at: 1.8)
        let again = tracker.update(detections: [Self.a], at: 1.9).map(\.detectedObjectID)
        #expect(again.count == 1 && again != first)
    }

    @Test func twoPeopleKeepTheirOwnIDsWhenTheyPassCloseBy() {
        var tracker = FaceTracker()
        var ids: [Int: Double] = [:]  // ID → last x
        for step in 0..<10 {
            let time = Double(step) / 10
            let left = Self.moved(Self.a, by: 0.02 * Double(step)), right = Self.moved(Self.b, by: -0.02 * Double(step))
            for face in tracker.update(detections: [right, left], at: time) {
                if let previous = ids[face.detectedObjectID] { #expect(abs(face.bounds.x - previous) <= 0.021) }
                ids[face.detectedObjectID] = face.bounds.x
            }
        }
        #expect(ids.count == 2)
    }
}

extension FaceTrackerTests {
    @Test func aTrackKeepsTheLatestDetectionsLandmarks() {
        func landmarks(_ dx: Double) -> FaceLandmarks {
            let point = { (x: Double, y: Double) in NormalizedPoint(x: x + dx, y: y) }
            return FaceLandmarks(rightEye: point(0.13, 0.24), leftEye: point(0.17, 0.24), noseTip: point(0.15, 0.27),
                                 rightMouthCorner: point(0.13, 0.3), leftMouthCorner: point(0.17, 0.3))
        }
        var tracker = FaceTracker()
        tracker.update(faces: [DetectedFace(bounds: Self.a, landmarks: landmarks(0))], at: 0)
        let moved = DetectedFace(bounds: Self.moved(Self.a, by: 0.01), confidence: 0.9, landmarks: landmarks(0.01))
        let faces = tracker.update(faces: [moved], at: 0.1)
        #expect(faces.count == 1)
        #expect(faces.first?.landmarks == landmarks(0.01) && faces.first?.bounds == moved.bounds)
        // A detector without landmarks (a cascade) leaves none on the track.
        #expect(tracker.update(detections: [Self.a], at: 0.2).first?.landmarks == nil)
    }
}
