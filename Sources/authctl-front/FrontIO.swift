import FrontLibc

// The front's reads, writes and hand-over, each mirroring the full program's (AuthCore's
// `FileConfigStorage.mayHoldRules`, `SafeFile.withOpened`, `KeystoreFile.decodeCurrentUser`);
// what it reads and answers is the cached-token core's (`KeystoreScan`, `CachedUser`,
// `CachedTokenAnswer`): where the core would refuse, warn or look further, the front hands
// over instead, and the core says what it says.

/// Whether config.json may hold `rules` (docs/identities.md): the core's peek (`ConfigRulesPeek`, shared).
/// A file that cannot be opened or read "may" (the full program reads and explains).
func configMayHoldRules(_ path: String) -> Bool {
    let fd = front_open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
    guard fd >= 0 else { return errno != ENOENT }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0, info.st_mode & 0o170000 == 0o100000, info.st_size < 1 << 20 else { return true }
    var bytes = [UInt8](repeating: 0, count: Int(info.st_size) + 1)
    var length = 0
    let failed = bytes.withUnsafeMutableBytes { buffer -> Bool in
        guard let base = buffer.baseAddress else { return true }
        while length < buffer.count {
            let count = read(fd, base + length, buffer.count - length)
            if count < 0, errno == EINTR { continue }
            if count < 0 { return true }
            if count == 0 { break }
            length += count
        }
        return false
    }
    if failed { return true }
    return bytes.withUnsafeBufferPointer { ConfigRulesPeek.mayHoldRules(UnsafeBufferPointer(rebasing: $0[..<length])) }
}

/// The keystore's directory and name as `SafeFile` opens them (`Path.parent`,
/// `Path.lastComponent`); nil for a path ending in `/` (the full program's).
func directoryAndName(_ path: String) -> (directory: String, name: String)? {
    let bytes = Array(path.utf8)
    guard let last = bytes.last, last != UInt8(ascii: "/") else { return nil }
    guard let slash = bytes.lastIndex(of: UInt8(ascii: "/")) else { return (".", path) }
    var end = slash
    while end > 1, bytes[end - 1] == UInt8(ascii: "/") { end -= 1 }
    let head = end == 0 ? "/" : String(decoding: bytes[..<end], as: UTF8.self)
    return (head, String(decoding: bytes[(slash + 1)...], as: UTF8.self))
}

