import CImagingKernels

/// The three `pc_merge_plane`s of one merge, and the arrays they point into, kept alive and
/// unchanged while the bands run: read-only, hence `@unchecked Sendable`.
final class MergePlanes: @unchecked Sendable {
    private let images: [PlanarImage]
    private let pointers: [UnsafeMutablePointer<UnsafePointer<UInt8>?>]
    private let strides: [UnsafeMutablePointer<Int>]
    private let shifts: [UnsafeMutablePointer<Int32>]
    private let planes: UnsafeMutablePointer<pc_merge_plane>

    init(reference: PlanarImage, neighbours: [PlanarImage], translations: [(dx: Int, dy: Int)],
         output: PlanarImage, tilesY: Int) {
        images = [reference, output] + neighbours
        let count = max(1, neighbours.count)
        pointers = (0..<3).map { _ in .allocate(capacity: count) }
        strides = (0..<3).map { _ in .allocate(capacity: count) }
        // Per plane, x then y translations in half samples: luma's are even.
        shifts = (0..<6).map { _ in .allocate(capacity: count) }
        planes = .allocate(capacity: 3)
        for plane in 0..<3 {
            let scale = plane == 0 ? 2 : 1
            for (index, neighbour) in neighbours.enumerated() {
                pointers[plane][index] = UnsafePointer(neighbour.baseAddress(ofPlane: plane))
                strides[plane][index] = neighbour.stride(ofPlane: plane)
                shifts[2 * plane][index] = Int32(translations[index].dx * scale)
                shifts[2 * plane + 1][index] = Int32(translations[index].dy * scale)
            }
            let planeSize = reference.size(ofPlane: plane)
            planes[plane] = pc_merge_plane(
                reference: reference.baseAddress(ofPlane: plane), reference_stride: reference.stride(ofPlane: plane),
                neighbours: UnsafePointer(pointers[plane]), neighbour_strides: strides[plane],
                half_dx: shifts[2 * plane], half_dy: shifts[2 * plane + 1],
                width: Int32(planeSize.width), height: Int32(planeSize.height), tiles_y: Int32(tilesY),
                out: output.baseAddress(ofPlane: plane), out_stride: output.stride(ofPlane: plane))
        }
    }

    func withPlanes<T>(_ body: (UnsafePointer<pc_merge_plane>) -> T) -> T { body(planes) }

    deinit {
        pointers.forEach { $0.deallocate() }
        strides.forEach { $0.deallocate() }
        shifts.forEach { $0.deallocate() }
        planes.deallocate()
    }
}
