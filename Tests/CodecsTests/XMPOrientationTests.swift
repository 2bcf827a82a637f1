import Codecs
import Testing

/// XMP's tiff:Orientation in both RDF spellings, as Adobe and ExifTool write it.
struct XMPOrientationTests {
    @Test func attributeFormIsSetToOne() {
        let packet = #"<rdf:Description rdf:about="" xmlns:tiff="http://ns.adobe.com/tiff/1.0/" tiff:Orientation="6" tiff:Make="x"/>"#
        #expect(XMPOrientation.upright(packet) == #"<rdf:Description rdf:about="" xmlns:tiff="http://ns.adobe.com/tiff/1.0/" tiff:Orientation="1" tiff:Make="x"/>"#)
        #expect(XMPOrientation.upright("<x tiff:Orientation = '8'/>") == "<x tiff:Orientation='1'/>")
    }

    @Test func elementFormIsSetToOne() {
        #expect(XMPOrientation.upright("<a><tiff:Orientation>3</tiff:Orientation></a>") == "<a><tiff:Orientation>1</tiff:Orientation></a>")
        #expect(XMPOrientation.upright("<a><tiff:Orientation>\n 7 \n</tiff:Orientation></a>") == "<a><tiff:Orientation>1</tiff:Orientation></a>")
    }

    @Test func packetWithoutOrientationIsLeftAlone() {
        #expect(XMPOrientation.upright(#"<x exif:PixelXDimension="6" tiff:Make="Orientation"/>"#) == nil)
    }
}
