// Faces and framings are expressed in PhotoCapture's types (AspectRatio, Orientation, PixelSize):
// re-export them so `import PhotoCaptureVision` is enough.
@_exported import PhotoCapture
