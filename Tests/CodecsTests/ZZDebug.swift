import Codecs
import Foundation
import Testing
@Test func zzDebugDump() throws {
    try Data(HEICTests.heic(.right)).write(to: URL(fileURLWithPath: "/tmp/codecs-scratch/o6.heic"))
    try Data(HEICTests.heic(.up)).write(to: URL(fileURLWithPath: "/tmp/codecs-scratch/o1.heic"))
    try Data(JPEGTests.jpegWithEXIF().jpeg).write(to: URL(fileURLWithPath: "/tmp/codecs-scratch/e.jpg"))
    try Data(TIFFTests.tiff(.right)).write(to: URL(fileURLWithPath: "/tmp/codecs-scratch/o6.tif"))
}
