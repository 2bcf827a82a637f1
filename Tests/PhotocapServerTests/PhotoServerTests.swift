import FoundationEssentials
import Hummingbird
import PhotoCapture
import PhotocapCommands
import PhotocapServer
import ServiceLifecycle
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The API over a real socket, on the synthetic camera: each endpoint, and what a client may get
/// wrong.
@Suite(.serialized)
struct PhotoServerTests {
    struct Capture: Decodable {
        let uniqueID: Int64
        let url: String
        let shutterMs: Double
        let totalMs: Double
        let photos: [Photo]
    }
    struct Photo: Decodable {
        let id: String
        let url: String
        let fileURL: String
        let format: String
        let bytes: Int
        let settings: Settings
    }
    struct Settings: Decodable {
        let uniqueID: Int64
        let orientationWritten: Int
        let compensationApplied: Bool
        let orientationCompensation: String
        let dimensions: Size
    }
    struct Size: Decodable { let width: Int; let height: Int }
    struct List: Decodable { let photos: [Photo] }
    struct Refusal: Decodable { let error: String }

    static let json = ["Content-Type": "application/json"]

    /// Runs `body` against a server on a free loopback port, on the synthetic camera (or the
    /// `--frame-file` of `arguments`), writing into a new folder.
    func withServer(_ arguments: [String] = [], token: String? = nil, loopback: Bool = true,
                    _ body: @Sendable (TestHTTPClient, CaptureCoordinator) async throws -> Void) async throws {
        let folder = FileManager.default.temporaryDirectory.path + "/photocap-serve-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let camera = arguments.contains("--frame-file") ? [] : ["--device", "synthetic", "--size", "640x480"]
        let serve = try ServeCommand.parse(["--output", folder] + camera + arguments)
        let coordinator = try await CaptureCoordinator(serve: serve, store: try PhotoStore(folder: folder),
                                                       events: Broadcast(buffering: 64))
        var limits = PhotoServer.Limits()
        limits.maxViewers = serve.maxViewers
        let (ports, portContinuation) = AsyncStream<Int>.makeStream()
        let app = Application(router: PhotoServer.router(coordinator: coordinator, access: AccessPolicy(token: token, isLoopback: loopback),
                                                         limits: limits),
                              configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                              onServerRunning: { portContinuation.yield($0.localAddress?.port ?? 0) })
        // Stopped as `photocap serve` stops on SIGTERM: a graceful shutdown of the same group.
        let group = ServeRunner.serviceGroup(app, coordinator: coordinator, stoppingOnSignals: false,
                                                 logger: app.logger)
        let server = Task { try await group.run() }
        var iterator = ports.makeAsyncIterator()
        let port = await iterator.next() ?? 0
        try await cleaningUp(after: { try await body(TestHTTPClient(port: port), coordinator) }) {
            await group.triggerGracefulShutdown()
            let stopped = await server.result(within: Self.shutdownLimit)
            if stopped == nil { server.cancel() }
            #expect(stopped != nil, "the server did not stop within \(Self.shutdownLimit) of a graceful shutdown")
            if case .failure(let error)? = stopped { Issue.record(error, "the server's graceful shutdown failed") }
            await coordinator.stop()
        }
    }

    /// How long a graceful shutdown may take: the photo being taken is written, event streams
    /// end at once.
    static let shutdownLimit = Duration.seconds(10)

    func decode<T: Decodable>(_ type: T.Type, _ response: TestHTTPClient.Response) throws -> T {
        try JSONDecoder().decode(type, from: Data(response.body))
    }

