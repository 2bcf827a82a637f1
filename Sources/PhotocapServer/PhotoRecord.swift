import FoundationEssentials
import PhotocapCommands

/// A photo the server took: its file in the photo folder and what `shoot --json` reports about
/// it (the resolved settings: unique ID, dimensions, orientation, compensation...).
package struct PhotoRecord: Sendable, Equatable {
    /// The photo's ID in URLs: its file's name (`p1732800000-3.jpg`), made by the server and only
    /// ever looked up, never joined to a path from a request.
    package let id: String
    /// The request's uniqueID (a RAW + processed request or a bracket has several photos).
    package let uniqueID: Int64
    /// The photo's format (`jpeg`, `heic`, `tiff`, `dng`).
    package let format: String
    /// The file's size in bytes.
    package let byteCount: Int
    /// `shoot --json`'s line for the photo, JSON text.
    package let report: String

    /// The record as the API sends it, with the URLs of its operations.
    package var json: String {
        let base = "/api/photos/" + id
        let fields = (try? jsonText(["id": id, "url": base, "fileURL": base + "/file", "displayURL": base + "/display",
                                     "format": format])) ?? "{}"
        return String(fields.dropLast()) + ",\"bytes\":\(byteCount),\"uniqueID\":\(uniqueID),\"settings\":\(report)}"
    }
}
