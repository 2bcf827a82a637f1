import ArgumentParser
import Foundation
import PhotoCapture

/// `photocap devices`: the cameras photocap can use.
struct DevicesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "devices", abstract: "List cameras with their formats and sensor mounting.")

    @Flag(help: "Print JSON.")
    var json = false

    struct Entry: Encodable {
        struct Format: Encodable { let pixelFormat: String; let sizes: String }
        let id: String
        let name: String
        let kind: String
        let sensorRotation: Int
        let sensorMirrored: Bool
        let formats: [Format]
    }

    func run() async throws {
        let entries = CaptureDevice.discoverDevices().map { device in
            Entry(id: device.uniqueID, name: device.localizedName, kind: device.kind.rawValue,
                  sensorRotation: device.sensorMounting.rotation, sensorMirrored: device.sensorMounting.isMirrored,
                  formats: device.formats.map { .init(pixelFormat: $0.pixelFormat.fourCC, sizes: $0.sizes.description) })
        }
        if json {
            print(try jsonText(entries, pretty: true))
            return
        }
        for entry in entries {
            print("\(entry.id): \(entry.name) [\(entry.kind)]")
            print("  sensor: rotation \(entry.sensorRotation)°\(entry.sensorMirrored ? ", mirrored" : "")")
            for format in entry.formats {
                print("  \(format.pixelFormat): \(format.sizes)")
            }
        }
    }
}
