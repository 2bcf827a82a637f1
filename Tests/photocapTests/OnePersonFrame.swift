import Foundation
import PhotoCaptureVision
import TestSupport

/// A 640x480 RGB24 frame file of one person, centred, from the scripted people scene (the
/// astronaut portrait), with the face's true box: the camera the CLI's face and smart framing
/// tests replay with `--frame-file`. The file lives as long as this value.
struct OnePersonFrame {
    static let size = PixelSize(width: 640, height: 480)
    /// The folder holding the frame; other files of the test may go in it too.
    let folder: TemporaryDirectory
    /// The true face box, normalised to the upright picture.
    let face: NormalizedRect
    /// The options that replay the frame.
    let arguments: [String]

    init(folderName: String) throws {
        let file = TestPaths.testImages.appendingPathComponent("faces/astronaut.png").path
        let scene = ScriptedPeopleScene.joiningFriends(portrait: try ReferenceDecoder.imageMagickStored(file),
                                                       faceInPortrait: PixelRect(x: 175, y: 70, size: PixelSize(width: 90, height: 90)))
        folder = try TemporaryDirectory(folderName)
        // At 1 s the script shows one person in the middle.
        let frame = try folder.write(scene.image(at: 1, size: Self.size).pixels, named: "person.rgb")
        face = scene.faces(at: 1, in: Self.size)[0]
        arguments = ["--frame-file", frame, "--frame-format", "rgb24", "--frame-size", "\(Self.size.width)x\(Self.size.height)"]
    }
}
