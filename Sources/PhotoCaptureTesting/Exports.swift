// The testing API speaks PhotoCapture's types (RGBImage, PixelSize, DecodedImage, CodecError,
// Orientation): re-export them so `import PhotoCaptureTesting` is enough in a test file, as
// `import PhotoCaptureVision` is for faces.
@_exported import PhotoCapture
