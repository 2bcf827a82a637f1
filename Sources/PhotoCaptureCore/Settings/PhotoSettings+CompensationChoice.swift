extension PhotoSettings {
    /// Which ``OrientationCompensation`` one request uses: the output's, or a mode of its own.
    ///
    /// Not an optional mode: with `OrientationCompensation?`, `.none` would read as "no
    /// compensation" but mean `nil`, the output's default. Here `.none` does not compile.
    public enum CompensationChoice: Hashable, Sendable {
        /// ``PhotoOutput/orientationCompensation`` as it is when the request is resolved. The
        /// default.
        case outputDefault
        /// This mode, whatever the output's.
        case mode(OrientationCompensation)

        /// Not a choice: declared so that `.none` is a compile-time error that names the two
        /// meanings it might have had.
        @available(*, unavailable, message: "use .mode(.off) for no compensation, or .outputDefault for the output's mode")
        public static var none: CompensationChoice { .outputDefault }

        /// The mode this choice gives when the output's mode is `outputMode`.
        func resolved(outputMode: OrientationCompensation) -> OrientationCompensation {
            switch self {
            case .outputDefault: outputMode
            case .mode(let mode): mode
            }
        }
    }
}
