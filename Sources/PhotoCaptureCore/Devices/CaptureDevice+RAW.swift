import Imaging

extension CaptureDevice {
    /// The Bayer (RAW) formats the camera delivers, best first: the largest frame, then the
    /// most bits per sample, then the device's own order. What
    /// ``PhotoOutput/availableRawPhotoPixelFormatTypes`` lists.
    public var rawPixelFormats: [FramePixelFormat] {
        formats.enumerated().filter { $0.element.pixelFormat.isBayer }.sorted { a, b in
            let (sizeA, sizeB) = (a.element.sizes.largest.area, b.element.sizes.largest.area)
            if sizeA != sizeB { return sizeA > sizeB }
            let (bitsA, bitsB) = (a.element.pixelFormat.bitsPerSample, b.element.pixelFormat.bitsPerSample)
            if bitsA != bitsB { return bitsA > bitsB }
            return a.offset < b.offset
        }.map(\.element.pixelFormat)
    }

    /// The same camera with `calibration` (a colour profile for its sensor) instead of what it
    /// had, for the DNGs it writes.
    public func overridingRawCalibration(_ calibration: RawCalibration) -> CaptureDevice {
        replacing(rawCalibration: calibration)
    }

    /// This camera with another mounting or calibration; everything else stays.
    func replacing(sensorMounting: SensorMounting? = nil, rawCalibration: RawCalibration? = nil) -> CaptureDevice {
        CaptureDevice(uniqueID: uniqueID, localizedName: localizedName, kind: kind, formats: formats,
                      sensorMounting: sensorMounting ?? self.sensorMounting, hasFlash: hasFlash, location: location,
                      cropBounds: cropBounds, backendDetails: backendDetails,
                      rawCalibration: rawCalibration ?? self.rawCalibration, source: source, framing: framing)
    }
}
