// swift-tools-version: 6.1
import PackageDescription

/// A C library found through pkg-config and installed from Debian.
func systemLibrary(_ name: String, pkgConfig: String?, apt: String) -> Target {
    .systemLibrary(name: name, pkgConfig: pkgConfig, providers: [.apt([apt])])
}

let package = Package(
    name: "photocap",
    products: [
        .library(name: "PhotoCapture", targets: ["PhotoCapture"]),
        // Turning, checking and decoding existing image files, for apps that take no photos:
        // no libv4l2, no live session.
        .library(name: "ImageFiles", targets: ["ImageFiles"]),
        // Golden-image tests for apps that use PhotoCapture: no test framework inside.
        .library(name: "PhotoCaptureTesting", targets: ["PhotoCaptureTesting"]),
        // Faces and smart framing: a product of its own so photo-only clients never link OpenCV.
        .library(name: "PhotoCaptureVision", targets: ["PhotoCaptureVision"]),
        .executable(name: "photocap", targets: ["photocap"]),
        .executable(name: "photocap-vision", targets: ["photocap-vision"]),
        .executable(name: "photocap-serve", targets: ["photocap-serve"]),
        .executable(name: "photocap-benchmark", targets: ["photocap-benchmark"]),
        // The libcamera shim, which photocap and PhotoCapture load at run time from beside the
        // executable (or the library path); built only where libcamera-dev is installed.
        .library(name: "photocap-libcamera", type: .dynamic, targets: ["CLibcameraShim"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
    ],
    targets: [
        // C libraries, one seam each.
        systemLibrary("CTurboJPEG", pkgConfig: "libturbojpeg", apt: "libturbojpeg0-dev"),
        systemLibrary("CExif", pkgConfig: "libexif", apt: "libexif-dev"),
        systemLibrary("CYUV", pkgConfig: nil, apt: "libyuv-dev"),
        .target(name: "CImagingKernels"),
        // Loading a library with dlopen on first use instead of linking it (for the seams below
        // that do: what a linked library costs at start-up is paid by every run).
        .target(name: "CLibraryLoading"),
        // libheif (libheif-dev), loaded when HEIF is first read or written.
        .target(name: "CHeif", dependencies: ["CLibraryLoading"]),
        // libtiff (libtiff-dev), loaded when TIFF or DNG is first read or written.
        .target(name: "CTIFF", dependencies: ["CLibraryLoading"]),
        // LibRaw's thread-safe build (libraw-dev's libraw_r), loaded when RAW data is first read.
        .target(name: "CRaw", dependencies: ["CLibraryLoading"]),
        // libpng (libpng-dev): whole pictures, and rows one at a time (its errors jump, in C).
        .target(name: "CPNG", linkerSettings: [.linkedLibrary("png16")]),
        // libjpeg's coefficient API (libjpeg-turbo's libjpeg.so): lossless turns in strips.
        .target(name: "CJPEGCoefficients", linkerSettings: [.linkedLibrary("jpeg")]),
        // libv4l2 and the VIDIOC_* ioctls (function-like macros Swift cannot call).
        .target(name: "CV4L2", linkerSettings: [.linkedLibrary("v4l2")]),
        // glibc's extended-attribute calls (sys/xattr.h), which the Glibc module lacks.
        .target(name: "CFileAttributes"),
        // libxml2, loaded when an XMP packet is first checked.
        .target(name: "CXML", dependencies: ["CLibraryLoading"]),
        // libsystemd's sd-bus, loaded when a rotation coordinator first asks iio-sensor-proxy.
        .target(name: "CSensorProxy", dependencies: ["CLibraryLoading"]),
        // OpenCV's face cascades (libopencv-objdetect-dev) and YuNet, a CNN face detector whose
        // model is built in, run by OpenCV's dnn module (libopencv-dnn-dev); linked by name.
        // Debian installs the headers under /usr/include/opencv4, which no safe setting names:
        // OpenCVHeaders/opencv2 links to them, a search path inside the package. (opencv4.pc would
        // find them, but SwiftPM links every module it lists: 55 libraries, Qt, VTK, MPI and GDAL
        // with them, in photocap-vision and in every app that uses PhotoCaptureVision.)
        .target(
            name: "COpenCVFaces",
            // Model/ holds the YuNet model, which yunet_model.S embeds (.incbin finds it on the
            // header search path).
            exclude: ["OpenCVHeaders", "Model"],
            cSettings: [.headerSearchPath("Model")],
            cxxSettings: [.headerSearchPath("OpenCVHeaders")],
            linkerSettings: [.linkedLibrary("opencv_objdetect"), .linkedLibrary("opencv_dnn"), .linkedLibrary("opencv_imgproc"),
                             .linkedLibrary("opencv_core")]
        ),
        // libcamera (libcamera-dev), the cameras of media-controller pipelines (Raspberry Pi,
        // Rockchip, i.MX, IPU), behind C: its API is C++. CLibcamera is the C interface and its
        // loader (dlopen, as CHeif's); CLibcameraShim implements it over libcamera and is built
        // as a shared library of its own, the photocap-libcamera product, so nothing else links
        // libcamera: a client that only uses V4L2 builds and runs without it
        // (Docs.docc/Cameras.md). Its headers are found as OpenCV's are
        // (LibcameraHeaders links to /usr/include/libcamera).
        .target(name: "CLibcamera", dependencies: ["CLibraryLoading"]),
        .target(
            name: "CLibcameraShim",
            exclude: ["LibcameraHeaders"],
            cxxSettings: [.headerSearchPath("LibcameraHeaders"),
                          .headerSearchPath("../COpenCVFaces")],
            linkerSettings: [.linkedLibrary("camera"), .linkedLibrary("camera-base")]
        ),

        // Layers.
        .target(name: "Imaging", dependencies: ["CYUV", "CImagingKernels"]),
        .target(name: "Codecs", dependencies: ["Imaging", "CTurboJPEG", "CJPEGCoefficients", "CHeif", "CExif", "CTIFF", "CRaw", "CPNG", "CXML"]),
        .target(name: "V4L2", dependencies: ["Imaging", "CV4L2"]),
        .target(name: "ImageFiles", dependencies: ["Imaging", "Codecs", "CFileAttributes"]),
        // The backend-neutral core: sessions, outputs, settings, processing, the cameras made of
        // files and of nothing (synthetic, frame file, clip) and the seam a backend plugs into.
        // It cannot import V4L2: that is another target's dependency, not its own.
        .target(
            name: "PhotoCaptureCore",
            dependencies: ["Imaging", "Codecs", "ImageFiles", "CSensorProxy", .product(name: "Logging", package: "swift-log")]
        ),
        // One target per real backend, each a client of the core's package seam.
        .target(
            name: "PhotoCaptureV4L2",
            dependencies: ["PhotoCaptureCore", "Imaging", "ImageFiles", "V4L2", .product(name: "Logging", package: "swift-log")]
        ),
        // libcamera's cameras (media-controller pipelines), through the shim loaded at run time.
        .target(
            name: "PhotoCaptureLibcamera",
            dependencies: ["PhotoCaptureCore", "Imaging", "ImageFiles", "CLibcamera"]
        ),
        // The umbrella: re-exports the core and the backends, and lists the backends' cameras in
        // discovery, so `import PhotoCapture` gives an app everything it gave before the split.
        .target(name: "PhotoCapture", dependencies: ["PhotoCaptureCore", "PhotoCaptureV4L2", "PhotoCaptureLibcamera", "Imaging", "ImageFiles"]),
        .target(name: "PhotoCaptureTesting", dependencies: ["PhotoCapture", "Imaging"]),
        .target(name: "PhotoCaptureVision", dependencies: ["PhotoCapture", "Imaging", "COpenCVFaces"]),
        // The CLI's commands, shared by its two executables.
        .target(
            name: "PhotocapCommands",
            dependencies: [
                // A thin caller of the public API; as the app, it chooses where the library's
                // swift-log messages go.
                "PhotoCapture", "PhotoCaptureTesting",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // photocap does not link OpenCV (~7 ms of dynamic linking at every start): the commands
        // that need faces continue in photocap-vision, run from beside it. (Not a dependency of
        // photocap: SwiftPM would add OpenCV's libraries to photocap's link even so.)
        .executableTarget(
            name: "photocap",
            dependencies: ["PhotocapCommands", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            linkerSettings: staticSwiftRuntime
        ),
        .executableTarget(
            name: "photocap-vision",
            dependencies: ["PhotocapCommands", "PhotoCaptureVision", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            linkerSettings: staticSwiftRuntime
        ),
        // `photocap serve`: the HTTP server, its routes and the capture coordinator, as a library so
        // its tests run it in process. Hummingbird and SwiftNIO stay out of photocap and out of the
        // library products: `photocap serve` continues in photocap-serve as the face commands do
        // in photocap-vision. It links PhotoCaptureVision (OpenCV) for the faces and the framing
        // drawn over the viewfinder: photocap-serve is an executable of its own, so photocap does not.
        .target(
            name: "PhotocapServer",
            dependencies: [
                "PhotocapCommands", "PhotoCapture", "PhotoCaptureTesting", "PhotoCaptureVision",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]
        ),
        // Linked against the dynamic Swift runtime even in release: Hummingbird brings the whole
        // Foundation (with ICU), which the static link of `staticSwiftRuntime` leaves out, and a
        // server starts once.
        .executableTarget(
            name: "photocap-serve",
            dependencies: ["PhotocapServer", "PhotocapCommands"]
        ),
        // The performance tester, apart from the product; it runs the photocap built beside it.
        .executableTarget(
            name: "photocap-benchmark",
            dependencies: [
                "PhotoCapture", "PhotoCaptureVision", "Imaging", "CImagingKernels", "Codecs", "photocap", "photocap-vision",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),

        // Tests; TestSupport runs and reads the third-party tools that judge our files.
        .target(name: "TestSupport", dependencies: ["Imaging"], path: "Tests/TestSupport"),
        // A V4L2 camera in memory, for the fault paths the real driver cannot produce on demand:
        // a test double, so no product contains it (as swift-nio keeps NIOEmbedded apart).
        .target(name: "V4L2Testing", dependencies: ["V4L2", "CV4L2"], path: "Tests/V4L2Testing"),
        // Lists libcamera's cameras and captures one frame through CLibcamera (run-vimc-vm.sh).
        .executableTarget(name: "clibcamera-probe", dependencies: ["CLibcamera", "CLibcameraShim"], path: "Tests/CLibcameraProbe"),
        .testTarget(name: "ImagingTests", dependencies: ["Imaging", "CImagingKernels", "TestSupport"]),
        .testTarget(name: "V4L2Tests", dependencies: ["V4L2", "Imaging"]),
        .testTarget(name: "CodecsTests", dependencies: ["Codecs", "Imaging", "TestSupport"]),
        .testTarget(name: "ImageFilesTests", dependencies: ["ImageFiles", "Codecs", "Imaging", "TestSupport"]),
        .testTarget(name: "PhotoCaptureTests", dependencies: ["PhotoCapture", "PhotoCaptureCore", "PhotoCaptureV4L2", "PhotoCaptureTesting", "Codecs", "Imaging", "V4L2", "V4L2Testing", "TestSupport"]),
        // The libcamera backend's mappings (formats, listings, errors), without a camera.
        .testTarget(name: "PhotoCaptureLibcameraTests", dependencies: ["PhotoCaptureLibcamera", "PhotoCaptureCore", "CLibcamera", "Imaging"]),
        .testTarget(name: "PhotoCaptureTestingTests", dependencies: ["PhotoCaptureTesting", "PhotoCapture", "Codecs", "Imaging", "TestSupport"]),
        .testTarget(name: "PhotoCaptureVisionTests", dependencies: ["PhotoCaptureVision", "PhotoCapture", "Imaging", "TestSupport"]),
        .testTarget(name: "photocapTests", dependencies: ["photocap", "photocap-vision", "PhotocapCommands", "PhotoCapture", "PhotoCaptureVision", "Codecs", "Imaging", "TestSupport"],
                    exclude: ["HelpSnapshots"]),
        .testTarget(name: "PhotocapServerTests", dependencies: [
            "PhotocapServer", "PhotocapCommands", "PhotoCapture", "PhotoCaptureTesting", "TestSupport",
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "HTTPTypes", package: "swift-http-types"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        ]),
    ],
    swiftLanguageModes: [.v6]
)

/// The command-line tools link the Swift runtime and Foundation statically in release builds: the
/// dynamic loader then binds no Swift library at start, about 3 ms off every process. The two
/// libraries named are the parts of FoundationEssentials that its shared library holds inside
/// but its static one leaves to the link (what `--static-swift-stdlib` adds, without compiling
/// every module again for static linking). lld links them: gold warns about glibc's `mktemp`,
/// which the static Foundation references. Debug builds, which the tests link together with the
/// commands' modules, stay dynamic. Unsafe flags are allowed here: SwiftPM refuses them in a
/// dependency pinned by version only in the targets of the products a client uses, and no
/// library product contains an executable. `PHOTOCAP_DYNAMIC_RUNTIME=1` keeps them dynamic, for the
/// sanitizer builds of `.ci/sanitize`: `-static-stdlib` links with `--exclude-libs ALL`, which hides
/// the sanitizer's own `malloc` and `free` from the C libraries, so memory one side allocates the
/// other would free with the wrong allocator.
var staticSwiftRuntime: [LinkerSetting] {
    guard Context.environment["PHOTOCAP_DYNAMIC_RUNTIME"] == nil else { return [] }
    return [.unsafeFlags(["-static-stdlib", "-l_FoundationCollections", "-l_FoundationCShims", "-use-ld=lld"], .when(configuration: .release))]
}
