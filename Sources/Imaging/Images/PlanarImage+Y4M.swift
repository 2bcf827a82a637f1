extension PlanarImage {
    /// The planes as a one-frame Y4M file (`C420jpeg`, full range): what heif-enc reads raw, so
    /// the benchmark and the tests can give it exactly the planes the encoder gets.
    package func y4mBytes() -> [UInt8] {
        Array("YUV4MPEG2 W\(size.width) H\(size.height) F1:1 Ip A1:1 C420jpeg XCOLORRANGE=FULL\nFRAME\n".utf8)
            + packedPlane(0) + packedPlane(1) + packedPlane(2)
    }
}
