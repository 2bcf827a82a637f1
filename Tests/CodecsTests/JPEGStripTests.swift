import Codecs
import Foundation
import Imaging
import Testing
import TestSupport

@Suite("Strip-parallel JPEG encoding")
struct JPEGStripTests {
    /// A picture with detail everywhere (gradients, a checker of varying period and noise), so
    /// every strip's entropy-coded data is long and the DC values change across strip edges.
    static func textured(_ size: PixelSize) -> RGBImage {
        var rgb = [UInt8](repeating: 0, count: size.area * 3)
        var seed: UInt32 = 0x1234_5678
        for y in 0..<size.height {
            for x in 0..<size.width {
                seed = seed &* 1_664_525 &+ 1_013_904_223
                let noise = Int(seed >> 27)
                let checker = ((x / (3 + y / 40)) + (y / 7)) % 2 == 0 ? 60 : 0
                let index = (y * size.width + x) * 3
                rgb[index] = UInt8(clamping: (x * 255) / max(size.width - 1, 1) / 2 + checker + noise)
                rgb[index + 1] = UInt8(clamping: (y * 255) / max(size.height - 1, 1) / 2 + noise * 2)
                rgb[index + 2] = UInt8(clamping: 200 - checker + (x ^ y) % 40)
            }
        }
        return RGBImage(size: size, pixels: rgb)
    }

    /// The second bytes of the RST markers in the entropy-coded data, in order, and the DRI interval.
    static func restarts(in jpeg: [UInt8]) -> (markers: [UInt8], interval: Int?) {
        var markers: [UInt8] = [], interval: Int?
        for index in 0..<(jpeg.count - 5) where jpeg[index] == 0xFF {
            if (0xD0...0xD7).contains(jpeg[index + 1]) { markers.append(jpeg[index + 1]) }
            if jpeg[index + 1] == 0xDD, interval == nil, jpeg[index + 2] == 0, jpeg[index + 3] == 4 {
                interval = Int(jpeg[index + 4]) << 8 | Int(jpeg[index + 5])
            }
        }
        return (markers, interval)
    }

    @Test("strips decode to exactly the single-threaded encode's pixels (djpeg, ImageMagick), EXIF and thumbnail intact, exiftool -validate clean",
          arguments: [(PixelSize(width: 512, height: 384), 2, 2),      // multiples of the 16×16 MCU
                      (PixelSize(width: 1001, height: 733), 2, 2),     // neither side a multiple
                      (PixelSize(width: 1001, height: 733), 12, 12),   // RST0…RST7 wrap round
                      (PixelSize(width: 322, height: 97), 4, 4)])      // the last strip one pixel row high
    func stripsMatchSingleEncode(size: PixelSize, strips: Int, expectedStrips: Int) throws {
        let image = try Self.textured(size).planarImage()
        let encoder = try JPEGEncoder()
        let single = try encoder.encode(image, quality: 90)
        let parallel = [UInt8](try encoder.encodeInStrips(image, quality: 90, strips: strips))
        #expect(parallel != single)

        // Restart markers in sequence and an interval of whole MCU rows.
        let (markers, interval) = Self.restarts(in: parallel)
        #expect(markers == (0..<(expectedStrips - 1)).map { 0xD0 + UInt8($0 % 8) })
        let mcuRows = (size.height + 15) / 16, mcusPerRow = (size.width + 15) / 16
        #expect(interval == (mcuRows + expectedStrips - 1) / expectedStrips * mcusPerRow)
        #expect(Self.restarts(in: single).markers.isEmpty)

        // EXIF with a thumbnail, as the pipeline writes it.
        let thumbnail = try encoder.encode(try Self.textured(PixelSize(width: 160, height: 120)).planarImage(), quality: 80)
        var metadata = EXIFMetadata(orientation: .up)
        metadata.make = "photocap"
        metadata.pixelSize = size
        let block = try EXIFBuilder.tiffBlock(for: metadata, thumbnailJPEG: thumbnail)
        let folder = try TemporaryDirectory("jpeg-strips")
        let singlePath = try folder.write(try JPEGFile.insertingEXIF(block, into: single), named: "single.jpg")
        let parallelFile = try JPEGFile.insertingEXIF(block, into: parallel)
        let parallelPath = try folder.write(parallelFile, named: "parallel.jpg")

        // Same quality and subsampling: the same coefficients, so identical pixels (tolerance 0).
        let djpegSingle = try ReferenceDecoder.djpeg(singlePath), djpegParallel = try ReferenceDecoder.djpeg(parallelPath)
        #expect(djpegParallel.size == size)
        #expect(djpegParallel == djpegSingle)
        let magickSingle = try ReferenceDecoder.imageMagickStored(singlePath)
        let magickParallel = try ReferenceDecoder.imageMagickStored(parallelPath)
        #expect(magickParallel.size == size)
        #expect(magickParallel == magickSingle)
        // And our own decoder (libjpeg-turbo again, through TurboJPEG) agrees.
        #expect(RGBImage(try JPEGDecoder().decodeRGB(parallelFile)) == RGBImage(try JPEGDecoder().decodeRGB(single)))

        #expect(try JPEGFile.exifBlock(in: parallelFile) == block)
        let extracted = try ExternalTool.run("exiftool", ["-b", "-ThumbnailImage", parallelPath]).checked().stdout
        #expect([UInt8](extracted) == thumbnail)
        #expect(try ExternalTool.exiftoolValidationProblems(parallelPath) == [])
    }

