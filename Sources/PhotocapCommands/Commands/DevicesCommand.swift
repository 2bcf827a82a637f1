import ArgumentParser
import FoundationEssentials
import PhotoCapture

/// `photocap devices`: the cameras photocap can use.
struct DevicesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "devices",
        abstract: "List cameras with their formats, sizes, controls and sensor mounting.")

    @Flag(help: "Print JSON.")
    var json = false

    struct Entry: Encodable {
        struct Format: Encodable { let pixelFormat: String; let sizes: String }
        let id: String
        let name: String
        let kind: String
        let driver: String?
        let bus: String?
        let input: String?
        let sensorRotation: Int
        let sensorMirrored: Bool
        let reportedSensorRotation: Int?
        let location: String?
        let flippedHorizontally: Bool?
        let flippedVertically: Bool?
        let defaultFormat: String?
        let frameRates: [Double]?
        let cropBounds: String?
        let formats: [Format]
        let unsupportedFormats: [String]?
        let controls: [ControlEntry]?
        /// A libcamera camera's controls, set per capture request.
        let libcameraControls: [LibcameraControl]?
        /// The focus modes `shoot --focus` can use, and the manual lens range; empty without a lens.
        let focusModes: [String]
        let lensPosition: String?
        /// A libcamera camera's sensor model, full pixel array and whether it has a raw stream.
        let model: String?
        let pixelArray: String?
        let rawStream: Bool?
        /// Where `sensorRotation` came from: `libcamera Rotation`, `V4L2_CID_CAMERA_SENSOR_ROTATION`
        /// (on the node, or on the pipeline's sensor subdevice), or nil when nothing was reported (0°).
        let sensorRotationSource: String?
        /// The pipeline's sensor subdevice the mounting was read from, and its entity name.
        let sensorSubdevice: String?
        let sensorName: String?
    }

    func run() async throws {
        let discovery = CaptureDevice.discovery()
        let entries = discovery.devices.map { device in
            let details = device.v4l2Details
            let libcamera = device.libcameraDetails
            let still = device.defaultStillFormat
            return Entry(
                id: device.uniqueID, name: device.localizedName, kind: device.kind.rawValue, driver: details?.driver,
                bus: details?.busInfo, input: details?.inputName, sensorRotation: device.sensorMounting.rotation,
                sensorMirrored: device.sensorMounting.isMirrored, reportedSensorRotation: details?.reportedSensorRotation ?? libcamera?.reportedSensorRotation,
                location: (details?.location ?? libcamera?.location)?.rawValue, flippedHorizontally: details?.isFlippedHorizontally,
                flippedVertically: details?.isFlippedVertically,
                defaultFormat: still.map { "\($0.pixelFormat.fourCC) \($0.sizes.largest)" },
                frameRates: details?.frameRates, cropBounds: details?.cropBounds?.description,
                formats: device.formats.map { .init(pixelFormat: $0.pixelFormat.fourCC, sizes: $0.sizes.description) },
                unsupportedFormats: details?.unsupportedFormats ?? libcamera?.unsupportedFormats,
                controls: details == nil ? nil : ((try? device.controls()) ?? []).map(ControlEntry.init),
                libcameraControls: libcamera == nil ? nil : (try? device.libcameraControls()) ?? [],
                focusModes: device.focusCapabilities?.supportedFocusModes.map(\.rawValue) ?? [],
                lensPosition: device.focusCapabilities?.lensPosition.map {
                    "\($0.control) \(Int64($0.minimum))...\(Int64($0.maximum)) step \(Int64($0.step))"
                },
                model: libcamera?.model, pixelArray: libcamera?.pixelArray?.description, rawStream: libcamera?.hasRawStream,
                sensorRotationSource: device.sensorRotationSource, sensorSubdevice: details?.sensorSubdevice,
                sensorName: details?.sensorName)
        }
        if json {
            print(try jsonText(entries, pretty: true))
        } else {
            for entry in entries { print(describe(entry)) }
        }
        for problem in discovery.problems { note("skipped: \(problem)") }
        for problem in discovery.backendProblems { note("\(problem)") }
    }

    private func describe(_ entry: Entry) -> String {
        var lines = ["\(entry.id): \(entry.name) [\(entry.kind)]"]
        if let driver = entry.driver {
            lines.append("  driver: \(driver), bus: \(entry.bus ?? "?")" + (entry.input.map { ", input: \($0)" } ?? ""))
        }
        var sensor = "  sensor: rotation \(entry.sensorRotation)°\(entry.sensorMirrored ? ", mirrored" : "")"
        var reported: [String] = []
        if let rotation = entry.reportedSensorRotation { reported.append("sensor rotation \(rotation)°") }
        if let location = entry.location { reported.append("location \(location)") }
        if entry.flippedHorizontally == true { reported.append("input flipped horizontally") }
        if entry.flippedVertically == true { reported.append("input flipped vertically") }
        let reporter = entry.sensorSubdevice.map { "from the pipeline's sensor \(entry.sensorName ?? "?") on \($0): " } ?? "from "
        if entry.kind == "v4l2" { sensor += reported.isEmpty ? " (nothing reported by the driver)" : " (\(reporter)\(reported.joined(separator: ", ")))" }
        if entry.kind == "libcamera" { sensor += reported.isEmpty ? " (nothing reported by libcamera)" : " (from libcamera: \(reported.joined(separator: ", ")))" }
        lines.append(sensor)
        if let model = entry.model {
            lines.append("  model: \(model)" + (entry.pixelArray.map { ", pixel array \($0)" } ?? "") + (entry.rawStream == true ? ", raw stream" : ""))
        }
        if let still = entry.defaultFormat {
            let rates = entry.frameRates.map { $0.isEmpty ? "" : " at " + $0.map { String(printf: "%g", $0) }.joined(separator: "/") + " fps" } ?? ""
            lines.append("  default still format: \(still)\(rates)")
        }
        let cropper = entry.cropBounds.map { "the driver (crop bounds \($0)) when set before streaming, else photocap" } ?? "photocap"
        lines.append("  aspect ratios: \(AspectRatio.supported.map(\.description).joined(separator: ", ")), zoom 1-8, cropped by \(cropper)")
        lines.append("  focus: " + (entry.focusModes.isEmpty ? "none (fixed focus)" : entry.focusModes.joined(separator: ", "))
                     + (entry.lensPosition.map { ", lens \($0)" } ?? ""))
        lines.append("  formats:")
        for format in entry.formats { lines.append("    \(format.pixelFormat): \(format.sizes)") }
        if let unsupported = entry.unsupportedFormats, !unsupported.isEmpty {
            lines.append("    not supported by photocap: \(unsupported.joined(separator: ", "))")
        }
        if let controls = entry.controls, !controls.isEmpty {
            lines.append("  controls:")
            lines += controls.filter { $0.kind != "class" }.map { "    " + $0.line }
        }
        if let controls = entry.libcameraControls, !controls.isEmpty {
            lines.append("  controls (set per capture request):")
            lines += controls.map { "    " + $0.line }
        }
        return lines.joined(separator: "\n")
    }
}

