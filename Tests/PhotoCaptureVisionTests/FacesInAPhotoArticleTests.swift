import Foundation
import PhotoCaptureVision
import Testing
import TestSupport

// The article "Faces in a still photo" (PhotoCaptureVision.docc/FacesInAPhoto.md), its
// snippets copied as they are (the test below checks that they still are), then run.

/// The faces in the file at `path`, in pixels of the picture a viewer shows.
func facesInFile(_ path: String) throws -> [PixelRect] {
    let shown = try ImageDecoder().decode(fileAt: path).image
    let faces = try DefaultFaceDetector().detectFaces(in: LumaPicture(shown))
    let boxes = faces.map { $0.bounds.pixelRect(in: shown.size) }
    return boxes
}

/// The faces in a photo just taken.
func facesInPhoto(_ photo: CapturePhoto) throws -> [DetectedFace] {
    let buffer = photo.pixelBuffer
    let upright = try buffer.rgbImage().transformed(by: buffer.orientation)
    let found = try DefaultFaceDetector().detectFaces(in: LumaPicture(upright))
    return found
}

@Suite struct FacesInAPhotoArticleTests {
    @Test("every Swift snippet of the article is in this file as it is (indentation aside), so it compiles")
    func snippetsAreHere() throws {
        let source = ScriptedScenesArticleTests.lines(try String(contentsOfFile: #filePath, encoding: .utf8))
        let article = ScriptedScenesArticleTests.blocks(
            try ScriptedScenesArticleTests.file("Sources/PhotoCaptureVision/PhotoCaptureVision.docc/FacesInAPhoto.md"))
        #expect(article.count == 2)
        for block in article {
            let code = ScriptedScenesArticleTests.lines(block)
            #expect(source.contains(code), "not in \(#filePath) as the documentation has it:\n\(code)")
        }
    }

    /// The portrait's face, marked by hand at 175,70 90x90 (TestImages/README.md), is found
    /// from the file, and from a photo whose stored pixels show it turned a quarter, where it
    /// is found once the buffer's orientation has turned them upright.
    @Test("the article's code finds the marked face in a file and in a photo stored turned")
    func findsTheFace() async throws {
        let portrait = TestPaths.testImages.appendingPathComponent("faces/astronaut.png").path
        let marked = PixelRect(x: 175, y: 70, size: PixelSize(width: 90, height: 90))
        func near(_ face: PixelRect) -> Bool {
            abs(face.x - marked.x) <= 14 && abs(face.y - marked.y) <= 14
                && abs(face.size.width - marked.size.width) <= 14 && abs(face.size.height - marked.size.height) <= 14
        }
        let inFile = try facesInFile(portrait)
        #expect(inFile.count == 1 && inFile.allSatisfy(near), "\(inFile)")

        // A frame file of the portrait as the sensor of a device held a quarter turned
        // clockwise sees it; the photo keeps those pixels and says to turn them back.
        let picture = try ImageDecoder().decode(fileAt: portrait).image.transformed(by: Orientation(clockwiseDegrees: 270)!)
        let folder = try TemporaryDirectory("faces-in-a-photo")
        let path = try folder.writeFrame(of: picture, format: .rgb24, named: "portrait.rgb")
        let session = CaptureSession()
        let output = PhotoOutput()
        try session.addInput(try .frameFile(path: path, format: .rgb24, size: picture.size))
        try session.addOutput(output)
        try await session.startRunning()
        var settings = PhotoSettings(format: .jpeg)
        settings.rotationAngle = 90
        let photo = try await output.capturePhoto(with: settings)
        await session.stopRunning()
        #expect(photo.pixelBuffer.orientation != .up, "the test needs a photo stored turned")
        let faces = try facesInPhoto(photo).map { $0.bounds.pixelRect(in: photo.resolvedSettings.displayedPhotoDimensions) }
        #expect(faces.count == 1 && faces.allSatisfy(near), "\(faces)")
    }
}
