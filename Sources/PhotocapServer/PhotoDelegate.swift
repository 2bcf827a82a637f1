import FoundationEssentials
import PhotoCapture
import PhotocapCommands

/// Receives one request's callbacks: publishes each as an event, writes each photo into the
/// photo folder (atomically: a stopped server leaves no half-written file) and records it.
actor PhotoDelegate: PhotoCaptureDelegate {
    private let store: PhotoStore
    private let events: Broadcast<String>
    private let received: ContinuousClock.Instant
    private let namePrefix: String
    private let device: String
    /// The photos written, in delivery order.
    private(set) var records: [PhotoRecord] = []
    /// When the shutter moment came, after the request arrived.
    private(set) var shutter: Duration?
    /// The request's failure, if any.
    private(set) var failure: String?
    private var isFinished = false
    private var waiter: CheckedContinuation<Void, Never>?

    /// A delegate naming files `namePrefix` + uniqueID, for a request that arrived at `received`.
    init(store: PhotoStore, events: Broadcast<String>, received: ContinuousClock.Instant, namePrefix: String, device: String) {
        self.store = store
        self.events = events
        self.received = received
        self.namePrefix = namePrefix
        self.device = device
    }

    private func publish(_ type: String, _ uniqueID: Int64, photoID: String? = nil, error: String? = nil) {
        events.publish(CaptureEvent(type, uniqueID: uniqueID, elapsed: .now - received, photoID: photoID, error: error))
    }

    func photoOutput(_ output: PhotoOutput, willBeginCaptureFor resolvedSettings: ResolvedPhotoSettings) async {
        publish("willBeginCapture", resolvedSettings.uniqueID)
    }

    func photoOutput(_ output: PhotoOutput, willCapturePhotoFor resolvedSettings: ResolvedPhotoSettings) async {
        shutter = .now - received
        publish("willCapturePhoto", resolvedSettings.uniqueID)
    }

    func photoOutput(_ output: PhotoOutput, didCapturePhotoFor resolvedSettings: ResolvedPhotoSettings) async {
        publish("didCapturePhoto", resolvedSettings.uniqueID)
    }

    func photoOutput(_ output: PhotoOutput, didFinishProcessingPhoto photo: CapturePhoto, error: (any Error)?) async {
        let uniqueID = photo.resolvedSettings.uniqueID
        if let error {
            publish("didFinishProcessingPhoto", uniqueID, error: "\(error)")
            return
        }
        // RAW + processed and brackets deliver several photos: each gets its number.
        let format = photo.isRawPhoto ? "dng" : photo.resolvedSettings.format.rawValue
        let fileExtension = photo.isRawPhoto ? "dng" : photo.resolvedSettings.format.fileExtension ?? "bin"
        let name = "\(namePrefix)\(uniqueID)" + (photo.photoCount > 1 ? "-\(photo.sequenceCount)" : "") + "." + fileExtension
        do {
            try photo.write(to: store.path(forNew: name))
            let report = try servedPhotoReport(photo, name: name, device: device)
            let bytes = photo.fileDataRepresentation()?.count ?? 0
            let record = PhotoRecord(id: name, uniqueID: uniqueID, format: format, byteCount: bytes, report: report)
            store.add(record)
            records.append(record)
            publish("didFinishProcessingPhoto", uniqueID, photoID: name)
        } catch {
            failure = failure ?? "\(error)"
            publish("didFinishProcessingPhoto", uniqueID, error: "\(error)")
        }
    }

    func photoOutput(_ output: PhotoOutput, didFinishCaptureFor resolvedSettings: ResolvedPhotoSettings, error: (any Error)?) async {
        if let error { failure = failure ?? "\(error)" }
        publish("didFinishCapture", resolvedSettings.uniqueID, error: error.map { "\($0)" })
        isFinished = true
        waiter?.resume()
        waiter = nil
    }

    /// Returns once the request is over (the output calls `didFinishCapture` exactly once for
    /// every accepted request).
    func finished() async {
        guard !isFinished else { return }
        await withCheckedContinuation { waiter = $0 }
    }
}
