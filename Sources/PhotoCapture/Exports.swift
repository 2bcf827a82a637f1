// The value types of the imaging layer (PixelSize, Orientation, FramePixelFormat, RGBImage...)
// are part of this module's API; re-export them so `import PhotoCapture` is enough.
@_exported import Imaging
// The file layer (orienting, decoding and writing image files) is part of the API too: an app
// that writes photos or turns a user's files needs no second import.
@_exported import ImageFiles
import V4L2

// The V4L2 layer's error types that ``PhotoCaptureError`` carries, nameable with
// `import PhotoCapture` alone (the codec layer's come with ImageFiles). Apart from the V4L2
// backend (Backends/V4L2/), this is the one file of the module that imports V4L2: the rest
// names V4L2Error through these aliases.
/// An error of the V4L2 layer, naming the device, the call and its errno.
public typealias V4L2Error = V4L2.V4L2Error
/// A V4L2 system call or ioctl, as ``V4L2Error`` names it.
public typealias V4L2Call = V4L2.V4L2Call
