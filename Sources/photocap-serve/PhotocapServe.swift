import PhotocapCommands
import PhotocapServer

/// `photocap-serve`: photocap with the HTTP server linked in, for `photocap serve`, which
/// `photocap` hands over to it (see ServeSupport).
@main
enum PhotocapServe {
    static func main() async {
        ServeSupport.installed = { try await ServeRunner.run($0) }
        await PhotocapCommand.parseAndRun()
    }
}
