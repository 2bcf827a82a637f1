import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import Imaging

/// The synthetic camera's exposure model on pixels: ``SyntheticScene``'s sRGB values are the
/// scene's radiance at the metered exposure; `factor` more light multiplies the linear values,
/// which clip at white.
enum SyntheticExposure {
    /// `image` exposed `factor` times the metered exposure (1 returns it unchanged).
    static func expose(_ image: RGBImage, by factor: Double) -> RGBImage {
        guard factor != 1 else { return image }
        let table = (0..<256).map { UInt8(encode(min(1, decode(Double($0) / 255) * factor)) * 255 + 0.5) }
        var exposed = image
        table.withUnsafeBufferPointer { table in
            exposed.pixels.withUnsafeMutableBufferPointer { pixels in
                for index in pixels.indices { pixels[index] = table[Int(pixels[index])] }
            }
        }
        return exposed
    }

    /// The sRGB transfer function, encoded value → linear light (IEC 61966-2-1).
    static func decode(_ value: Double) -> Double {
        value <= 0.04045 ? value / 12.92 : pow((value + 0.055) / 1.055, 2.4)
    }

    /// Linear light → encoded value.
    static func encode(_ value: Double) -> Double {
        value <= 0.0031308 ? value * 12.92 : 1.055 * pow(value, 1 / 2.4) - 0.055
    }
}
