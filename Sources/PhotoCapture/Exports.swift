// The value types of the imaging layer (PixelSize, Orientation, FramePixelFormat, RGBImage...)
// are part of this module's API; re-export them so `import PhotoCapture` is enough.
@_exported import Imaging