    @Test func aPhotoIsTakenListedFetchedByteForByteAndDeleted() async throws {
        try await withServer { (client, coordinator) async throws in
            let taken = try await client.execute("POST", "/api/photos", headers: Self.json,
                                                 body: #"{"format": "jpeg", "compensation": "upright", "artist": "Ann"}"#)
            #expect(taken.status == 201)
            let capture = try decode(Capture.self, taken)
            let photo = try #require(capture.photos.first)
            #expect(taken.headers["location"] == photo.url)
            #expect(capture.url == photo.url)
            #expect(photo.settings.uniqueID == capture.uniqueID)
            #expect(photo.settings.orientationWritten == 1)
            #expect(photo.settings.orientationCompensation == "upright")
            #expect(photo.format == "jpeg")
            #expect(capture.shutterMs > 0 && capture.shutterMs <= capture.totalMs)

            let list = try decode(List.self, try await client.execute("GET", "/api/photos"))
            #expect(list.photos.map(\.id) == [photo.id])
            let record = try decode(Photo.self, try await client.execute("GET", photo.url))
            #expect(record.id == photo.id)

            let file = try await client.execute("GET", photo.fileURL)
            #expect(file.status == 200)
            #expect(file.headers["content-type"] == "image/jpeg")
            let onDisk = try #require(FileManager.default.contents(atPath: coordinator.store.folder + "/" + photo.id))
            #expect(file.body == Array(onDisk))
            #expect(onDisk.count == photo.bytes)

            let display = try await client.execute("GET", photo.url + "/display")
            #expect(display.status == 200)

            #expect(try await client.execute("DELETE", photo.url).status == 204)
            #expect(try await client.execute("GET", photo.url).status == 404)
            #expect(try await client.execute("DELETE", photo.url).status == 404)
            #expect(!FileManager.default.fileExists(atPath: coordinator.store.folder + "/" + photo.id))
        }
    }

    @Test func heicIsShownUprightAsPNGAndRawPlusGivesTwoFiles() async throws {
        try await withServer(["--sensor-rotation", "90"]) { (client, _) async throws in
            let taken = try await client.execute("POST", "/api/photos", headers: Self.json,
                                                 body: #"{"format": "heic", "compensation": "off"}"#)
            #expect(taken.status == 201)
            let photo = try #require(try decode(Capture.self, taken).photos.first)
            #expect(photo.settings.orientationWritten != 1)
            let display = try await client.execute("GET", photo.url + "/display")
            #expect(display.status == 200)
            #expect(display.headers["content-type"] == "image/png")
            let bracket = try await client.execute("POST", "/api/photos", headers: Self.json,
                                                   body: #"{"bracket": [-1, 0, 1]}"#)
            #expect(bracket.status == 201)
            #expect(try decode(Capture.self, bracket).photos.count == 3)
        }
    }

    @Test func refusedSettingsGetTheSentenceTheCommandLinePrints() async throws {
        try await withServer { (client, _) async throws in
            for (body, arguments) in [(#"{"bracket": "-2,x"}"#, ["--bracket=-2,x"]), (#"{"format": "png"}"#, ["--format=png"]),
                                      (#"{"zoom": 20}"#, ["--zoom=20"])] {
                let response = try await client.execute("POST", "/api/photos", headers: Self.json, body: body)
                #expect(response.status == 400, "\(body)")
                var expected = ""
                do {
                    _ = try ShootCommand.parse(["--device", "synthetic"] + arguments)
                    // A refusal that comes when the settings are resolved: the library's sentence.
                    expected = try decode(Refusal.self, response).error
                } catch {
                    expected = ShootCommand.message(for: error)
                }
                #expect(try decode(Refusal.self, response).error == expected, "\(body)")
            }
        }
    }

    @Test func badJSONAndUnknownSettingsAreRefused() async throws {
        try await withServer { (client, _) async throws in
            for body in ["{", "[1, 2]", #"{"format": {"a": 1}}"#, #"{"output": "/etc/passwd"}"#, #"{"xmp": "/etc/passwd"}"#,
                         #"{"compensation": "sideways"}"#] {
                let response = try await client.execute("POST", "/api/photos", headers: Self.json, body: body)
                #expect(response.status == 400, "\(body)")
                #expect(try !decode(Refusal.self, response).error.isEmpty)
            }
            let list = try decode(List.self, try await client.execute("GET", "/api/photos"))
            #expect(list.photos.isEmpty)
        }
    }

    @Test func unknownIDsAndPathsOutsideTheFolderAreNotFound() async throws {
        try await withServer { (client, _) async throws in
            for uri in ["/api/photos/nope", "/api/photos/nope/file", "/api/photos/..%2F..%2F..%2Fetc%2Fpasswd/file",
                        "/api/photos/%2Fetc%2Fpasswd/file", "/api/photos/../../../etc/passwd", "/api/photos/.%2E/display"] {
                let response = try await client.execute("GET", uri)
                #expect(response.status == 404, "\(uri)")
                #expect(!response.text.contains("root:"))
            }
            #expect(try await client.execute("DELETE", "/api/photos/..%2Fx").status == 404)
        }
    }

    @Test func oversizedBodiesAreRefusedBeforeTheyAreRead() async throws {
        try await withServer { (client, _) async throws in
            let large = #"{"comment": ""# + String(repeating: "x", count: 40_000) + #""}"#
            let response = try await client.execute("POST", "/api/photos", headers: Self.json, body: large)
            #expect(response.status == 413)
        }
    }

    @Test func offLoopbackEveryRequestNeedsTheTokenAndChangesNeedItInAHeader() async throws {
        try await withServer(token: "s3cret-token", loopback: false) { (client, _) async throws in
            #expect(try await client.execute("GET", "/api/photos").status == 401)
            #expect(try await client.execute("GET", "/").status == 401)
            #expect(try await client.execute("GET", "/api/photos", headers: ["X-Photocap-Token": "wrong"]).status
                    == 401)
            #expect(try await client.execute("GET", "/api/photos?token=s3cret-token").status == 200)
            #expect(try await client.execute("GET", "/api/photos", headers: ["Authorization": "Bearer s3cret-token"]).status == 200)
            // A query token does not allow a change: a link cannot take or delete photos.
            #expect(try await client.execute("POST", "/api/photos?token=s3cret-token", headers: Self.json,
                                             body: "{}").status == 401)
            var headers = Self.json
            headers["X-Photocap-Token"] = "s3cret-token"
            #expect(try await client.execute("POST", "/api/photos", headers: headers, body: "{}").status
                    == 201)
        }
    }

    @Test func crossSiteChangesAreRefused() async throws {
        try await withServer { (client, _) async throws in
            var other = Self.json
            other["Origin"] = "http://evil.example"
            #expect(try await client.execute("POST", "/api/photos", headers: other, body: "{}").status
                    == 403)
            var site = Self.json
            site["Sec-Fetch-Site"] = "cross-site"
            #expect(try await client.execute("POST", "/api/photos", headers: site, body: "{}").status
                    == 403)
            // What an HTML form can send.
            #expect(try await client.execute("POST", "/api/photos", headers: ["Content-Type": "text/plain"],
                                             body: "{}").status == 415)
            var same = Self.json
            same["Origin"] = "http://localhost:\(client.port)"
            #expect(try await client.execute("POST", "/api/photos", headers: same, body: "{}").status
                    == 201)
        }
        #expect(AccessPolicy<BasicRequestContext>.isLoopbackHost("127.0.0.1:8080"))
        #expect(AccessPolicy<BasicRequestContext>.isLoopbackHost("[::1]:8080"))
        #expect(AccessPolicy<BasicRequestContext>.isLoopbackHost("localhost"))
        #expect(!AccessPolicy<BasicRequestContext>.isLoopbackHost("evil.example:8080"))
        #expect(!AccessPolicy<BasicRequestContext>.isLoopbackHost("127.0.0.1.evil.example"))
    }

    @Test func onePhotoAtATimeAndTheQueueIsBounded() async throws {
        try await withServer(["--max-queued", "1"]) { (client, _) async throws in
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<5 {
                    group.addTask {
                        try await client.execute("POST", "/api/photos", headers: Self.json,
                                                 body: #"{"qualityPrioritization": "quality"}"#).status
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses.contains(201))
            #expect(statuses.allSatisfy { $0 == 201 || $0 == 503 })
            let list = try decode(List.self, try await client.execute("GET", "/api/photos"))
            #expect(list.photos.count == statuses.filter { $0 == 201 }.count)
        }
    }

    @Test func theDocumentsAndTheViewfinderAreServed() async throws {
        try await withServer { (client, coordinator) async throws in
            let openAPI = try await client.execute("GET", "/openapi.json")
            #expect(openAPI.status == 200)
            struct Document: Decodable { let openapi: String; let paths: [String: [String: AnyDecodable]] }
            struct AnyDecodable: Decodable { init(from decoder: any Decoder) throws {} }
            let document = try decode(Document.self, openAPI)
            #expect(Set(document.paths.keys) == ["/api/photos", "/api/photos/{id}", "/api/photos/{id}/file", "/api/photos/{id}/display",
                                                 "/api/events", "/api/viewfinder", "/api/status", "/api/analysis", "/api/auto-framing"])
            let page = try await client.execute("GET", "/")
            #expect(page.text.contains("<title>photocap</title>"))
            var frame = try await client.execute("GET", "/api/viewfinder")
            for _ in 0..<200 where frame.status != 200 {
                try await Task.sleep(for: .milliseconds(20))
                frame = try await client.execute("GET", "/api/viewfinder")
            }
            #expect(frame.status == 200)
            #expect(frame.body.prefix(4) == [0x89, 0x50, 0x4E, 0x47])
            #expect(frame.headers["x-field-of-view"] == "0.0,0.0,1.0,1.0", "the whole picture: no framing applied")
            let status = try await client.execute("GET", "/api/status")
            #expect(status.text.contains("\"device\""))
            await coordinator.stop()
            #expect(try await client.execute("POST", "/api/photos", headers: Self.json, body: "{}").status
                    == 503)
        }
    }

    @Test func requestSettingsBecomeShootOptions() throws {
        let request = try PhotoRequest(json: Array(#"{"bracket": [-2, 0, 2.5], "compensation": "off", "artist": "-Ann"}"#.utf8))
        #expect(request.arguments == ["--artist=-Ann", "--bracket=-2,0,2.5", "--no-compensation"])
        #expect(try PhotoRequest(json: Array("  ".utf8)).arguments.isEmpty)
        #expect(throws: SettingsRefusal.self) { try PhotoRequest(json: Array(#"{"device": "/dev/video0"}"#.utf8)) }
    }
}
