import PhotocapCommands

/// `photocap-vision`: photocap with OpenCV's face detection linked in, for the commands that
/// need it (`watch`, `shoot --smart-framing`); `photocap` hands those over to it.
@main
enum PhotocapVision {
    static func main() async {
        VisionSupport.installed = .openCV
        await PhotocapCommand.parseAndRun()
    }
}
