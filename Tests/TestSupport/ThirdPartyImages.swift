import Foundation

/// The third-party reference images (files from other projects' test suites, such as Pillow's
/// and recurser's orientation examples): the repository's `TestImages/third-party` when present,
/// else the `../shared/TestImages/third-party` next to the checkout.
///
/// The set is optional: tests that need it should be enabled only when ``folder`` is not nil,
/// with ``absentMessage`` as the reason, e.g.
/// `.enabled(if: ThirdPartyImages.folder != nil, Comment(rawValue: ThirdPartyImages.absentMessage))`.
public enum ThirdPartyImages {
    /// The folders looked in, in order.
    public static let candidates = [
        TestPaths.testImages.appendingPathComponent("third-party"),
        TestPaths.repository.appendingPathComponent("../shared/TestImages/third-party").standardized,
    ]

    /// The first of ``candidates`` that exists; nil when the set is absent.
    public static var folder: URL? {
        candidates.first { FileManager.default.fileExists(atPath: $0.path) }
    }

    /// The bytes of `path` (relative to ``folder``); nil when the set is absent, an error when
    /// the set is present but the file cannot be read.
    public static func bytes(_ path: String) throws -> [UInt8]? {
        guard let folder else { return nil }
        return [UInt8](try Data(contentsOf: folder.appendingPathComponent(path)))
    }

    /// Why a test that needs the set did not run.
    public static let absentMessage =
        "third-party test images not found in TestImages/third-party or ../shared/TestImages/third-party"
}
