/// A width and height in pixels.
public struct PixelSize: Hashable, Sendable, CustomStringConvertible {
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int

    /// Creates a size from a width and a height in pixels.
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// The size with width and height exchanged, as after a quarter turn.
    public var transposed: PixelSize { PixelSize(width: height, height: width) }

    /// The number of pixels.
    public var area: Int { width * height }

    /// Whether both dimensions are positive.
    public var isEmpty: Bool { width <= 0 || height <= 0 }

    /// `WIDTHxHEIGHT`, the notation the command line uses.
    public var description: String { "\(width)x\(height)" }

    /// Parses `WIDTHxHEIGHT` (for example `1920x1080`); nil when malformed or not positive.
    public init?(parsing text: String) {
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]),
              width > 0, height > 0 else { return nil }
        self.init(width: width, height: height)
    }

    /// The largest size with this size's aspect ratio that fits inside `box`, never larger than
    /// this size and at least one pixel in each dimension.
    public func aspectFit(within box: PixelSize) -> PixelSize {
        guard !isEmpty, !box.isEmpty else { return PixelSize(width: 0, height: 0) }
        if width <= box.width && height <= box.height { return self }
        // Compare the ratios in integers to stay exact.
        if width * box.height >= height * box.width {
            let fittedHeight = max(1, (height * box.width + width / 2) / width)
            return PixelSize(width: box.width, height: min(fittedHeight, box.height))
        } else {
            let fittedWidth = max(1, (width * box.height + height / 2) / height)
            return PixelSize(width: min(fittedWidth, box.width), height: box.height)
        }
    }
}

/// A rectangle of pixels, origin at the top-left corner.
public struct PixelRect: Hashable, Sendable, CustomStringConvertible {
    /// Left edge.
    public var x: Int
    /// Top edge.
    public var y: Int
    /// Width and height.
    public var size: PixelSize

    /// Creates a rectangle from its top-left corner and size.
    public init(x: Int, y: Int, size: PixelSize) {
        self.x = x
        self.y = y
        self.size = size
    }

    /// The rectangle covering a whole image of `size`.
    public init(covering size: PixelSize) {
        self.init(x: 0, y: 0, size: size)
    }

    /// `WxH+X+Y`, ImageMagick's geometry notation.
    public var description: String { "\(size)+\(x)+\(y)" }
}
