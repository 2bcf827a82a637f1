extension String {
    // NSString's path arithmetic, for code that loads FoundationEssentials only (which keeps it
    // internal): the same results, runs of "/" collapsed and one trailing "/" ignored.

    /// The path with runs of "/" made one and a trailing "/" removed: "/" stays "/", but "//"
    /// becomes "", as NSString has it.
    private var normalizedPath: String {
        if self == "/" { return self }
        var result = ""
        for character in self where !(character == "/" && result.hasSuffix("/")) {
            result.append(character)
        }
        if result.hasSuffix("/") { result.removeLast() }
        return result
    }

    /// Where the last component of a normalized path starts.
    private var lastComponentStart: String.Index {
        lastIndex(of: "/").map { index(after: $0) } ?? startIndex
    }

    /// The dot before the extension of a normalized path's last component: none when the
    /// component starts with its only dot (".profile") or is "..".
    private var extensionDot: String.Index? {
        let start = lastComponentStart
        guard let dot = self[start...].lastIndex(of: "."), dot != start, self[start...] != ".." else { return nil }
        return dot
    }

    /// `NSString.lastPathComponent`: "b" for "/a/b/", "/" for "/".
    package var lastPathComponent: String {
        let path = normalizedPath
        return path.count <= 1 ? path : String(path[path.lastComponentStart...])
    }

    /// `NSString.deletingLastPathComponent`: "/a" for "/a/b", "/" for "/a", "" for "a".
    package var deletingLastPathComponent: String {
        let path = normalizedPath
        guard path != "/", !path.isEmpty else { return path }
        let start = path.lastComponentStart
        if start == path.startIndex { return "" }
        if start == path.index(after: path.startIndex) { return "/" }
        return String(path[..<path.index(before: start)])
    }

    /// `NSString.pathExtension`: "jpg" for "a/b.jpg", "" for "a/.profile" or "a/b".
    package var pathExtension: String {
        let path = normalizedPath
        guard path.count > 1, let dot = path.extensionDot else { return "" }
        return String(path[path.index(after: dot)...])
    }

    /// `NSString.deletingPathExtension`: "a/b" for "a/b.jpg".
    package var deletingPathExtension: String {
        let path = normalizedPath
        guard path.count > 1, let dot = path.extensionDot else { return path }
        return String(path[..<dot])
    }

    /// `NSString.appendingPathComponent(_:)`: `component` after a "/" unless the path ends with
    /// one or either is empty.
    package func appendingPathComponent(_ component: String) -> String {
        if component.isEmpty { return self }
        if isEmpty { return component }
        return hasSuffix("/") ? self + component : self + "/" + component
    }
}
