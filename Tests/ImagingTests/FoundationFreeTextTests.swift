import Foundation
import Imaging
import Testing

/// The helpers that stand in for Foundation in modules that load FoundationEssentials only,
/// judged against Foundation itself (which this test process loads).
@Suite struct FoundationFreeTextTests {
    @Test func printfMatchesStringFormat() {
        let doubles: [Double] = [0, 1, -1, 0.5, 1.005, 2.675, 29.97, 1e-7, 123_456_789.125, -0.004, .pi]
        for format in ["%.1f", "%.2f fps", "%+.2f EV", "%g", "%g s", "%.2f,%.2f"] {
            for value in doubles {
                #expect(String(printf: format, value, value) == String(format: format, value, value), "\(format) \(value)")
            }
        }
        for value: UInt32 in [0, 1, 0x0098_0900, .max] {
            #expect(String(printf: "0x%08x", value) == String(format: "0x%08x", value))
        }
        let id = UInt64(bitPattern: -42)
        #expect(String(printf: "%016llx%016llx", id, UInt64(7)) == String(format: "%016llx%016llx", id, UInt64(7)))
        #expect(String(printf: "") == "")
    }

    @Test func pathArithmeticMatchesNSString() {
        // Not one-character relative paths ("a", "a/") nor a run of slashes before a trailing one
        // ("a///b//"): NSString traps on them on Linux.
        #expect("a".deletingLastPathComponent == "" && "a/".lastPathComponent == "a" && "a///b//".lastPathComponent == "b")
        let paths = ["", "/", "//", "ab", "/a", "ab/", "/a/b/", "a//b", "//a", "/ab//", "a.b", ".a", "a/.b", "..", "a/..", "a.",
                     "a.b.c", "/a.b/c", "a/b.c/", "./x.jpg", "photo.JPG", "/tmp/out/photo-001.heic", "é/ü.dng"]
        for path in paths {
            let ns = path as NSString
            #expect(path.lastPathComponent == ns.lastPathComponent, "lastPathComponent of '\(path)'")
            #expect(path.deletingLastPathComponent == ns.deletingLastPathComponent, "deletingLastPathComponent of '\(path)'")
            #expect(path.pathExtension == ns.pathExtension, "pathExtension of '\(path)'")
            #expect(path.deletingPathExtension == ns.deletingPathExtension, "deletingPathExtension of '\(path)'")
            for component in ["", "x", "x.jpg"] {
                #expect(path.appendingPathComponent(component) == ns.appendingPathComponent(component), "'\(path)' + '\(component)'")
            }
        }
    }

    @Test func trimmingMatchesWhitespaceCharacterSet() {
        for text in ["", " ", " a ", "\ta b\t", "\u{00A0}x\u{2003}", "a\n", " \n", "x"] {
            #expect(text.trimmingWhitespace == text.trimmingCharacters(in: .whitespaces), "'\(text)'")
        }
    }

    @Test func calendarTimeMatchesDateFormatter() throws {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy:MM:dd HH:mm:ss.SSS xxx"
        for seconds in [0, 1_700_000_000.25, 951_782_400.999, 1_719_792_000.5, -86_400.125] {
            let date = Date(timeIntervalSince1970: seconds)
            for (zone, timeZone) in [(CalendarTime.Zone.utc, TimeZone(identifier: "UTC")!), (.offset(19_800), TimeZone(secondsFromGMT: 19_800)!),
                                     (.offset(-34_200), TimeZone(secondsFromGMT: -34_200)!), (.local, TimeZone.current)] {
                formatter.timeZone = timeZone
                let time = CalendarTime(date, in: zone)
                let text = time.exifDateTime + "." + String(printf: "%03ld", time.millisecond) + " " + time.exifOffset
                #expect(text == formatter.string(from: date), "\(seconds) in \(timeZone)")
                let back = try #require(time.date(in: zone)).timeIntervalSince1970
                #expect(back <= seconds + 1e-6 && back > seconds - 0.001, "\(seconds) back: \(back)")
            }
        }
    }

    @Test func exifTextParsesAsDateFormatterDid() throws {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy:MM:dd HH:mm:ss"
        for text in ["2023:11:14 22:13:20", "2000:02:29 00:00:00", "1999:12:31 23:59:59"] {
            #expect(CalendarTime(exif: text)?.date(in: .utc) == formatter.date(from: text), "\(text)")
            formatter.dateFormat = "yyyy:MM:dd HH:mm:ssxxx"
            #expect(CalendarTime(exif: text)?.date(in: try #require(CalendarTime.zone(exifOffset: "-03:30")))
                    == formatter.date(from: text + "-03:30"), "\(text) -03:30")
            formatter.dateFormat = "yyyy:MM:dd HH:mm:ss"
        }
        formatter.dateFormat = "yyyy:MM:dd"
        #expect(CalendarTime(exif: "2024:07:01")?.date(in: .utc) == formatter.date(from: "2024:07:01"))
        for bad in ["", "2023:13:01", "2023:02:30 00:00:00", "2023:11:14 24:00:00", "2023-11-14", "2023:11:14 22:13", "x"] {
            #expect(CalendarTime(exif: bad)?.date(in: .utc) == nil, "\(bad)")
        }
        for bad in ["   :  ", "+5:30", "05:30", "+05:3x"] { #expect(CalendarTime.zone(exifOffset: bad) == nil, "\(bad)") }
    }
}
