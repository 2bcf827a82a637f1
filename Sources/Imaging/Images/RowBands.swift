import CImagingKernels

/// The rows of a stored picture, read top to bottom, gathered into bands that a ``Turn`` sends
/// to the turned picture a band at a time: how a picture too large to hold twice is turned as
/// it is decoded, and compared with another as that one is decoded.
package struct RowBands {
    /// Rows per band: 64 rows of a 16384-pixel picture are 3 MB.
    package static let rowsPerBand = 64

    /// One band: stored rows `firstRow ..< firstRow + rows`, packed RGB.
    package struct Band {
        /// The first stored row.
        package let firstRow: Int
        /// How many rows.
        package let rows: Int
        /// The band's pixels, row after row.
        package let pixels: UnsafeBufferPointer<UInt8>
    }

    /// The stored picture's size.
    package let size: PixelSize
    private var pixels: [UInt8]
    private var firstRow = 0
    private var rows = 0

    /// Bands of a stored picture of `size`.
    package init(size: PixelSize) {
        self.size = size
        pixels = [UInt8](repeating: 0, count: size.width * 3 * min(size.height, Self.rowsPerBand))
    }

    /// Adds the next stored row (`size.width` RGB pixels); calls `complete` with each band
    /// when its last row is in (a short one at the end of the picture).
    package mutating func add(_ row: UnsafeBufferPointer<UInt8>, _ complete: (Band) -> Void) {
        precondition(row.count == size.width * 3 && firstRow + rows < size.height, "a row of \(row.count) bytes past \(size)")
        let rowBytes = size.width * 3
        pixels.withUnsafeMutableBufferPointer { band in
            (band.baseAddress! + rows * rowBytes).update(from: row.baseAddress!, count: rowBytes)
        }
        rows += 1
        guard rows == Self.rowsPerBand || firstRow + rows == size.height else { return }
        pixels.withUnsafeBufferPointer { complete(Band(firstRow: firstRow, rows: rows, pixels: $0)) }
        firstRow += rows
        rows = 0
    }

    /// Where an orientation sends the bands of a stored picture of `size`.
    package struct Turn {
        /// The stored picture's size.
        package let size: PixelSize
        /// The turn from the stored picture to the one the bands are placed in or compared with.
        package let orientation: Orientation
        private let map: (origin: Int, dx: Int, dy: Int)

        /// The turn `orientation` of a stored picture of `size`.
        package init(size: PixelSize, orientation: Orientation) {
            self.size = size
            self.orientation = orientation
            map = orientation.linearMap(of: size)
        }

        /// Writes `band`'s pixels where the turn sends them in `image` (the turned picture).
        package func place(_ band: Band, in image: inout RGBImage) {
            precondition(image.size == orientation.apply(to: size), "placing rows of \(size) in \(image.size)")
            image.pixels.withUnsafeMutableBufferPointer {
                pc_place_band($0.baseAddress, map.origin, map.dx, map.dy, band.firstRow, band.rows, size.width, band.pixels.baseAddress)
            }
        }

        /// Reads the pixels of `image` (the turned picture) where the turn sends `band`'s, laid out
        /// as the band is, into `output` (at least as large as the band).
        package func gather(_ band: Band, from image: RGBImage, into output: UnsafeMutableBufferPointer<UInt8>) {
            precondition(image.size == orientation.apply(to: size) && output.count >= band.rows * size.width * 3,
                         "reading rows of \(size) from \(image.size)")
            image.pixels.withUnsafeBufferPointer {
                pc_gather_band($0.baseAddress, map.origin, map.dx, map.dy, band.firstRow, band.rows, size.width, output.baseAddress)
            }
        }
    }
}
