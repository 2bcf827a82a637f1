import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import Imaging
import PhotoCapture

/// Checks a reviewer wants of a photo's orientation metadata, beyond the main picture:
/// the EXIF orientation inside a HEIC/AVIF agrees with its `irot`/`imir`, and the embedded
/// thumbnail (JPEG: EXIF IFD1; HEIC: the thumbnail item) shows the same way as the main
/// picture.
///
/// In a test, `try OrientationConsistency.verify(fileAt: path)` fails with the sentences;
/// ``problems(inFileAt:)`` gives them as values.
public enum OrientationConsistency {
    /// Throws ``GoldenImageError/Code/inconsistentOrientation(problems:)`` when the file at
    /// `path` has problems: the error's description names the file and every problem, which
    /// Swift Testing prints for a thrown error ("Caught error: …") and XCTest for a throwing test.
    public static func verify(fileAt path: String) throws(GoldenImageError) {
        let found = try problems(inFileAt: path)
        guard found.isEmpty else { throw GoldenImageError(.inconsistentOrientation(problems: found), path: path) }
    }


    /// The problems found in the file at `path`, one sentence each; empty when consistent.
    public static func problems(inFileAt path: String) throws(GoldenImageError) -> [String] {
        let data = try DisplayedImage.contents(of: path)
        let shown = try DisplayedImage(fileAt: path)
        do {
            return try problems(data, shown)
        } catch {
            throw GoldenImageError(.undecodable(error), path: path)
        }
    }

    private static func problems(_ data: [UInt8], _ shown: DisplayedImage) throws(CodecError) -> [String] {
        var problems: [String] = []
        var thumbnail: RGBImage?
        switch shown.format {
        case .heif, .jpeg:
            if shown.format == .heif {
                let info = try ImageFileInfo(data: data)
                if let exif = info.exifOrientation, exif != info.orientation {
                    problems.append("the EXIF orientation inside the HEIF (\(exif)) disagrees with its irot/imir (\(info.orientation)): "
                        + "viewers that read EXIF show it differently")
                }
            }
            do { thumbnail = try ImageDecoder().decodeThumbnail(bytes: data) } catch { throw error.codecError }
        case .png, .tiff, .dng:
            break
        }
        if let thumbnail {
            do {
                if let problem = try thumbnailProblem(thumbnail, main: shown.image) { problems.append(problem) }
            } catch {
                throw .imaging(error)
            }
        }
        return problems
    }

    /// A sentence when the displayed thumbnail is the main picture turned or mirrored.
    static func thumbnailProblem(_ thumbnail: RGBImage, main: RGBImage) throws(ImagingError) -> String? {
        let small = try main.scaled(to: thumbnail.size)
        // Rotated thumbnails of a non-square picture have the other aspect ratio.
        let mainAspect = Double(main.size.width) / Double(main.size.height)
        let thumbnailAspect = Double(thumbnail.size.width) / Double(thumbnail.size.height)
        if abs(log(mainAspect / thumbnailAspect)) > log(1.25) && abs(log(mainAspect * thumbnailAspect)) < log(1.25) {
            return "the thumbnail (\(thumbnail.size)) shows turned a quarter against the picture (\(main.size))"
        }
        let tolerance = GoldenTolerance(meanAbsoluteDifference: 12)
        let comparison = ImageComparison(actual: thumbnail, golden: small, tolerance: tolerance)
        if case .orientationDiffers(let turn) = comparison.verdict {
            return "the thumbnail shows the picture \(ImageComparison.phrase(turn))"
        }
        return nil
    }
}
