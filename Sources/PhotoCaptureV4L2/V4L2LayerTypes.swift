import V4L2

// The V4L2 layer's error types, which ``DeviceError/underlying`` holds for a V4L2 camera,
// nameable with `import PhotoCapture` alone (the umbrella re-exports this module), without the
// rest of the V4L2 layer's API.
/// An error of the V4L2 layer, naming the device, the call and its errno.
public typealias V4L2Error = V4L2.V4L2Error
/// A V4L2 system call or ioctl, as ``V4L2Error`` names it.
public typealias V4L2Call = V4L2.V4L2Call