/// The current user's record, read (and opened) as `token` reads it; nil: the full program's.
func cachedUser(keystorePath path: String, keyFile keyFileVariable: String?) -> CachedUser? {
    guard let (directoryPath, name) = directoryAndName(path) else { return nil }
    // SafeFile's checks: a directory of ours or root's that no one else may write to, a
    // regular file (no symbolic link) of ours that no one else may read or write.
    let directory = front_open(directoryPath, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard directory >= 0 else { return nil }
    defer { close(directory) }
    var info = stat()
    let me = geteuid()
    guard fstat(directory, &info) == 0, info.st_uid == me || info.st_uid == 0, info.st_mode & 0o022 == 0 else { return nil }
    let fd = front_openat(directory, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    guard fstat(fd, &info) == 0, info.st_mode & 0o170000 == 0o100000, info.st_uid == me, info.st_mode & 0o077 == 0 else { return nil }
    // `KeystoreFile.decodeCurrentUser(file:)`: the shared scan; a plaintext keystore (version 1,
    // no sealing) or a sealed one (2 or 3, its sealing a key file's); a current uid of the uid
    // syntax and its record, read whole, its tokens where the file's kind keeps them.
    let read: KeystoreScan.PositionalRead = { buffer, offset in
        while true {
            guard let base = buffer.baseAddress else { return -1 }
            let count = pread(fd, base, buffer.count, off_t(offset))
            if count < 0, errno == EINTR { continue }
            return count
        }
    }
    guard let found = KeystoreScan.currentUser(reading: read, size: Int(info.st_size), quoteSearch: quoteSearch),
        let uid = found.currentUID, UIDSyntax.isUID(uid), let range = found.user
    else { return nil }
    var sealing: CachedSealing?
    if found.version == 1, found.sealing == nil {
        // A key configured and a plaintext keystore: the core refuses it (a downgrade).
        guard keyFileVariable == nil else { return nil }
    } else if found.version == 2 || found.version == 3, let sealingRange = found.sealing {
        guard let bytes = readRange(fd, sealingRange) else { return nil }
        sealing = bytes.withUnsafeBufferPointer { KeystoreRecordReader.read($0) { $0.cachedSealing() } }
        guard sealing != nil else { return nil }
    } else {
        return nil
    }
    guard let record = readRange(fd, range) else { return nil }
    let user = record.withUnsafeBufferPointer { KeystoreRecordReader.read($0) { CachedUser.read(&$0) } }
    guard var user, user.uid == uid, user.providerData.allSatisfy({ $0.tokens?.isShaped(sealed: sealing != nil) ?? true }),
        user.resourceGrants.allSatisfy({ $0.tokens?.isShaped(sealed: sealing != nil) ?? true }),
        // A sealed grant's tokens are opened by the full program (which refuses a damaged one).
        sealing == nil || user.resourceGrants.allSatisfy({ $0.tokens == nil })
    else {
        return nil
    }
    if let sealing {
        // `KeystoreKeys.dataKey`: the key file given, else the one the keystore names.
        let named = sealing.keyFile.flatMap { $0.isEmpty ? nil : $0 }
        guard let keyFile = keyFileVariable ?? named, CachedTokenRequest.isPrintableASCII(keyFile),
            var key = dataKey(sealing, keyFile: keyFile)
        else {
            return nil
        }
        let opened = user.opened(
            version: found.version, open: { aesGCMOpen($0, key: key, associated: $1) }, wipe: { wipe(&$0) })
        wipe(&key)
        guard let opened else { return nil }
        user = opened
        user.fromSealedKeystore = true
    }
    return user
}

/// The first `"` of `bytes` by libc's `memchr` (vectorised for the machine it runs on), for the
/// core's scan (`KeystoreScan.QuoteSearch`).
func quoteSearch(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
    guard let base = bytes.baseAddress, let found = memchr(base, 0x22, bytes.count) else { return nil }
    return UnsafeRawPointer(base).distance(to: UnsafeRawPointer(found))
}

/// Seconds since 1970, now.
func nowSeconds() -> Double? {
    var now = timespec()
    guard clock_gettime(CLOCK_REALTIME, &now) == 0 else { return nil }
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}

/// The bytes `range` of the file open at `fd` (`SafeFile.read(_:range:)`); nil when the
/// file ends before the range does, or the range is larger than any record.
func readRange(_ fd: Int32, _ range: Range<Int>) -> [UInt8]? {
    guard range.count > 0, range.count <= 1 << 24 else { return nil }
    var bytes = [UInt8](repeating: 0, count: range.count)
    var length = 0
    while length < range.count {
        let count = bytes.withUnsafeMutableBytes { buffer -> Int in
            guard let base = buffer.baseAddress else { return -1 }
            return pread(fd, base + length, buffer.count - length, off_t(range.lowerBound + length))
        }
        if count < 0, errno == EINTR { continue }
        guard count > 0 else { return nil }
        length += count
    }
    return bytes
}

var errno: Int32 { front_errno() }

/// Writes `bytes` to stdout whole; false when nothing could be written (the full program then
/// runs, and meets the same stdout). A write that fails midway ends the front with status 1.
func writeAll(_ bytes: [UInt8]) -> Bool {
    var written = 0
    while written < bytes.count {
        let count = bytes.withUnsafeBytes { buffer -> Int in
            guard let base = buffer.baseAddress else { return -1 }
            return write(1, base + written, buffer.count - written)
        }
        if count < 0, errno == EINTR { continue }
        if count <= 0 {
            if written == 0 { return false }
            exit(1)
        }
        written += count
    }
    return true
}

/// Executes the full program, `<bindir>/../lib/authctl/authctl` of this program's real path,
/// with the same arguments and environment; never returns but with a message and status 1.
/// The request program (`lib/authctl/authctl-request`) hands over to its sibling the same way.
func handOver(_ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    #if AUTHCTL_REQUEST
        let failure = execInstalled(argv, program: "authctl", levels: 2)
    #else
        let failure = execInstalled(argv, program: "authctl", levels: 1)
    #endif
    guard !failure.target.isEmpty else {
        fail("authctl: cannot find its own path (/proc/self/exe), so not the full program either: reinstall authctl\n")
        return 1
    }
    fail("authctl: the full program " + failure.target + " cannot be run (" + failure.reason + "): reinstall authctl\n")
    return 1
}

/// Executes `<prefix>/lib/authctl/PROGRAM`, the prefix being `levels` directories above the one
/// holding this program's real path (1 for `bin/authctl`, 2 for `lib/authctl/authctl-request`),
/// with the same arguments and environment; returns only when it could not, with the path and
/// why (an empty path: this program's own path cannot be found). Only a program no one else
/// could have put there runs: `lib`, `lib/authctl` and the program each belong to root, this
/// user or the owner of this program (who could change it anyway), and none may be written by
/// every user. A front copied into a directory of ours
/// inside a shared one (`/tmp/build/authctl`) would otherwise run the `/tmp/lib/authctl/authctl`
/// anyone may create. Each is checked on the descriptor it was opened as and the next opened
/// from it; the program runs by its name in the checked directory (`execveat`), whose entries
/// only those owners can change.
func execInstalled(_ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>, program: String, levels: Int) -> (
    target: String, reason: String
) {
    var prefix: [UInt8] = []
    var link = [CChar](repeating: 0, count: 4097)
    let length = link.withUnsafeMutableBufferPointer { buffer -> Int in
        guard let base = buffer.baseAddress else { return -1 }
        return readlink("/proc/self/exe", base, 4096)
    }
    if length > 0, length < 4096 {
        var path = link.prefix(length).map { UInt8(bitPattern: $0) }
        // The directory of the real path, then `levels` parents: the prefix holding lib/authctl.
        var found = true
        for _ in 0...levels {
            guard let slash = path.lastIndex(of: UInt8(ascii: "/")) else {
                found = false
                break
            }
            path = Array(path[..<slash])
        }
        if found { prefix = path.isEmpty ? [UInt8(ascii: "/")] : path }
    }
    guard !prefix.isEmpty else { return ("", "") }
    let prefixPath = String(decoding: prefix, as: UTF8.self)
    let target = (prefix.count == 1 ? "" : prefixPath) + "/lib/authctl/" + program
    var owners: [UInt32] = [0, geteuid()]
    var info = stat()
    let own = front_open_path(AT_FDCWD, "/proc/self/exe", 0)
    if own >= 0 {
        if fstat(own, &info) == 0 { owners.append(info.st_uid) }
        close(own)
    }
    var refused = false
    var failure: Int32 = 0
    // `directory`: the prefix, then lib, then lib/authctl, each checked before it is used.
    var directory = front_open_path(AT_FDCWD, prefixPath, O_DIRECTORY)
    if directory < 0 { failure = errno }
    for (name, flags) in [("lib", O_DIRECTORY), ("authctl", O_DIRECTORY), (program, 0)] {
        guard directory >= 0 else { break }
        let next = front_open_path(directory, name, flags)
        guard next >= 0 else {
            failure = errno
            close(directory)
            directory = -1
            break
        }
        let trusted = fstat(next, &info) == 0 && owners.contains(info.st_uid) && info.st_mode & 0o002 == 0
        if !trusted || flags == O_DIRECTORY {
            close(directory)
            directory = trusted ? next : -1
        }
        if !trusted {
            refused = true
            close(next)
            break
        }
        if flags != O_DIRECTORY { close(next) }
    }
    if directory >= 0 {
        _ = front_execveat(directory, program, argv)
        failure = errno
        // A kernel without execveat (before 3.19): the checked path, as before the check.
        if failure == ENOSYS {
            _ = execv(target, argv)
            failure = errno
        }
        close(directory)
    }
    let reason =
        refused
        ? "it, or a directory holding it, belongs to another user or may be changed by every user"
        : String(cString: strerror(failure))
    return (target, reason)
}

func fail(_ message: String) {
    let bytes = Array(message.utf8)
    _ = bytes.withUnsafeBytes { buffer -> Int in
        guard let base = buffer.baseAddress else { return 0 }
        return write(2, base, buffer.count)
    }
}
