import Foundation
import PhotoCaptureVision
import TestSupport
import Testing

/// The OpenCV detector on real faces, against boxes marked by hand.
@Suite struct CascadeFaceDetectorTests {
    /// TestImages/faces/astronaut.png (public domain, NASA; see TestImages/README.md), grey.
    static func astronaut() throws -> LumaPicture {
        let file = TestPaths.testImages.appendingPathComponent("faces/astronaut.png").path
        return LumaPicture(try ReferenceDecoder.imageMagickStored(file))
    }

    /// Eileen Collins' face, marked by hand: hairline to chin, ear to ear (512x512 picture).
    static let astronautFace = NormalizedRect(PixelRect(x: 175, y: 70, size: PixelSize(width: 90, height: 90)),
                                              in: PixelSize(width: 512, height: 512))

    /// Whether `found` lies within `tolerance` of the face size from `marked` on every edge.
    static func matches(_ found: NormalizedRect, _ marked: NormalizedRect, tolerance: Double = 0.15) -> Bool {
        let (dx, dy) = (tolerance * marked.width, tolerance * marked.height)
        return abs(found.x - marked.x) <= dx && abs(found.maxX - marked.maxX) <= dx
            && abs(found.y - marked.y) <= dy && abs(found.maxY - marked.maxY) <= dy
    }

    @Test(arguments: [CascadeFaceDetector.Model.haarFrontalFace, .lbpFrontalFace])
    func findsTheAstronautsFaceWhereMarked(model: CascadeFaceDetector.Model) throws {
        // LBP is the fast choice: coarse scale steps (finer ones find a face on the helmet).
        let detector = model == .lbpFrontalFace ? try CascadeFaceDetector(model: model, minimumNeighbours: 3, scaleFactor: 1.1)
            : try CascadeFaceDetector(model: model)
        for box in [PixelSize(width: 512, height: 512), PixelSize(width: 320, height: 240)] {
            let faces = try detector.detectFaces(in: try Self.astronaut().downscaled(toFit: box)).map(\.bounds)
            #expect(faces.count == 1, "\(model.path) at \(box): \(faces)")
            if model == .haarFrontalFace {
                #expect(faces.allSatisfy { Self.matches($0, Self.astronautFace) }, "\(faces) vs \(Self.astronautFace)")
            } else {
                // LBP's boxes are drawn about 1.2 times larger around the same centre.
                let face = Self.astronautFace
                #expect(faces.allSatisfy { abs($0.midX - face.midX) <= 0.15 * face.width && abs($0.midY - face.midY) <= 0.15 * face.height
                        && abs($0.width / face.width - 1) <= 0.3 }, "\(faces) vs \(face)")
            }
        }
    }

    @Test func findsNoFaceInAFlatPicture() throws {
        let detector = try CascadeFaceDetector()
        let flat = LumaPicture(size: PixelSize(width: 320, height: 240), pixels: [UInt8](repeating: 128, count: 320 * 240))
        #expect(try detector.detectFaces(in: flat).isEmpty)
    }

    @Test func anUnreadableModelIsASpecificError() throws {
        let folder = try TestPaths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("not-a-cascade.xml").path
        try Data("<opencv_storage></opencv_storage>".utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: FaceDetectionError.self) { try CascadeFaceDetector(model: .init(path: path)) }
        do {
            _ = try CascadeFaceDetector(model: .init(path: "/nonexistent/cascade.xml"))
            Issue.record("a missing model loaded")
        } catch {
            guard case .modelUnreadable(let failed, let message) = error else { Issue.record("\(error)"); return }
            #expect(failed == "/nonexistent/cascade.xml")
            // Said by us before OpenCV is asked (it would log the failure to the app's stderr).
            #expect(message == "No such file or directory")
        }
    }
}
