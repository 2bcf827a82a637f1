extension CaptureDevice {
    /// The synthetic camera's simulated lens: its focus controls and where the subject is sharp.
    ///
    /// The lens has positions 0...1023 in steps of 1 (as a V4L2 `focus_absolute` control). The
    /// subject stands at the distance that ``inFocusLensPosition`` brings into focus; at any
    /// other position the picture is blurred in proportion to the distance between the two, so
    /// sharpness peaks at the in-focus position and falls off on both sides.
    public struct SyntheticLensConfiguration: Sendable, Equatable {
        /// The lens position at which the subject is sharp: the subject's distance.
        public var inFocusLensPosition: Int
        /// nil: the lens starts in continuous autofocus, with the subject sharp (the default, so
        /// the synthetic camera shows ``SyntheticScene`` exactly); a position: it starts locked there.
        public var initialLensPosition: Int?
        /// Frames an autofocus scan takes, one-shot or continuous autofocus catching up after
        /// it is switched on.
        public var autoFocusFrames: Int
        /// Whether a scan finds the subject; false makes it fail and leave the lens where it
        /// was (a flat or dark scene).
        public var autoFocusFindsSubject: Bool
        /// Frames between setting a lens position and the first frame exposed with it.
        public var controlDelayFrames: Int

        /// A lens focused on a subject at position 600, starting in continuous autofocus; scans
        /// take 6 frames and find the subject; manual moves take 2 frames.
        public init(inFocusLensPosition: Int = 600, initialLensPosition: Int? = nil, autoFocusFrames: Int = 6,
                    autoFocusFindsSubject: Bool = true, controlDelayFrames: Int = 2) {
            self.inFocusLensPosition = inFocusLensPosition
            self.initialLensPosition = initialLensPosition
            self.autoFocusFrames = max(1, autoFocusFrames)
            self.autoFocusFindsSubject = autoFocusFindsSubject
            self.controlDelayFrames = max(0, controlDelayFrames)
        }
    }
}