    @Test("an image of one MCU row per strip or less is encoded once, byte for byte as encode does")
    func smallImageIsOneEncode() throws {
        let image = try Self.textured(PixelSize(width: 300, height: 16)).planarImage()
        let encoder = try JPEGEncoder()
        #expect(try [UInt8](encoder.encodeInStrips(image, quality: 85, strips: 2)) == encoder.encode(image, quality: 85))
    }

    @Test("an odd side is encoded from the planes' samples alone: the bytes past them never reach the JPEG",
          arguments: [PixelSize(width: 101, height: 75), PixelSize(width: 101, height: 76), PixelSize(width: 100, height: 75)])
    func bytesPastAnOddSideAreNotRead(size: PixelSize) throws {
        let source = try Self.textured(size).planarImage()
        /// A copy of `source` whose bytes past each plane's samples (each row's stride padding,
        /// and what follows the last row) are all `filler`.
        func copy(padding filler: UInt8) throws -> PlanarImage {
            let image = try PlanarImage(size: size)
            for plane in 0..<3 {
                let stride = image.stride(ofPlane: plane), rows = image.size(ofPlane: plane).height
                image.baseAddress(ofPlane: plane).update(repeating: filler, count: stride * rows)
                for row in 0..<rows {
                    (image.baseAddress(ofPlane: plane) + row * stride)
                        .update(from: source.baseAddress(ofPlane: plane) + row * stride, count: image.size(ofPlane: plane).width)
                }
            }
            return image
        }
        let (zeros, ones) = (try copy(padding: 0x00), try copy(padding: 0xFF))
        let encoder = try JPEGEncoder()
        // Compared as flags: a failure printing two JPEGs byte by byte takes minutes.
        let whole = try encoder.encode(zeros, quality: 90) == encoder.encode(ones, quality: 90)
        #expect(whole)
        let strips = try encoder.encodeInStrips(zeros, quality: 90, strips: 2) == encoder.encodeInStrips(ones, quality: 90, strips: 2)
        #expect(strips)
    }

    @Test("strips whose rows are prepared band by band just before they are encoded (libjpeg raw data) are byte for byte TurboJPEG's strips",
          arguments: [(PixelSize(width: 512, height: 384), 90, 2, 64),     // multiples of the 16×16 MCU
                      (PixelSize(width: 1001, height: 733), 90, 3, 40),    // neither side a multiple: padded edges
                      (PixelSize(width: 322, height: 97), 97, 4, 16),      // the slow exact DCT, a last strip one row high
                      (PixelSize(width: 250, height: 200), 30, 1, 512)])   // one strip, one band
    func preparedBandsMatchTurboJPEG(size: PixelSize, quality: Int, strips: Int, band: Int) throws {
        let source = try Self.textured(size).planarImage()
        let encoder = try JPEGEncoder()
        let expected = try encoder.encodeInStrips(source, quality: quality, strips: strips)
        // Starts out different everywhere: a row read before it is prepared shows.
        let image = try PlanarImage(size: size)
        for plane in 0..<3 {
            image.baseAddress(ofPlane: plane).update(repeating: 0x5A, count: image.stride(ofPlane: plane) * image.size(ofPlane: plane).height)
        }
        var prepared: [Range<Int>] = [], preparedBeforeAlongside = 0
        let lock = NSLock()
        let jpeg = try encoder.encodeInStrips(image, quality: quality, strips: strips, bandHeight: band, preparing: { rows in
            lock.withLock { prepared.append(rows) }
            for plane in 0..<3 {
                let (first, last) = plane == 0 ? (rows.lowerBound, rows.upperBound) : (rows.lowerBound / 2, (rows.upperBound + 1) / 2)
                let stride = image.stride(ofPlane: plane)
                (image.baseAddress(ofPlane: plane) + first * stride)
                    .update(from: source.baseAddress(ofPlane: plane) + first * stride, count: (last - first) * stride)
            }
        }, alongside: { preparedBeforeAlongside = lock.withLock { prepared.map(\.count).reduce(0, +) } })
        // Compared as a flag: a failure printing two JPEGs byte by byte takes minutes.
        let identical = jpeg == expected
        #expect(identical, "\(jpeg.count) bytes against TurboJPEG's \(expected.count)")
        #expect(prepared.sorted { $0.lowerBound < $1.lowerBound }.reduce(0) { $1.lowerBound == $0 ? $1.upperBound : -1 } == size.height)
        #expect(prepared.allSatisfy { $0.count <= max(16, band & ~15) && $0.lowerBound % 16 == 0 })
        #expect(preparedBeforeAlongside == size.height)
    }
}
