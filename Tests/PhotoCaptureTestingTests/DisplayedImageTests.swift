import Foundation
import Imaging
import PhotoCaptureTesting
import Testing

@Test func debugTurn() throws {
    let golden = try DisplayedImage(fileAt: "/work/wt-testing/TestImages/third-party/recurser-exif-orientation-examples/Landscape_1.jpg").picture
    let actual = try DisplayedImage(fileAt: "/tmp/cmp/m.jpg").picture
    let scale = 18
    let smallSize = PixelSize(width: golden.size.width / scale, height: golden.size.height / scale)
    let small = try golden.scaled(to: smallSize)
    for candidate in Orientation.allCases where candidate.apply(to: golden.size) == actual.size {
        let turned = small.transformed(by: candidate)
        let actualSmall = try actual.scaled(to: turned.size)
        print(candidate, turned.meanAbsoluteDifference(to: actualSmall), actual.transformed(by: candidate).meanAbsoluteDifference(to: golden))
    }
}
