import ArgumentParser
import PhotoCapture

/// How processed photos are encoded and oriented: shared by the commands that encode.
struct EncodingOptions: ParsableArguments {
    @Option(help: "JPEG/HEIC quality, 1...100.")
    var quality: Int = 90

    @Option(name: .customLong("heic-speed"), help: "x265 preset for HEIC: ultrafast ... slow.")
    var heicSpeed: HEICEncodingSpeed = .medium

    @Flag var compensation: CompensationMode = .compensation

    /// Sets the quality and HEIC speed of `settings` (the compensation mode belongs to the output).
    func apply(to settings: inout PhotoSettings) {
        settings.quality = quality
        settings.heicEncodingSpeed = heicSpeed
    }
}
