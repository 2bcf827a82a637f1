import PhotoCapture

/// The `bracket` member of a `--json` line: the member as requested and resolved, and the
/// exposure the camera applied (read back).
struct BracketReport: Encodable {
    struct Applied: Encodable {
        let exposureTargetBias: Double?
        let exposureDuration: Double?
        let iso: Double?
        let controls: [String: Int64]
        let framesSkippedToSettle: Int
    }

    let sequenceCount: Int
    let requested: String
    let method: String
    let exposureTargetBias: Double?
    let exposureDuration: Double?
    let iso: Double?
    let applied: Applied?

    init?(_ photo: CapturePhoto) {
        guard let member = photo.bracketSettings else { return nil }
        sequenceCount = member.sequenceCount
        requested = member.requested.description
        method = member.method.rawValue
        exposureTargetBias = member.exposureTargetBias
        exposureDuration = member.exposureDuration
        iso = member.iso
        applied = photo.appliedExposure.map {
            Applied(exposureTargetBias: $0.exposureTargetBias, exposureDuration: $0.exposureDuration, iso: $0.iso,
                    controls: Dictionary($0.controls.map { ($0.key, $0.value) }, uniquingKeysWith: { _, last in last }),
                    framesSkippedToSettle: $0.framesSkippedToSettle)
        }
    }
}
