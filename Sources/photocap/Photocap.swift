import ArgumentParser
import PhotocapCommands

/// `photocap`: every command; those that need OpenCV continue in photocap-vision (VisionSupport).
@main
extension PhotocapCommand {}
