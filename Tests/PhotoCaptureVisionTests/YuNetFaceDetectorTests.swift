import Foundation
import PhotoCaptureVision
import TestSupport
import Testing

/// YuNet (the model built into the library) on a real face against the box marked by hand, and
/// the default detector's fallback to the Haar cascade.
@Suite struct YuNetFaceDetectorTests {
    /// The model embedded (Sources/COpenCVFaces/yunet_model.S) is OpenCV's file as published,
    /// byte for byte: sha256sum's digest, against the one the model zoo's release names.
    @Test func theEmbeddedModelIsThePublishedFile() throws {
        let model = TestPaths.repository.appendingPathComponent("Sources/COpenCVFaces/Model/face_detection_yunet_2023mar.onnx").path
        let digest = try ExternalTool.run("sha256sum", [model]).checked().text.prefix(64)
        #expect(digest == "8f2383e4dd3cfbb4553ea8718107fc0423210dc964f9f4280604804ed2552fa4")
        #expect(try FileManager.default.attributesOfItem(atPath: model)[.size] as? Int == 232_589)
    }

    @Test func findsTheAstronautsFaceWhereMarkedWithItsLandmarks() throws {
        let detector = try YuNetFaceDetector()
        #expect(detector.detectorName == "YuNet")
        let marked = CascadeFaceDetectorTests.astronautFace
        for box in [PixelSize(width: 512, height: 512), PixelSize(width: 320, height: 240)] {
            let faces = try detector.detectFaces(in: try CascadeFaceDetectorTests.astronaut().downscaled(toFit: box))
            #expect(faces.count == 1, "at \(box): \(faces)")
            let face = try #require(faces.first)
            // Held to the Haar cascade's tolerance: every edge within 15% of the face size.
            #expect(CascadeFaceDetectorTests.matches(face.bounds, marked), "\(face.bounds) vs \(marked)")
            #expect(try #require(face.confidence) >= 0.6)
            let points = try #require(face.landmarks)
            #expect(points.all.allSatisfy { $0.isInside(marked) }, "\(points) outside \(marked)")
            // Her right eye is on the picture's left; eyes above the nose, the nose above the mouth.
            #expect(points.rightEye.x < points.noseTip.x && points.noseTip.x < points.leftEye.x, "\(points)")
            #expect(points.rightMouthCorner.x < points.leftMouthCorner.x, "\(points)")
            #expect(max(points.rightEye.y, points.leftEye.y) < points.noseTip.y, "\(points)")
            #expect(points.noseTip.y < min(points.rightMouthCorner.y, points.leftMouthCorner.y), "\(points)")
        }
    }

    @Test("every photo marked by hand, as it is: at least 98% of the faces, at most one false face in 10 photos")
    func everyMarkedPhoto() throws {
        let folder = TestPaths.testImages.appendingPathComponent("faces")
        let photos = try MarkedFaces.parse(try String(contentsOf: folder.appendingPathComponent("marked-faces.txt"), encoding: .utf8))
        #expect(photos.count >= 3)
        let detector = try YuNetFaceDetector()
        var (marked, missed, extra) = (0, 0, 0)
        for photo in photos {
            let image = try ReferenceDecoder.imageMagickStored(folder.appendingPathComponent(photo.file).path)
            let result = photo.compare(try detector.detectFaces(in: LumaPicture(image)).map(\.bounds), photoSize: image.size)
            #expect(result.missed.isEmpty && result.extra.isEmpty, "\(photo.file): missed \(result.missed), not faces \(result.extra)")
            (marked, missed, extra) = (marked + photo.boxes.count, missed + result.missed.count, extra + result.extra.count)
        }
        #expect(Double(marked - missed) >= 0.98 * Double(marked), "found \(marked - missed) of \(marked)")
        #expect(Double(extra) <= Double(photos.count) / 10, "\(extra) false faces in \(photos.count) photos")
    }

    @Test func findsNoFaceInAFlatPicture() throws {
        let flat = LumaPicture(size: PixelSize(width: 320, height: 240), pixels: [UInt8](repeating: 128, count: 320 * 240))
        #expect(try YuNetFaceDetector().detectFaces(in: flat).isEmpty)
    }

    @Test("the default detector is YuNet, and the metadata output reports it")
    func defaultIsYuNet() throws {
        let detector = try DefaultFaceDetector()
        #expect(detector.detectorName == "YuNet" && detector.yuNetFailure == nil)
        #expect(detector.detector is YuNetFaceDetector)
        #expect(try MetadataOutput().faceDetectorName == "YuNet")
    }

    @Test("a missing model file: a specific error, and the default detector falls back to Haar")
    func missingModelFallsBackToHaar() throws {
        let path = "/nonexistent/yunet.onnx"
        do {
            _ = try YuNetFaceDetector(model: .file(path: path))
            Issue.record("a missing model loaded")
        } catch {
            #expect(error == .modelUnreadable(path: path, message: "No such file or directory"))
        }
        let fallback = try DefaultFaceDetector(yuNetModel: .file(path: path))
        #expect(fallback.detectorName == "Haar alt2")
        #expect(fallback.detector is CascadeFaceDetector)
        #expect(fallback.yuNetFailure == .modelUnreadable(path: path, message: "No such file or directory"))
        // The fallback still finds the astronaut's face.
        let faces = try fallback.detectFaces(in: try CascadeFaceDetectorTests.astronaut())
        #expect(faces.count == 1 && faces.allSatisfy { CascadeFaceDetectorTests.matches($0.bounds, CascadeFaceDetectorTests.astronautFace) })
    }

    @Test("a malformed model file: a typed error naming it, and the default detector falls back to Haar",
          arguments: ["garbage", "cascade"])
    func malformedModel(kind: String) throws {
        let folder = try TestPaths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("model.onnx").path
        switch kind {
        case "garbage": try Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 37) }).write(to: URL(fileURLWithPath: path))
        default: try Data(contentsOf: URL(fileURLWithPath: CascadeFaceDetector.Model.haarFrontalFace.path)).write(to: URL(fileURLWithPath: path))
        }
        do {
            _ = try YuNetFaceDetector(model: .file(path: path))
            Issue.record("a malformed model loaded")
        } catch {
            guard case .modelUnreadable(let failed, let message) = error else { Issue.record("\(error)"); return }
            #expect(failed == path && !message.isEmpty)
        }
        let fallback = try DefaultFaceDetector(yuNetModel: .file(path: path))
        #expect(fallback.detectorName == "Haar alt2")
        guard case .modelUnreadable(path, _)? = fallback.yuNetFailure else { Issue.record("\(String(describing: fallback.yuNetFailure))"); return }
    }
}
