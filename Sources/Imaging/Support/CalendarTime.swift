import FoundationEssentials
import Glibc

/// A moment as civil fields (year to millisecond) in a time zone, broken down and put back
/// together by the C library (`gmtime_r`, `localtime_r`, `timegm`, `mktime`).
///
/// Not Foundation's `Calendar` and `TimeZone`: photocap loads FoundationEssentials only, to
/// start fast, and there `TimeZone.current` is always GMT and named zones ("UTC",
/// "Europe/Paris") do not exist (they live in FoundationInternationalization, with ICU). The C
/// library reads `TZ` and /etc/localtime as ICU does, daylight saving included.
package struct CalendarTime: Sendable, Equatable {
    /// Where the fields are read.
    package enum Zone: Sendable, Equatable {
        /// The process's local time zone (`TZ`, else /etc/localtime).
        case local
        /// A fixed offset east of UTC, in seconds.
        case offset(Int)

        /// Coordinated Universal Time.
        package static let utc = Zone.offset(0)
    }

    package var year: Int
    package var month: Int
    package var day: Int
    package var hour: Int
    package var minute: Int
    package var second: Int
    /// 0...999.
    package var millisecond: Int
    /// Seconds east of UTC in force at this moment (for `.local`, daylight saving included).
    package var offsetFromUTC: Int

    /// `date` in `zone`, cut (not rounded) to the millisecond, so rounding never carries into
    /// the seconds field.
    package init(_ date: Date, in zone: Zone) {
        // Milliseconds since 1970 as ICU's DateFormatter counts them ((interval + 978 307 200 s)
        // × 1000, rounded down), so .999 stays 999 where the fraction of the stored interval
        // is 0.99899….
        let unixMilliseconds = Int(((date.timeIntervalSinceReferenceDate + 978_307_200) * 1000).rounded(.down))
        let (unixSeconds, milliseconds) = unixMilliseconds.quotientAndRemainder(dividingBy: 1000)
        let seconds = milliseconds < 0 ? unixSeconds - 1 : unixSeconds
        var parts = tm()
        switch zone {
        case .local:
            var time = time_t(seconds)
            localtime_r(&time, &parts)
        case .offset(let offset):
            var time = time_t(seconds + offset)
            gmtime_r(&time, &parts)
            parts.tm_gmtoff = offset
        }
        year = Int(parts.tm_year) + 1900
        month = Int(parts.tm_mon) + 1
        day = Int(parts.tm_mday)
        hour = Int(parts.tm_hour)
        minute = Int(parts.tm_min)
        second = Int(parts.tm_sec)
        millisecond = milliseconds < 0 ? milliseconds + 1000 : milliseconds
        offsetFromUTC = Int(parts.tm_gmtoff)
    }

    /// An EXIF date, "YYYY:MM:DD" (GPSDateStamp), or date and time, "YYYY:MM:DD HH:MM:SS"
    /// (DateTimeOriginal); nil when `text` is neither or a field is out of range. The offset
    /// is 0 until ``date(in:)`` reads the fields in a zone.
    package init?(exif text: String) {
        let halves = text.split(separator: " ", omittingEmptySubsequences: false)
        guard halves.count == 1 || halves.count == 2 else { return nil }
        func fields(_ part: Substring, _ widths: [Int]) -> [Int]? {
            let pieces = part.split(separator: ":", omittingEmptySubsequences: false)
            guard pieces.count == widths.count else { return nil }
            var values: [Int] = []
            for (piece, width) in zip(pieces, widths) {
                guard (1...width).contains(piece.count), piece.allSatisfy({ $0.isASCII && $0.isNumber }),
                      let value = Int(piece) else { return nil }
                values.append(value)
            }
            return values
        }
        guard let date = fields(halves[0], [4, 2, 2]) else { return nil }
        let time = halves.count == 2 ? fields(halves[1], [2, 2, 2]) : [0, 0, 0]
        guard let time, (1...12).contains(date[1]), (1...31).contains(date[2]),
              (0...23).contains(time[0]), (0...59).contains(time[1]), (0...60).contains(time[2]) else { return nil }
        (year, month, day, hour, minute, second, millisecond, offsetFromUTC) =
            (date[0], date[1], date[2], time[0], time[1], time[2], 0, 0)
    }

    /// The offset of an EXIF OffsetTime field, "+HH:MM" or "-HH:MM"; nil otherwise (EXIF
    /// writes "   :  " when unknown).
    package static func zone(exifOffset text: String) -> Zone? {
        let characters = Array(text)
        guard characters.count == 6, characters[0] == "+" || characters[0] == "-", characters[3] == ":",
              let hours = Int(String(characters[1...2])), let minutes = Int(String(characters[4...5])),
              characters[1...2].allSatisfy(\.isNumber), characters[4...5].allSatisfy(\.isNumber),
              hours <= 23, minutes <= 59 else { return nil }
        return .offset((characters[0] == "-" ? -1 : 1) * (hours * 3600 + minutes * 60))
    }

    /// The moment these fields name when read in `zone` (local: the offset the C library finds
    /// for them there); nil when the fields name a day that does not exist (February 30th).
    package func date(in zone: Zone) -> Date? {
        var parts = tm()
        parts.tm_year = Int32(year - 1900)
        parts.tm_mon = Int32(month - 1)
        parts.tm_mday = Int32(day)
        parts.tm_hour = Int32(hour)
        parts.tm_min = Int32(minute)
        parts.tm_sec = Int32(second)
        parts.tm_isdst = -1
        let seconds: Int
        switch zone {
        case .local:
            seconds = Int(mktime(&parts))
        case .offset(let offset):
            seconds = Int(timegm(&parts)) - offset
        }
        // mktime and timegm normalise an impossible day (February 30th to March 2nd); refuse it.
        guard parts.tm_mday == Int32(day), parts.tm_mon == Int32(month - 1) else { return nil }
        return Date(timeIntervalSince1970: Double(seconds) + Double(millisecond) / 1000)
    }

    /// "YYYY:MM:DD", EXIF's date.
    package var exifDate: String { String(printf: "%04ld:%02ld:%02ld", year, month, day) }

    /// "YYYY:MM:DD HH:MM:SS", EXIF's date and time.
    package var exifDateTime: String { exifDate + String(printf: " %02ld:%02ld:%02ld", hour, minute, second) }

    /// "+HH:MM" or "-HH:MM", EXIF's offset from UTC.
    package var exifOffset: String {
        let minutes = abs(offsetFromUTC) / 60
        return (offsetFromUTC < 0 ? "-" : "+") + String(printf: "%02ld:%02ld", minutes / 60, minutes % 60)
    }
}
