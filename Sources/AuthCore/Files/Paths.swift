#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// File-system path strings, split the way `NSString`'s path helpers split them (not in
/// FoundationEssentials): trailing slashes ignored, the root stays the root.
package enum Path {
    /// The path without its last component: `/a/b` → `/a`, `/a` → `/`, `a` → ``.
    package static func parent(of path: String) -> String {
        let trimmed = withoutTrailingSlashes(path)
        guard let slash = trimmed.lastIndex(of: "/") else { return "" }
        let head = withoutTrailingSlashes(String(trimmed[..<slash]))
        return head.isEmpty ? "/" : head
    }

    /// The last component: `/a/b/` → `b`, `/` → `/`.
    package static func lastComponent(of path: String) -> String {
        let trimmed = withoutTrailingSlashes(path)
        guard trimmed != "/" else { return trimmed }
        guard let slash = trimmed.lastIndex(of: "/") else { return trimmed }
        return String(trimmed[trimmed.index(after: slash)...])
    }

    /// The temporary directory with a trailing slash: `$TMPDIR`, else `/tmp/`
    /// (`NSTemporaryDirectory()`).
    package static func temporaryDirectory(environment: [String: String]) -> String {
        guard let value = environment["TMPDIR"], !value.isEmpty else { return "/tmp/" }
        return value.hasSuffix("/") ? value : value + "/"
    }

    /// The home directory of the user running authctl, from the password database
    /// (`NSHomeDirectory()` when `HOME` is unset).
    package static func homeDirectory() -> String {
        guard let entry = getpwuid(getuid()), let directory = entry.pointee.pw_dir else { return "/" }
        return String(cString: directory)
    }

    /// The working directory (getcwd(3)); `/` when it cannot be known.
    package static func currentDirectory() -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard getcwd(&buffer, buffer.count) != nil else { return "/" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// `path` made absolute against the working directory (`.` and `..` kept as they are).
    package static func absolute(_ path: String) -> String {
        path.hasPrefix("/") ? path : currentDirectory() + "/" + path
    }

    /// Whether `path` names a directory (following symbolic links).
    package static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// Creates `path` and its missing parents, each with exactly `mode` (whatever the umask),
    /// as `FileManager.createDirectory(atPath:withIntermediateDirectories:attributes:)` did.
    /// Returns nil on success, else why not (`strerror`).
    package static func createDirectories(_ path: String, mode: mode_t) -> String? {
        if isDirectory(path) { return nil }
        let parentPath = parent(of: path)
        if !parentPath.isEmpty, parentPath != path, !isDirectory(parentPath), let failure = createDirectories(parentPath, mode: mode) {
            return failure
        }
        guard mkdir(path, mode) == 0 else {
            let failure = errno
            return failure == EEXIST && isDirectory(path) ? nil : String(cString: strerror(failure))
        }
        _ = chmod(path, mode)
        return nil
    }

    private static func withoutTrailingSlashes(_ path: String) -> String {
        var path = Substring(path)
        while path.count > 1, path.hasSuffix("/") { path = path.dropLast() }
        return String(path)
    }
}
