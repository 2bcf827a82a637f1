import Imaging

/// Gives faces identities across analyses: a detection continues the track it overlaps most,
/// a track is reported once it was seen in 2 of 3 analyses (one false detection never shows),
/// and it ends after ``dropAfter`` seconds unseen (a missed detection or two keep the ID).
///
/// Pure logic driven by time-stamped detections, so tables of detections test it exactly.
public struct FaceTracker: Sendable {
    /// Seconds a track survives without a detection.
    public var dropAfter: Double
    /// The least overlap (intersection over union) for a detection to continue a track.
    public var minimumOverlap: Double

    private var tracks: [TrackedFace] = []
    private var nextID = 1

    /// A tracker with no tracks.
    public init(dropAfter: Double = 1.5, minimumOverlap: Double = 0.3) {
        (self.dropAfter, self.minimumOverlap) = (dropAfter, minimumOverlap)
    }

    /// Feeds one analysis: the faces found at `time` (seconds, never decreasing). Returns the
    /// confirmed tracks, oldest ID first.
    @discardableResult
    public mutating func update(detections: [NormalizedRect], at time: Double) -> [TrackedFace] {
        update(faces: detections.map { DetectedFace(bounds: $0) }, at: time)
    }

    /// Feeds one analysis: the faces found at `time` (seconds, never decreasing), their landmarks
    /// kept with their tracks. Returns the confirmed tracks, oldest ID first.
    @discardableResult
    public mutating func update(faces detections: [DetectedFace], at time: Double) -> [TrackedFace] {
        // Greedy matching, best overlap first: enough for the few faces of a photo.
        var pairs: [(track: Int, detection: Int, overlap: Double)] = []
        for (t, track) in tracks.enumerated() {
            for (d, detection) in detections.enumerated() {
                let overlap = track.bounds.intersectionOverUnion(detection.bounds)
                if overlap >= minimumOverlap { pairs.append((t, d, overlap)) }
            }
        }
        pairs.sort { $0.overlap > $1.overlap }
        var matchedTracks = Set<Int>(), matchedDetections = Set<Int>()
        for pair in pairs where !matchedTracks.contains(pair.track) && !matchedDetections.contains(pair.detection) {
            matchedTracks.insert(pair.track)
            matchedDetections.insert(pair.detection)
            tracks[pair.track].bounds = detections[pair.detection].bounds
            tracks[pair.track].landmarks = detections[pair.detection].landmarks
            tracks[pair.track].lastSeen = time
        }
        for index in tracks.indices {
            tracks[index].recentHits = Array((tracks[index].recentHits + [matchedTracks.contains(index)]).suffix(3))
            if tracks[index].recentHits.filter({ $0 }).count >= 2 { tracks[index].isConfirmed = true }
        }
        // A tentative track that missed its chance (fewer than 2 hits in 3) ends at once; a
        // confirmed one lives until it has been unseen for dropAfter.
        tracks.removeAll { track in
            track.isConfirmed ? time - track.lastSeen > dropAfter
                : track.recentHits.count == 3 && track.recentHits.filter({ $0 }).count < 2
        }
        for (d, detection) in detections.enumerated() where !matchedDetections.contains(d) {
            tracks.append(TrackedFace(detectedObjectID: nextID, bounds: detection.bounds, landmarks: detection.landmarks, lastSeen: time,
                                      isConfirmed: false, recentHits: [true]))
            nextID += 1
        }
        return confirmed
    }

    /// The tracks reported now, oldest ID first.
    public var confirmed: [TrackedFace] { tracks.filter(\.isConfirmed) }

    /// Forgets every track (IDs keep increasing).
    public mutating func reset() { tracks.removeAll() }
}
