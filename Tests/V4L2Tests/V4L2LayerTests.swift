import Glibc
import Imaging
import Testing
import V4L2

/// The parts of the V4L2 layer that need no device; the device itself is exercised against the
/// kernel's vivid driver in the VM harness (Tests/V4L2Integration).
@Suite struct V4L2LayerTests {
    /// The CSI-2 packed Bayer codes of linux/videodev2.h (V4L2_PIX_FMT_SRGGB10P… and
    /// …12P), computed by hand, map to the packed frame formats in V4L2 format negotiation.
    @Test func csi2PackedBayerCodesMapToTheirFormats() {
        let codes: [(UInt32, FramePixelFormat)] = [
            (0x4141_5270, .srggb10p), (0x4141_6770, .sgrbg10p), (0x4141_4770, .sgbrg10p), (0x4141_4270, .sbggr10p),
            (0x4343_5270, .srggb12p), (0x4343_6770, .sgrbg12p), (0x4343_4770, .sgbrg12p), (0x4343_4270, .sbggr12p),
        ]
        for (code, format) in codes {
            #expect(FramePixelFormat(fourCC: FourCC(rawValue: code)) == format, "\(FourCC(rawValue: code))")
            #expect(format.v4l2FourCC.rawValue == code)
        }
    }

    @Test func fourCCsMatchTheKernelsCodes() {
        // Values of v4l2_fourcc() from linux/videodev2.h, computed by hand: a | b<<8 | c<<16 | d<<24.
        #expect(FourCC("YUYV")?.rawValue == 0x5659_5559)
        #expect(FourCC("BA81")?.rawValue == 0x3138_4142)
        #expect(FourCC("Y16")?.rawValue == 0x2036_3159)  // padded with a space
        #expect(FourCC("Y16")?.description == "Y16")
        #expect(FourCC("TOOLONG") == nil)
        #expect(FourCC("") == nil)
    }

    @Test(arguments: FramePixelFormat.allCases)
    func everyFrameFormatRoundTripsThroughItsCode(_ format: FramePixelFormat) {
        #expect(FramePixelFormat(fourCC: format.v4l2FourCC) == format)
    }

    @Test func unknownCodesAreNotFrameFormats() {
        #expect(FramePixelFormat(fourCC: FourCC("H264")!) == nil)
        #expect(FramePixelFormat(fourCC: FourCC("pBAA")!) == .sbggr10p)  // packed 10-bit Bayer (MIPI CSI-2)
        #expect(FramePixelFormat(fourCC: FourCC("pBEE")!) == nil)  // 14-bit packed (SBGGR14P): not read
    }

    @Test func controlKeysAreWhatV4L2CtlPrints() {
        func key(_ name: String) -> String { V4L2Control.key(forName: name) }
        #expect(key("Gain") == "gain")
        #expect(key("Sensor Flipped Horizontally") == "sensor_flipped_horizontally")
        #expect(key("Percentage of Dropped Buffers") == "percentage_of_dropped_buffers")
        #expect(key("Inject VIDIOC_STREAMON Error") == "inject_vidioc_streamon_error")
        #expect(key("White Balance, Automatic") == "white_balance_automatic")
    }

    @Test func exposureControlIDsAndModesMatchTheKernelHeader() {
        // From linux/v4l2-controls.h: V4L2_CID_BASE 0x00980900, V4L2_CID_CAMERA_CLASS_BASE 0x009a0900.
        #expect(V4L2ControlID.gain == 0x0098_0913)
        #expect(V4L2ControlID.autoGain == 0x0098_0912)
        #expect(V4L2ControlID.exposureAuto == 0x009a_0901)
        #expect(V4L2ControlID.exposureAbsolute == 0x009a_0902)
        #expect(V4L2ControlID.autoExposureBias == 0x009a_0913)
        #expect(V4L2ControlID.analogueGain == 0x009e_0903)
        #expect(V4L2ExposureMode.allCases.map(\.rawValue) == [0, 1, 2, 3])
        #expect(V4L2ExposureMode.manual.rawValue == 1)
    }

    @Test func errorsKnowDisconnectsBusyAndPermission() {
        #expect(V4L2Error.callFailed(device: "/dev/video0", call: .dequeueBuffer, errno: .operationNotSupportedByDevice).isDeviceGone)
        #expect(V4L2Error.callFailed(device: "/dev/video0", call: .setFormat, errno: .resourceBusy).isBusy)
        #expect(V4L2Error.callFailed(device: "/dev/video0", call: .open, errno: .permissionDenied).isPermissionDenied)
        let text = V4L2Error.callFailed(device: "/dev/video0", call: .streamOn, errno: .invalidArgument).description
        #expect(text == "/dev/video0: VIDIOC_STREAMON failed: Invalid argument (errno 22)")
    }

    /// The named errno values are the C library's, and calls print under the kernel's names.
    @Test func errnoAndCallNames() {
        #expect(Errno.operationNotSupportedByDevice.rawValue == ENODEV && Errno.resourceBusy.rawValue == EBUSY)
        #expect(Errno.ioError.rawValue == EIO && Errno.resourceTemporarilyUnavailable.rawValue == EAGAIN)
        #expect(Errno.operationNotSupportedByDevice.description == "No such device (errno \(ENODEV))")
        // swift-system's names for ENXIO too, and an Errno is an Error of its own.
        #expect(Errno.noSuchAddressOrDevice.rawValue == ENXIO)
        #expect(V4L2Error.callFailed(device: "/dev/video0", call: .dequeueBuffer, errno: .noSuchAddressOrDevice).isDeviceGone)
        let thrown: any Error = Errno.ioError
        #expect(thrown as? Errno == .ioError)
        #expect(Errno.ioError.message == String(cString: strerror(EIO)))
        #expect(V4L2Call.dequeueBuffer.description == "VIDIOC_DQBUF")
        #expect(V4L2Call.allCases.filter { $0.rawValue.hasPrefix("VIDIOC_") }.count == V4L2Call.allCases.count - 4)
        #expect(Set(V4L2Call.allCases.map(\.rawValue)).count == V4L2Call.allCases.count)
    }

    @Test func openingSomethingThatIsNotACameraSaysSo() {
        #expect(throws: V4L2Error.notACaptureDevice(device: "/dev/null")) { try V4L2Device(path: "/dev/null") }
        #expect(throws: V4L2Error.callFailed(device: "/dev/no-such-camera", call: .open, errno: .noSuchFileOrDirectory)) {
            try V4L2Device(path: "/dev/no-such-camera")
        }
    }
}