/// One control for `devices` and `controls`, as text and JSON.
struct ControlEntry: Encodable {
    let key: String
    let name: String
    let kind: String
    let id: String
    let minimum: Int64
    let maximum: Int64
    let step: UInt64
    let defaultValue: Int64
    let value: Int64?
    let valueLabel: String?
    let menu: [String]?
    let flags: [String]

    init(_ control: CameraControl) {
        key = control.key
        name = control.name
        kind = control.controlKind.rawValue
        id = String(printf: "0x%08x", control.id)
        minimum = control.minimum
        maximum = control.maximum
        step = control.step
        defaultValue = control.defaultValue
        value = control.value
        valueLabel = control.valueLabel
        menu = control.menu.isEmpty ? nil : control.menu.map { "\($0.value): \($0.label)" }
        flags = [control.isReadOnly ? "read-only" : nil, control.isInactive ? "inactive" : nil,
                 control.isVolatile ? "volatile" : nil].compactMap { $0 }
    }

    /// `gain (integer) 0...255 step 1 default 100 = 100 [inactive]`.
    var line: String {
        var text = "\(key) (\(kind), \(id))"
        switch kind {
        case "button": break
        case "boolean": text += " default \(defaultValue != 0)"
        case "menu", "integer-menu": text += " default \(defaultValue)"
        default: text += " \(minimum)...\(maximum) step \(step) default \(defaultValue)"
        }
        if let value { text += " = \(value)" + (valueLabel.map { " (\($0))" } ?? "") }
        if !flags.isEmpty { text += " [\(flags.joined(separator: ", "))]" }
        if let menu { text += "\n      " + menu.joined(separator: "\n      ") }
        return text
    }
}
