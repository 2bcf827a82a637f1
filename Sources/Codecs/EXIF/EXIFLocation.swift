#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Imaging

/// Where a photo was taken, as the EXIF GPS IFD stores it.
package struct EXIFLocation: Sendable, Equatable {
    /// Degrees north (negative: south), −90...90.
    package var latitude: Double
    /// Degrees east (negative: west), −180...180.
    package var longitude: Double
    /// Metres above sea level (negative: below); nil when unknown.
    package var altitude: Double?
    /// The horizontal accuracy radius in metres (`GPSHPositioningError`); nil when unknown.
    package var horizontalAccuracy: Double?
    /// When the position was fixed (`GPSDateStamp`/`GPSTimeStamp`, UTC); nil when unknown.
    package var timestamp: Date?
    /// How the position was found (`GPSProcessingMethod`: "GPS", "CELLID", "WLAN" or "MANUAL";
    /// TIFF requires it).
    package var processingMethod: String = "MANUAL"

    /// A location; ``validate()`` checks the ranges.
    package init(latitude: Double, longitude: Double, altitude: Double? = nil, horizontalAccuracy: Double? = nil,
                 timestamp: Date? = nil) {
        (self.latitude, self.longitude, self.altitude) = (latitude, longitude, altitude)
        (self.horizontalAccuracy, self.timestamp) = (horizontalAccuracy, timestamp)
    }

    /// The `GPSProcessingMethod` values EXIF 2.32 names.
    package static let processingMethods = ["GPS", "CELLID", "WLAN", "MANUAL"]

    /// Throws ``CodecError/invalidArgument(_:)`` naming the first value out of range.
    package func validate() throws(CodecError) {
        if let problem { throw .invalidArgument(problem) }
    }

    /// The first value out of range, in words; nil when every value is in range.
    package var problem: String? {
        guard Self.processingMethods.contains(processingMethod) else {
            return "GPS processing method \(processingMethod) is not one of \(Self.processingMethods)"
        }
        guard latitude.isFinite, abs(latitude) <= 90 else { return "latitude \(latitude) is outside −90...90" }
        guard longitude.isFinite, abs(longitude) <= 180 else { return "longitude \(longitude) is outside −180...180" }
        if let altitude, !(altitude.isFinite && abs(altitude) < 1_000_000) {
            return "altitude \(altitude) m is outside ±1000 km"
        }
        if let horizontalAccuracy, !(horizontalAccuracy.isFinite && horizontalAccuracy >= 0 && horizontalAccuracy < 1_000_000) {
            return "horizontal accuracy \(horizontalAccuracy) m is negative or too large"
        }
        return nil
    }

    /// `GPSLatitudeRef`: "N" or "S".
    var latitudeReference: String { latitude < 0 ? "S" : "N" }
    /// `GPSLongitudeRef`: "E" or "W".
    var longitudeReference: String { longitude < 0 ? "W" : "E" }

    /// Denominator of the seconds rational: 1/10000 s of arc is about 3 mm.
    static let secondsDenominator: UInt32 = 10_000

    /// The magnitude of an angle as degrees, minutes and seconds rationals (the sign goes into
    /// the reference letter). Rounded once, on the whole, so seconds never round up to 60.
    static func degreesMinutesSeconds(_ angle: Double) -> [(UInt32, UInt32)] {
        let ticks = UInt64((abs(angle) * 3600 * Double(secondsDenominator)).rounded())
        let perMinute = 60 * UInt64(secondsDenominator)
        let perDegree = 60 * perMinute
        return [(UInt32(ticks / perDegree), 1), (UInt32(ticks % perDegree / perMinute), 1),
                (UInt32(ticks % perMinute), secondsDenominator)]
    }

    /// A non-negative length in metres as a rational in centimetres.
    static func metres(_ value: Double) -> (UInt32, UInt32) { (UInt32((abs(value) * 100).rounded()), 100) }

    /// `GPSDateStamp` ("YYYY:MM:DD") and `GPSTimeStamp` (hours, minutes, seconds in ms) in UTC.
    static func utcStamp(_ date: Date) -> (date: String, time: [(UInt32, UInt32)]) {
        let time = CalendarTime(date, in: .utc)
        return (time.exifDate, [(UInt32(time.hour), 1), (UInt32(time.minute), 1),
                                (UInt32(time.second * 1000 + time.millisecond), 1000)])
    }
}

/// The 8-byte character code and text of an EXIF `UserComment` (and `GPSProcessingMethod`): "ASCII" when the text is
/// ASCII, otherwise "UNICODE" with UTF-16 in the file's byte order, so nothing is lost.
enum EXIFUserComment {
    static func bytes(_ text: String, littleEndian: Bool = true) -> [UInt8] {
        if text.utf8.allSatisfy({ $0 < 0x80 }) {
            return Array("ASCII".utf8) + [0, 0, 0] + Array(text.utf8)
        }
        return Array("UNICODE".utf8) + [0] + text.utf16.flatMap { unit in
            littleEndian ? [UInt8(unit & 0xFF), UInt8(unit >> 8)] : [UInt8(unit >> 8), UInt8(unit & 0xFF)]
        }
    }

    /// The text of a UserComment value (the inverse of ``bytes(_:littleEndian:)``); nil for an
    /// empty or undefined one.
    static func text(_ bytes: [UInt8], littleEndian: Bool = true) -> String? {
        guard bytes.count > 8 else { return nil }
        let code = bytes[..<8], body = Array(bytes[8...])
        if code.starts(with: Array("UNICODE".utf8)) {
            let units = stride(from: 0, to: body.count - 1, by: 2).map { index in
                littleEndian ? UInt16(body[index]) | UInt16(body[index + 1]) << 8 : UInt16(body[index]) << 8 | UInt16(body[index + 1])
            }
            return String(decoding: units, as: UTF16.self)
        }
        let text = String(decoding: body.prefix { $0 != 0 }, as: UTF8.self)
        return text.isEmpty ? nil : text
    }
}
