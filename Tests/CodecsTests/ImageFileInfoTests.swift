import Codecs
import Foundation
import Imaging
import Testing
import TestSupport

@Suite("Format sniffing")
struct ImageFileInfoTests {
    @Test("a JPEG without EXIF is a JPEG with orientation up and no EXIF")
    func plainJPEG() throws {
        let jpeg = try JPEGEncoder().encode(try TestImage.planarQuadrants(PixelSize(width: 48, height: 32)), quality: 80)
        let info = try ImageFileInfo(data: jpeg)
        #expect(info.format == .jpeg)
        #expect(info.storedSize == PixelSize(width: 48, height: 32))
        #expect(info.orientation == .up && info.exifOrientation == nil)
        #expect(info.thumbnailSize == nil && info.exif.isEmpty)
    }

    @Test("a truncated JPEG throws truncated at its length, or corruptFile when cut in the headers")
    func truncatedJPEG() throws {
        let (jpeg, _) = try JPEGTests.jpegWithEXIF()
        let cut = Array(jpeg.dropLast(100))  // inside the entropy-coded data
        #expect {
            _ = try ImageFileInfo(data: cut)
        } throws: { error in
            guard case CodecError.truncated(format: "JPEG", let bytes) = error else { return false }
            return bytes == cut.count && "\(error)".contains("truncated at byte \(cut.count)")
        }
        // Cut inside the headers, before the image data.
        #expect {
            _ = try ImageFileInfo(data: Array(jpeg.prefix(300)))
        } throws: { error in
            guard case CodecError.corruptFile(format: "JPEG", let reason) = error else { return false }
            return reason.contains("runs past the end of the file: the file is truncated at byte 300")
        }
    }

    @Test("random bytes throw unsupportedFormat naming the magic bytes")
    func randomBytes() throws {
        var generator = SystemRandomNumberGenerator()
        var bytes = (0..<4096).map { _ in UInt8.random(in: 0...255, using: &generator) }
        bytes[0] = 0x42  // never a JPEG, TIFF or ftyp start
        #expect {
            _ = try ImageFileInfo(data: bytes)
        } throws: { error in
            guard case CodecError.unsupportedFormat(let reason) = error else { return false }
            return reason.contains("unknown magic bytes")
        }
        #expect(throws: CodecError.self) { _ = try ImageFileInfo(data: []) }
    }

    @Test("an AVIF is recognised and refused as not HEIC",
          .needsThirdPartyImages)
    func avifIsNotHEIC() throws {
        let file = try #require(try ThirdPartyImages.bytes("pillow-avif-rot-mir/rot0mir0.avif"))
        #expect {
            _ = try ImageFileInfo(data: file)
        } throws: { error in
            guard case CodecError.unsupportedFormat(let reason) = error else { return false }
            return reason.hasPrefix("AVIF")
        }
    }

    @Test("the error descriptions are one readable line")
    func descriptions() {
        let error = CodecError.turboJPEG(function: "tjCompressFromYUVPlanes", message: "boom")
        #expect(error.description == "TurboJPEG tjCompressFromYUVPlanes failed: boom")
        #expect(CodecError.corruptFile(format: "JPEG", reason: "x").description == "corrupt JPEG file: x")
    }
}
