#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writing the private files `SafeFile` reads: atomically (temporary file, fsync, rename,
/// fsync of the directory), and removing what a killed writer left.
extension SafeFile {
    /// Creates the parent directory (mode 0700) when it is missing.
    public static func ensureDirectory(for path: String, what: String) throws {
        let directory = Path.parent(of: path)
        guard !directory.isEmpty else { return }
        if FileManager.default.fileExists(atPath: directory) {
            guard Path.isDirectory(directory) else {
                throw AuthError.keystore("\(directory) is not a directory; \(what) cannot be created there")
            }
            return
        }
        if let failure = Path.createDirectories(directory, mode: 0o700) {
            throw AuthError.keystore("cannot create the directory \(directory) for \(what): \(failure)")
        }
    }

    /// Writes `data` so that readers see either the old or the new file, never a part:
    /// a temporary file in the same directory (0600), fsync, rename, fsync of the directory.
    public static func writeAtomically(
        _ data: Data, to path: String, what: String, random: any RandomSource, directory rule: DirectoryRule = .strict
    ) throws {
        try ensureDirectory(for: path, what: what)
        guard let directory = try Directory.open(holding: path, rule: rule, what: what, code: .keystoreError) else {
            throw AuthError.keystore("cannot write \(what) \(path): its directory does not exist. Check the path")
        }
        defer { directory.close() }
        let name = directory.name(of: path)
        let temporary = directory.name(
            of: directory.path + "/" + temporaryPrefix(of: Path.lastComponent(of: path))
                + "\(getpid())-\(random.base64URL(bytes: 6))")
        let fd = openat(directory.fd, temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw AuthError.keystore(
                "cannot write \(what) beside \(path) (\(String(cString: strerror(errno)))). Check that its directory is writable")
        }
        var ok = true
        data.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return }
            var offset = 0
            while offset < raw.count {
                let written = Glibc.write(fd, base + offset, raw.count - offset)
                if written < 0 && errno == EINTR { continue }
                if written <= 0 { ok = false; return }
                offset += written
            }
        }
        if ok { ok = fsync(fd) == 0 }
        close(fd)
        guard ok, renameat(directory.fd, temporary, directory.fd, name) == 0 else {
            let reason = String(cString: strerror(errno))
            unlinkat(directory.fd, temporary, 0)
            throw AuthError.keystore("could not write \(what) \(path) (\(reason)); it is unchanged. Check free disk space and permissions")
        }
        if directory.fd != AT_FDCWD { fsync(directory.fd) }
    }

    /// `.NAME.tmp-`: how the temporary files of `writeAtomically` begin.
    static func temporaryPrefix(of name: String) -> String { ".\(name).tmp-" }

    /// Removes the temporary files that writers of `path` killed mid-write (`kill -9`, a
    /// power cut) left beside it: they hold whole keystores, refresh tokens included, and
    /// nothing else would ever remove them. Call it only while holding the file's lock (no
    /// writer is then at work). Only names of our pattern, and only regular files of ours.
    public static func removeStaleTemporaries(of path: String, what: String) throws {
        guard let directory = try Directory.open(holding: path, rule: .strict, what: what, code: .keystoreError) else { return }
        defer { directory.close() }
        let prefix = temporaryPrefix(of: directory.name(of: path))
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        for name in names where name.hasPrefix(prefix) {
            var info = stat()
            guard fstatat(directory.fd, name, &info, AT_SYMLINK_NOFOLLOW) == 0, (info.st_mode & S_IFMT) == S_IFREG,
                info.st_uid == geteuid()
            else { continue }
            unlinkat(directory.fd, name, 0)
        }
    }
}
