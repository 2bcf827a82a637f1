extension PlanarImage {
    /// The planes as a one-frame Y4M file (`C420jpeg`, full range): what heif-enc reads raw, so
    /// the benchmark and the tests can give it exactly the planes the encoder gets.
    package func y4mBytes() -> [UInt8] {
        var bytes = Array("YUV4MPEG2 W\(size.width) H\(size.height) F1:1 Ip A1:1 C420jpeg XCOLORRANGE=FULL\nFRAME\n".utf8)
        bytes.reserveCapacity(bytes.count + size.area + 2 * chromaSize.area)
        for plane in 0..<3 {
            let planeSize = self.size(ofPlane: plane)
            for row in 0..<planeSize.height {
                bytes.append(contentsOf: UnsafeBufferPointer(start: baseAddress(ofPlane: plane) + row * stride(ofPlane: plane),
                                                             count: planeSize.width))
            }
        }
        return bytes
    }
}
