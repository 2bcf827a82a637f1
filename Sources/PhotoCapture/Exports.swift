// The umbrella: an app imports PhotoCapture and gets the backend-neutral core (which re-exports
// the imaging and file layers) and the backends photocap ships with, as one module.
@_exported import PhotoCaptureCore
@_exported import PhotoCaptureLibcamera
@_exported import PhotoCaptureV4L2
