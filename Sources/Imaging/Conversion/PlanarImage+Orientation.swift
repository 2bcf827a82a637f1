extension PlanarImage {
    /// The image with `orientation` applied to its planes, as a viewer shows a file that carries
    /// that orientation: quarter and half turns by ``rotate(rows:quarterTurns:into:x:y:kernel:)``,
    /// mirrors as a top-bottom flip of rows. Planes are moved, never converted, so the result is
    /// in the same Y'CbCr coding as this image (whatever its matrix and range). `self` when the
    /// orientation is `.up`; otherwise one new image (no other full-size buffer).
    package func transformed(by orientation: Orientation) throws(ImagingError) -> PlanarImage {
        guard orientation != .up else { return self }
        // orientation = a clockwise turn, then (when mirrored) a top-bottom flip.
        let turns = (0..<4).first {
            let turn = Orientation(mirrored: false, clockwiseQuarterTurns: $0)
            return (orientation.isMirrored ? turn.followed(by: .downMirrored) : turn) == orientation
        }!
        let output = try PlanarImage(size: orientation.apply(to: size))
        if turns == 0 {
            copyFlipped(into: output)
            return output
        }
        try rotate(rows: size.height, quarterTurns: turns, into: output, x: 0, y: 0)
        if orientation.isMirrored { output.flipInPlace() }
        return output
    }

    /// Copies the `rect` block (its corner at even coordinates) into `output` with its corner at
    /// (`x`, `y`), both even; where `rect` reaches past this image's right or bottom edge, the
    /// last column and row are repeated (how an encoder pads a tile that the picture does not fill).
    package func copyBlock(_ rect: PixelRect, into output: PlanarImage, x: Int, y: Int) throws(ImagingError) {
        guard rect.x >= 0, rect.y >= 0, rect.x % 2 == 0, rect.y % 2 == 0, rect.x < size.width, rect.y < size.height,
              x >= 0, y >= 0, x % 2 == 0, y % 2 == 0, !rect.size.isEmpty,
              x + rect.size.width <= output.size.width, y + rect.size.height <= output.size.height
        else { throw .invalidSize(rect.size) }
        for plane in 0..<3 {
            let scale = plane == 0 ? 1 : 2
            let available = self.size(ofPlane: plane)
            let (left, top) = (rect.x / scale, rect.y / scale)
            let width = (rect.size.width + scale - 1) / scale, height = (rect.size.height + scale - 1) / scale
            let copied = min(width, available.width - left)
            let (source, target) = (baseAddress(ofPlane: plane), output.baseAddress(ofPlane: plane))
            let (sourceStride, targetStride) = (stride(ofPlane: plane), output.stride(ofPlane: plane))
            for row in 0..<height {
                let from = source + min(top + row, available.height - 1) * sourceStride + left
                let to = target + (y / scale + row) * targetStride + x / scale
                to.update(from: from, count: copied)
                if copied < width { (to + copied).update(repeating: from[copied - 1], count: width - copied) }
            }
        }
    }

    /// This image's rows in reverse order into `output`, of the same size.
    private func copyFlipped(into output: PlanarImage) {
        for plane in 0..<3 {
            let planeSize = size(ofPlane: plane)
            let (source, target) = (baseAddress(ofPlane: plane), output.baseAddress(ofPlane: plane))
            for row in 0..<planeSize.height {
                (target + (planeSize.height - 1 - row) * output.stride(ofPlane: plane))
                    .update(from: source + row * stride(ofPlane: plane), count: planeSize.width)
            }
        }
    }

    /// Reverses the order of the rows, in place; only for an image not yet shared.
    private func flipInPlace() {
        for plane in 0..<3 {
            let planeSize = size(ofPlane: plane)
            let (base, stride) = (baseAddress(ofPlane: plane), stride(ofPlane: plane))
            let spare = UnsafeMutablePointer<UInt8>.allocate(capacity: planeSize.width)
            defer { spare.deallocate() }
            for row in 0..<(planeSize.height / 2) {
                let (top, bottom) = (base + row * stride, base + (planeSize.height - 1 - row) * stride)
                spare.update(from: top, count: planeSize.width)
                top.update(from: bottom, count: planeSize.width)
                bottom.update(from: spare, count: planeSize.width)
            }
        }
    }
}
