import FoundationEssentials
import HTTPTypes
import Hummingbird
import PhotoCapture
import PhotoCaptureTesting
import PhotocapCommands

/// The routes of `photocap serve`: the page, the OpenAPI document and the API.
package enum PhotoServer {
    /// Bounds on what a client may ask of the server.
    package struct Limits: Sendable {
        /// Largest request body, in bytes.
        package var maxBodyBytes = 16 * 1024
        /// Event streams open at once.
        package var maxViewers = 8

        /// The defaults.
        package init() {}
    }

    /// The router serving `coordinator`'s camera and photos to the clients `access` admits.
    package static func router(coordinator: CaptureCoordinator, access: AccessPolicy<BasicRequestContext>, limits: Limits)
        -> Router<BasicRequestContext> {
        let router = Router(context: BasicRequestContext.self)
        router.add(middleware: access)

        router.get("/") { _, _ in text(PageDocument.html, type: "text/html; charset=utf-8") }
        router.get("/openapi.json") { _, _ in text(OpenAPIDocument.json, type: "application/json") }
        router.get("/api/status") { _, _ in
            json(try jsonText(await coordinator.status))
        }
        addPhotoRoutes(to: router, coordinator: coordinator, limits: limits)
        addCameraRoutes(to: router, coordinator: coordinator, limits: limits)
        return router
    }

    /// The shutter and the gallery: taking a photo, listing, fetching, showing and deleting the
    /// photos taken.
    private static func addPhotoRoutes(to router: Router<BasicRequestContext>, coordinator: CaptureCoordinator, limits: Limits) {
        let store = coordinator.store
        router.get("/api/photos") { _, _ in
            json("{\"photos\":[" + store.all.map(\.json).joined(separator: ",") + "]}")
        }
        router.post("/api/photos") { request, _ in
            let received = ContinuousClock.now
            let body = try await collectBody(of: request, limits: limits)
            let photoRequest: PhotoRequest
            do throws(SettingsRefusal) {
                photoRequest = try PhotoRequest(json: body)
            } catch {
                throw ServerError(.badRequest, error.message)
            }
            let outcome = try await coordinator.take(photoRequest, received: received)
            guard let first = outcome.photos.first else {
                throw ServerError(.internalServerError, outcome.failure ?? "the capture ended without a photo")
            }
            var fields = "{\"uniqueID\":\(outcome.uniqueID),\"url\":\"/api/photos/\(first.id)\""
            fields += ",\"shutterMs\":\(outcome.shutter.map(milliseconds) ?? 0),\"totalMs\":\(milliseconds(outcome.total))"
            if let failure = outcome.failure { fields += ",\"error\":" + (try jsonText(failure)) }
            fields += ",\"photos\":[" + outcome.photos.map(\.json).joined(separator: ",") + "]}"
            var response = json(fields, status: .created)
            response.headers[.location] = "/api/photos/\(first.id)"
            return response
        }
        router.get("/api/photos/:id") { _, context in
            json(try photo(context, in: store).record.json)
        }
        router.get("/api/photos/:id/file") { _, context in
            let (record, path) = try photo(context, in: store)
            var response = try file(path, type: mediaType(record.format))
            response.headers[.contentDisposition] = "attachment; filename=\"\(record.id)\""
            return response
        }
        router.get("/api/photos/:id/display") { _, context in
            let (record, path) = try photo(context, in: store)
            // A browser turns a JPEG by its EXIF orientation, as a viewer does; the other
            // formats it cannot show are decoded and turned here.
            if record.format == "jpeg" { return try file(path, type: "image/jpeg") }
            do {
                let shown = try DisplayedImage(fileAt: path)
                return Response(status: .ok, headers: [.contentType: "image/png"],
                                body: .init(byteBuffer: ByteBuffer(bytes: try ImageEncoder.pngData(shown.image))))
            } catch {
                throw ServerError(.unsupportedMediaType, "\(record.id) cannot be shown: \(error)")
            }
        }
        router.delete("/api/photos/:id") { _, context in
            let id = try context.parameters.require("id")
            guard store.delete(id) else { throw ServerError(.notFound, "no photo '\(id)'") }
            return Response(status: .noContent)
        }
    }

    /// What the camera sees now: the viewfinder's newest frame, the faces and framing found in
    /// it, the auto-framing switch and the event stream.
    private static func addCameraRoutes(to router: Router<BasicRequestContext>, coordinator: CaptureCoordinator, limits: Limits) {
        router.get("/api/viewfinder") { _, _ in
            guard let (sequence, fieldOfView, png) = try coordinator.viewfinder.newestPNG() else {
                throw ServerError(.serviceUnavailable, "no frame yet")
            }
            return Response(status: .ok, headers: [.contentType: "image/png", .cacheControl: "no-store",
                                                   HTTPField.Name("X-Frame-Sequence")!: "\(sequence)",
                                                   HTTPField.Name("X-Field-Of-View")!: AnalysisReport.Box(fieldOfView).header],
                            body: .init(byteBuffer: ByteBuffer(bytes: png)))
        }
        router.get("/api/analysis") { request, _ in
            let asked = request.uri.queryParameters
            return json(try jsonText(coordinator.analysis.report(faces: asked["faces"] == "1", framing: asked["framing"] == "1")))
        }
        router.put("/api/auto-framing") { request, _ in
            let body = try await collectBody(of: request, limits: limits)
            let enabled: Bool
            do throws(SettingsRefusal) {
                enabled = try AutoFramingRequest(json: body).enabled
            } catch {
                throw ServerError(.badRequest, error.message)
            }
            return json(try jsonText(try coordinator.analysis.setAutoFraming(enabled)))
        }
        router.get("/api/events") { _, _ in
            guard coordinator.events.streamCount < limits.maxViewers else {
                throw ServerError(.serviceUnavailable, "\(limits.maxViewers) viewers are connected already")
            }
            guard let (id, events) = coordinator.events.subscribe() else {
                throw ServerError(.serviceUnavailable, "the server is stopping")
            }
            let body = ResponseBody { writer in
                defer { coordinator.events.close(id) }
                try await writer.write(ByteBuffer(string: ": events of photocap serve\n\n"))
                for await line in events {
                    // An empty line is the keep-alive: it finds a viewer that has gone.
                    try await writer.write(ByteBuffer(string: line.isEmpty ? ":\n\n" : "data: \(line)\n\n"))
                }
                try await writer.finish(nil)
            }
            return Response(status: .ok, headers: [.contentType: "text/event-stream", .cacheControl: "no-store"], body: body)
        }
    }

    /// The request's body, at most `limits.maxBodyBytes` (a 413 beyond).
    static func collectBody(of request: Request, limits: Limits) async throws -> [UInt8] {
        var request = request
        if let length = request.headers[.contentLength].flatMap(Int.init), length > limits.maxBodyBytes {
            throw ServerError(.contentTooLarge, "the body is larger than \(limits.maxBodyBytes) bytes")
        }
        do {
            return Array(buffer: try await request.collectBody(upTo: limits.maxBodyBytes))
        } catch {
            throw ServerError(.contentTooLarge, "the body is larger than \(limits.maxBodyBytes) bytes")
        }
    }

    /// The photo the route's `id` names, or a 404.
    static func photo(_ context: BasicRequestContext, in store: PhotoStore) throws -> (record: PhotoRecord, path: String) {
        let id = try context.parameters.require("id")
        guard let found = store.photo(id) else { throw ServerError(.notFound, "no photo '\(id)'") }
        return found
    }

    static func text(_ text: String, type: String) -> Response {
        Response(status: .ok, headers: [.contentType: type], body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    static func json(_ text: String, status: HTTPResponse.Status = .ok) -> Response {
        Response(status: status, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: text + "\n")))
    }

    /// The file's bytes as they are on disk.
    static func file(_ path: String, type: String) throws -> Response {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ServerError(.notFound, "the photo's file is gone")
        }
        return Response(status: .ok, headers: [.contentType: type], body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    static func mediaType(_ format: String) -> String {
        switch format {
        case "jpeg": return "image/jpeg"
        case "heic": return "image/heic"
        case "tiff": return "image/tiff"
        case "dng": return "image/x-adobe-dng"
        default: return "application/octet-stream"
        }
    }

    static func milliseconds(_ duration: Duration) -> Double {
        ((Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15) * 1000).rounded() / 1000
    }
}
