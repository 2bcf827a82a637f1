import Foundation
import PhotoCapture
import Testing
import TestSupport

/// A preview saved the documented way (`preview.jpegData(quality:)`, then a file) shows as its
/// photo does.
@Suite struct PreviewOrientationTests {
    @Test(arguments: [0, 90, 180, 270])
    func aSavedPreviewShowsLikeItsPhoto(rotationAngle: Int) async throws {
        let (session, output) = try await SettingsResolutionTests.output()
        var settings = PhotoSettings(format: .jpeg)
        settings.rotationAngle = rotationAngle
        settings.previewDimensions = PixelSize(width: 320, height: 240)
        let photo = try await output.capturePhoto(with: settings)
        await session.stopRunning()
        let folder = try TemporaryDirectory("preview-orientation")
        let photoFile = folder.path("photo.jpg")
        try photo.write(to: photoFile)
        let preview = try #require(photo.previewPixelBuffer)
        let previewFile = folder.path("photo.preview.jpg")
        try AtomicFileWriter.write(try preview.jpegData(quality: 80), to: previewFile, overwrite: false)

        // As ImageMagick shows them, upright: the preview is the photo, smaller.
        let shownPhoto = try ReferenceDecoder.imageMagickAutoOriented(photoFile)
        let shownPreview = try ReferenceDecoder.imageMagickAutoOriented(previewFile)
        #expect(shownPreview.size.width * shownPhoto.size.height == shownPreview.size.height * shownPhoto.size.width,
                "at \(rotationAngle)°: the photo shows \(shownPhoto.size), the preview \(shownPreview.size)")
        let size = "\(shownPreview.size.width)x\(shownPreview.size.height)!"
        let scaledPhoto = try PPM.parse(try ExternalTool.run("convert", [photoFile, "-auto-orient", "-resize", size, "-depth", "8",
                                                                        "ppm:-"]).checked().stdout)
        let difference = shownPreview.meanAbsoluteDifference(to: scaledPhoto)
        #expect(difference < 12, "at \(rotationAngle)°: the preview shows another picture than its photo (\(difference))")
    }
}
