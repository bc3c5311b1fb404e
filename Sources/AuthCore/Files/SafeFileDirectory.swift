#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension SafeFile {
    /// An open directory that holds a checked file: files are opened relative to it, so the
    /// directory checked is the one they are in, whatever is renamed meanwhile.
    struct Directory {
        let fd: Int32
        let path: String

        /// The directory of `path`, opened and checked by `rule`; nil when it does not exist.
        static func open(holding file: String, rule: DirectoryRule, what: String, code: SafeFile.ErrorCode) throws -> Directory? {
            let parent = Path.parent(of: file)
            let path = parent.isEmpty ? "." : parent
            let fd = Glibc.open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            guard fd >= 0 else {
                if errno == ENOENT { return nil }
                // A directory that may be searched but not listed (0711) is fine for `.any`:
                // its files are then opened by their whole path.
                if errno == EACCES, rule == .any { return Directory(fd: AT_FDCWD, path: path) }
                throw code.error(
                    "the directory \(path) of \(what) cannot be opened (\(String(cString: strerror(errno)))). Check the path and its permissions"
                )
            }
            let directory = Directory(fd: fd, path: path)
            if rule == .strict {
                do { try directory.check(what: what, code: code) } catch {
                    directory.close()
                    throw error
                }
            }
            return directory
        }

        /// ssh's StrictModes for the directory: owned by us or root, writable by no one else.
        func check(what: String, code: SafeFile.ErrorCode) throws {
            var info = stat()
            guard fstat(fd, &info) == 0 else {
                throw code.error("the directory \(path) of \(what) cannot be examined (\(String(cString: strerror(errno))))")
            }
            if info.st_uid != geteuid() && info.st_uid != 0 {
                throw code.error(
                    "the directory \(path) holding \(what) belongs to another user (uid \(info.st_uid)), who could replace \(what). Keep it in a directory of your own (\(input: .keystore) or \(input: .config) PATH)"
                )
            }
            if info.st_mode & 0o022 != 0 {
                let mode = String(info.st_mode & 0o7777, radix: 8)
                // A directory others share by design (/tmp: sticky, every user may write; one
                // of root's or another user's) must not be changed: that would break everyone
                // else's use of it. The fix is another place, not a chmod.
                if Self.isShared(info) {
                    throw code.error(
                        "the directory \(path) holding \(what) is shared with other users (mode \(mode)), so another user could replace \(what). Keep it in a directory of your own instead: leave out \(input: .keystore) and \(input: .config) for the default places, or give a PATH under a directory only you can write. Do not change \(path) itself: others rely on it"
                    )
                }
                throw code.error(
                    "the directory \(path) holding \(what) can be written by its group (mode \(mode)), so another user could replace \(what). Fix it with: chmod 700 '\(path)'"
                )
            }
        }

        /// A directory meant for several users: the sticky bit (as /tmp has), writable by
        /// every user, or owned by someone else (root, when authctl does not run as root).
        static func isShared(_ info: stat) -> Bool {
            info.st_mode & S_ISVTX != 0 || info.st_mode & 0o002 != 0 || info.st_uid != geteuid()
        }

        /// How to name `file` to the `*at` calls: its last component, or its whole path when
        /// the directory could not be opened.
        func name(of file: String) -> String { fd == AT_FDCWD ? file : Path.lastComponent(of: file) }

        func close() { if fd != AT_FDCWD { _ = Glibc.close(fd) } }
    }
}
