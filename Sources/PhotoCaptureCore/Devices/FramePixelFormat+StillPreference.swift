import Imaging

extension FramePixelFormat {
    /// Lower is preferred for processed stills among formats of equal size.
    package var stillPreference: Int {
        switch self {
        case .nv12, .nv21, .i420, .yv12: return 0
        case .yuyv, .uyvy: return 1
        case .rgb24, .bgr24, .xbgr32, .rgbx32, .xrgb32, .bgrx32: return 2
        case .mjpeg: return 3
        case .grey: return 4
        default: return 5  // Bayer: a demosaic in the pass
        }
    }
}
