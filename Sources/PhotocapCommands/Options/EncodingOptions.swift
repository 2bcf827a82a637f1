import ArgumentParser
import PhotoCapture

/// How processed photos are encoded and oriented: shared by the commands that encode.
struct EncodingOptions: ParsableArguments {
    @Option(help: "JPEG/HEIC quality, 1...100.")
    var quality: Int = 90

    @Option(name: .customLong("heic-speed"), help: "x265 preset for HEIC: ultrafast ... slow.")
    var heicSpeed: HEICEncodingSpeed = .medium

    @Flag var compensation: CompensationMode = .compensation

    /// Refuses a quality outside 1...100 with the other usage errors, before a camera is looked
    /// for or a file read.
    func validate() throws {
        try Self.validate(quality: quality)
    }

    /// Refuses a `--quality` outside 1...100, in the one sentence every command gives.
    static func validate(quality: Int) throws {
        guard (1...100).contains(quality) else { throw ValidationError("--quality \(quality) is not in 1...100") }
    }

    /// Sets the quality and HEIC speed of `settings` (the compensation mode belongs to the output).
    func apply(to settings: inout PhotoSettings) {
        settings.quality = quality
        settings.heicEncodingSpeed = heicSpeed
    }
}
