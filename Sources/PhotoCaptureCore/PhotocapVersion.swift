// Named after the package, not the module: the compiler's symbol graphs leave out every
// symbol whose name begins with the module's name and "Version", so DocC could not document
// a `PhotoCaptureVersion`.
/// The version of the photocap package that this library was built from.
///
/// This constant is the one place the version is written: `photocap --version` prints it, the
/// newest released section of `CHANGELOG.md` names it, and a release is tagged with it, so an
/// app can report which photocap it runs.
public enum PhotocapVersion {
    /// The version as `major.minor.patch` (semantic versioning: before 1.0.0, a minor version
    /// may break the API; CHANGELOG.md says where it does).
    public static let current = "0.3.0"
}
