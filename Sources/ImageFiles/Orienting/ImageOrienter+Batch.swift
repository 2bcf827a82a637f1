import FoundationEssentials

extension ImageOrienter {
    /// One file of a batch: where it is read from and where its upright form goes (the same
    /// path to turn it in place).
    public struct BatchItem: Sendable, Equatable {
        /// The file to turn upright.
        public let source: String
        /// Where the result goes: `source` itself to replace it.
        public let target: String

        /// A file and where its upright form goes.
        public init(source: String, target: String) {
            (self.source, self.target) = (source, target)
        }

        /// A file and where its upright form goes, as `file:` URLs.
        public init(source: URL, target: URL) throws(ImageFileError) {
            (self.source, self.target) = (try source.filePath(), try target.filePath())
        }
    }

    /// How one file of a batch ended.
    public struct BatchOutcome: Sendable {
        /// The file.
        public let item: BatchItem
        /// Turned or already upright, or the error that refused it.
        public let result: Swift.Result<Outcome, ImageFileError>
    }

    /// Turns every file of `items` upright as ``orientFile(at:writingTo:overwrite:)-(String,String,_)`` does, up
    /// to `concurrency` files at once (by default one per core), so a folder of photos takes the
    /// time of its share on each core. A file that is refused (corrupt, RAW, an existing target)
    /// never stops the others. `progress` is called after each file with the number done so far,
    /// in the order files finish; the outcomes come back in the order of `items`.
    ///
    /// Memory stays bounded by `concurrency` files at a time, each within the pixel budget.
    public func orientFiles(_ items: [BatchItem], overwrite: Bool,
                            concurrency: Int = ProcessInfo.processInfo.activeProcessorCount,
                            progress: @Sendable (_ done: Int, _ outcome: BatchOutcome) -> Void = { _, _ in })
        async -> [BatchOutcome] {
        let width = max(1, concurrency)
        var outcomes = [BatchOutcome?](repeating: nil, count: items.count)
        await withTaskGroup(of: (Int, BatchOutcome).self) { group in
            var next = 0
            func start() {
                guard next < items.count else { return }
                let (index, item) = (next, items[next])
                next += 1
                group.addTask {
                    let result = Swift.Result { () throws(ImageFileError) in
                        try orientFile(at: item.source, writingTo: item.target, overwrite: overwrite)
                    }
                    return (index, BatchOutcome(item: item, result: result))
                }
            }
            for _ in 0..<width { start() }
            var done = 0
            for await (index, outcome) in group {
                outcomes[index] = outcome
                done += 1
                progress(done, outcome)
                start()
            }
        }
        return outcomes.map { $0! }
    }
}
