import ArgumentParser
import FoundationEssentials
import PhotoCapture

/// `photocap info FILE`: format, size, orientation and thumbnail of an image file.
struct InfoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info", abstract: "Show an image file's format, dimensions, orientation and thumbnail.")

    @Argument(help: "A JPEG, HEIC or TIFF file.")
    var file: String

    @Flag(help: "Print JSON.")
    var json = false

    struct Report: Encodable {
        let path: String
        let format: String
        let storedDimensions: JSONSize
        let displayedDimensions: JSONSize
        let orientation: Int
        let orientationName: String
        let exifOrientation: Int?
        let thumbnail: JSONSize?
        let exif: [String: String]
    }

    func run() async throws {
        let data: [UInt8]
        do { data = try InputFile.read(file) } catch { throw fail(error.description) }
        let info: ImageFileInfo
        do {
            info = try ImageFileInfo(data: data)
        } catch {
            throw fail("\(file): \(error)")
        }
        let report = Report(
            path: file, format: info.format.rawValue, storedDimensions: JSONSize(info.storedSize),
            displayedDimensions: JSONSize(info.displayedSize), orientation: info.orientation.exifValue,
            orientationName: info.orientation.description, exifOrientation: info.exifOrientation?.exifValue,
            thumbnail: info.thumbnailSize.map(JSONSize.init), exif: info.exif)
        if json {
            print(try jsonText(report))
            return
        }
        print("\(file.escapingControlCharacters): \(info.format.rawValue.uppercased())")
        print("  stored:      \(info.storedSize)")
        print("  orientation: \(info.orientation)")
        if let exifOrientation = info.exifOrientation, info.format == .heic {
            print("  EXIF orientation (informative in HEIF): \(exifOrientation.exifValue)")
        }
        print("  displayed:   \(info.displayedSize)")
        print("  thumbnail:   \(info.thumbnailSize.map(\.description) ?? "none")")
    }
}
