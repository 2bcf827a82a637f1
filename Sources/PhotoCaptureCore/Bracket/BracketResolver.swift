import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Resolves a request's bracket against the camera's exposure controls: rejects what cannot be
/// done at all, chooses the nearest achievable value for each member and records every
/// difference, before anything is captured.
struct BracketResolver {
    let device: CaptureDevice

    struct Resolution {
        var members: [ResolvedBracketedExposure] = []
        var adjustments: [SettingsAdjustment] = []
    }

    func resolve(_ settings: PhotoSettings) throws(PhotoCaptureError) -> Resolution {
        let requested = settings.bracketedSettings
        guard !requested.isEmpty else { return Resolution() }
        func reject(_ problem: BracketProblem) -> PhotoCaptureError {
            PhotoCaptureError(.bracket(problem), uniqueID: settings.uniqueID)
        }
        guard let controls = device.exposureControls else { throw reject(.noExposureControls(device: device.uniqueID)) }
        guard requested.count <= controls.maximumBracketCount else {
            throw reject(.tooManyPhotos(requested: requested.count, maximum: controls.maximumBracketCount))
        }
        guard Set(requested.map(\.isAutoExposure)).count == 1 else { throw reject(.mixedMemberKinds) }
        guard settings.flashMode == .off else { throw reject(.flashNotAllowed) }

        let capabilities = controls.capabilities
        let metered = try controls.metered()
        var resolution = Resolution()
        for (index, member) in zip(1..., requested) {
            var planner = MemberPlanner(sequenceCount: index, capabilities: capabilities, metered: metered,
                                        device: device.uniqueID)
            do throws(BracketProblem) {
                resolution.members.append(try planner.plan(member))
            } catch {
                throw reject(error)
            }
            resolution.adjustments += planner.adjustments
        }
        return resolution
    }
}

/// Plans one member: which control, which value.
private struct MemberPlanner {
    let sequenceCount: Int
    let capabilities: ExposureCapabilities
    let metered: ExposureReading
    let device: String
    var adjustments: [SettingsAdjustment] = []

    /// Differences below these are rounding, not adjustments.
    static let biasTolerance = 0.005
    static let relativeTolerance = 1e-6

    init(sequenceCount: Int, capabilities: ExposureCapabilities, metered: ExposureReading, device: String) {
        self.sequenceCount = sequenceCount
        self.capabilities = capabilities
        self.metered = metered
        self.device = device
    }

    mutating func plan(_ member: BracketedStillImageSettings) throws(BracketProblem) -> ResolvedBracketedExposure {
        switch member {
        case .autoExposure(let bias):
            guard bias.isFinite else { throw .invalidExposure(sequenceCount: sequenceCount, reason: "bias \(bias) EV is not a number") }
            return try planBias(bias, member)
        case .manualExposure(let duration, let iso):
            return try planManual(duration: duration, iso: iso, member)
        }
    }

    /// The bias control when there is one; otherwise the metered exposure time, else the
    /// metered gain, times 2^bias.
    private mutating func planBias(_ bias: Double, _ member: BracketedStillImageSettings) throws(BracketProblem) -> ResolvedBracketedExposure {
        if let range = capabilities.exposureTargetBias {
            let chosen = range.nearest(bias)
            if abs(chosen - bias) > Self.biasTolerance {
                adjustments.append(.exposureTargetBias(sequenceCount: sequenceCount, requested: bias, chosen: chosen))
            }
            return resolved(member, .exposureTargetBias, bias: chosen, metered: nil)
        }
        let (method, range, base): (BracketExposureMethod, ExposureControlRange, Double?) =
            if let range = capabilities.exposureDuration { (.exposureDuration, range, metered.duration) }
            else { (.iso, capabilities.iso!, metered.iso) }
        guard let base, base > 0 else { throw .meteringUnavailable(device: device, control: range.control) }
        let chosen = range.nearest(base * pow(2, bias))
        let chosenBias = log2(chosen / base)
        if abs(chosenBias - bias) > Self.biasTolerance {
            adjustments.append(.exposureTargetBias(sequenceCount: sequenceCount, requested: bias, chosen: chosenBias))
        }
        return method == .exposureDuration
            ? resolved(member, method, bias: chosenBias, duration: chosen, metered: base)
            : resolved(member, method, bias: chosenBias, iso: chosen, metered: base)
    }

    /// Given values go to their controls (which must exist); nil values lock the control at
    /// the metered value, as Apple's "current" constants do.
    private mutating func planManual(duration: Double?, iso: Double?,
                                     _ member: BracketedStillImageSettings) throws(BracketProblem) -> ResolvedBracketedExposure {
        let index = sequenceCount
        let chosenDuration = try manualValue(duration, range: capabilities.exposureDuration, metered: metered.duration,
                                             name: "exposure time", unit: "s") {
            .exposureDuration(sequenceCount: index, requested: $0, chosen: $1)
        }
        let chosenISO = try manualValue(iso, range: capabilities.iso, metered: metered.iso, name: "ISO/gain", unit: "") {
            .iso(sequenceCount: index, requested: $0, chosen: $1)
        }
        return resolved(member, .manual, duration: chosenDuration, iso: chosenISO, metered: nil)
    }

    private mutating func manualValue(_ value: Double?, range: ExposureControlRange?, metered: Double?, name: String, unit: String,
                                      adjustment: (Double, Double) -> SettingsAdjustment) throws(BracketProblem) -> Double? {
        guard let value else { return range == nil ? nil : metered.map { range!.nearest($0) } }
        guard value.isFinite, value > 0 else {
            throw .invalidExposure(sequenceCount: sequenceCount, reason: "\(name) \(value)\(unit.isEmpty ? "" : " " + unit) is not above 0")
        }
        guard let range else { throw .controlUnavailable(device: device, control: name) }
        let chosen = range.nearest(value)
        if abs(chosen - value) > value * Self.relativeTolerance { adjustments.append(adjustment(value, chosen)) }
        return chosen
    }

    private func resolved(_ member: BracketedStillImageSettings, _ method: BracketExposureMethod, bias: Double? = nil,
                          duration: Double? = nil, iso: Double? = nil, metered: Double?) -> ResolvedBracketedExposure {
        ResolvedBracketedExposure(sequenceCount: sequenceCount, requested: member, method: method, exposureTargetBias: bias,
                                  exposureDuration: duration, iso: iso, meteredValue: metered)
    }
}
