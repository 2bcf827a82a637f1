import Foundation
import Imaging
import PhotoCapture

extension BenchmarkCommand {
    /// The live session's own costs: the pump per frame with no consumer, one 640x480 I420
    /// video-data frame, and request -> frame in hand with and without zero shutter lag.
    func compareLive(frameFile: String) async throws {
        print("live session: \(size) YUYV frame file, medians of \(liveRounds) one-second rounds")
        // A frame-file camera at 1 000 000 fps, beyond the loop's reach: the pump runs flat out,
        // so a frame's time is the loop's own cost (the frame shares the file's bytes; nothing
        // is copied). A result of 0.001 ms would mean the camera, not the loop, set the pace.
        var loopCosts: [Double] = []
        var videoCosts: [Double] = []
        for _ in 0..<liveRounds {
            let device = try CaptureDevice.frameFile(path: frameFile, format: .yuyv, size: size, mounting: .upright,
                                                     framesPerSecond: 1_000_000)
            let (session, _) = try await running(device)
            let before = await device.streamStatistics().framesStreamed
            try await Task.sleep(for: .seconds(1))
            let after = await device.streamStatistics().framesStreamed
            loopCosts.append(1000 / Double(max(1, after - before)))

            // A video data output converting every frame it can: its conversions in a second.
            let video = VideoDataOutput()
            video.videoPixelFormat = .i420
            video.maximumDimensions = PixelSize(width: 640, height: 480)
            try session.addOutput(video)
            let frames = video.frames()
            let counted = Task { () -> Int in
                var count = 0
                let end = Date().addingTimeInterval(1.5)
                for await _ in frames {
                    count += 1
                    if Date() >= end { break }
                }
                return count
            }
            try await Task.sleep(for: .milliseconds(500))  // the first frames warm the converter
            let start = video.deliveredFrameCount
            try await Task.sleep(for: .seconds(1))
            videoCosts.append(1000 / Double(max(1, video.deliveredFrameCount - start)))
            await session.stopRunning()
            _ = await counted.value
        }
        print("  " + "live loop per frame, no consumer (target <= 0.5 ms)".padded(to: 62)
              + String(format: " %8.3f ms", loopCosts.median))
        print("  " + "video data frame: \(size) YUYV -> 640x480 I420".padded(to: 62) + String(format: " %8.3f ms", videoCosts.median))

        // Request -> frame in hand on the synthetic camera at 30 fps, 20 photos a random part
        // of a frame apart, with and without zero shutter lag.
        var inHand: [Bool: Double] = [:]
        for zeroShutterLag in [false, true] {
            let camera = CaptureDevice.synthetic(.init(maximumSize: PixelSize(width: 640, height: 480), framesPerSecond: 30))
            let (session, output) = try await running(camera)
            output.isZeroShutterLagEnabled = zeroShutterLag
            var settings = PhotoSettings(format: .uncompressed)
            _ = try await output.capturePhoto(with: settings)  // the stream at the photo's size
            var delays: [Double] = []
            for index in 0..<20 {
                try await Task.sleep(for: .milliseconds(10 + (index * 7) % 40))
                settings = PhotoSettings(format: .uncompressed)
                let photo = try await output.capturePhoto(with: settings)
                delays.append(Double(photo.frameDelivery.requestToDeliveryNanoseconds) / 1e6)
            }
            await session.stopRunning()
            inHand[zeroShutterLag] = delays.median
        }
        let (without, with) = (inHand[false] ?? 0, inHand[true] ?? 0)
        print("  " + "request -> frame in hand, synthetic 30 fps, first frame after".padded(to: 62)
              + String(format: " %8.2f ms", without))
        print("  " + "request -> frame in hand, synthetic 30 fps, zero shutter lag".padded(to: 62)
              + String(format: " %8.2f ms  %5.2fx", with, with / max(without, 0.001)))
    }
}
