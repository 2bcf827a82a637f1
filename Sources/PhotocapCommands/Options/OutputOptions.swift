import ArgumentParser

/// Where results go and how they are reported: shared by the commands that write photos.
struct OutputOptions: ParsableArguments {
    @Option(help: "Output file, or a folder (existing, or ending in / and then made if missing).")
    var output: String?

    @Flag(help: "Replace existing files.")
    var overwrite = false

    @Flag(help: "Print one JSON object per photo on stdout.")
    var json = false
}
