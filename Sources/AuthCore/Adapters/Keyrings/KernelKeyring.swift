import CLibCurlShim

#if canImport(Glibc)
    import Glibc
#endif

/// Where an unlocked keystore's data key waits (`authctl unlock`), for the commands that
/// cannot answer a prompt (kubectl's and git's): the kernel's key retention service
/// (keyrings(7)). One "user" key per keystore, named `authctl:` and the keystore's absolute
/// path, in the session keyring of the login session (the user keyring when the process has
/// no session keyring of its own), readable by its possessors only, with a timeout the kernel
/// enforces. Never a file, a variable or a command line; no daemon. `remove` (`authctl lock`)
/// forgets it from any session of the user: the user may view and search the key, so
/// /proc/keys lists it where no search from this session reaches it, and it is invalidated
/// by its id.
public struct KernelKeyring: KeystoreKeyCache {
    public init() {}

    /// The key's name: the keystore's path, absolute.
    static func description(keystore path: String) -> String {
        "authctl:" + Path.absolute(path)
    }

    public func key(keystore path: String) -> Data? {
        var buffer = [UInt8](repeating: 0, count: 64)
        let read = buffer.withUnsafeMutableBytes { authctl_keyring_read(Self.description(keystore: path), $0.baseAddress, $0.count) }
        defer { for index in buffer.indices { buffer[index] = 0 } }
        guard read > 0, read <= buffer.count else { return nil }
        return Data(buffer[0..<read])
    }

    public func store(_ key: Data, keystore path: String, seconds: Int) throws {
        let timeout = UInt32(clamping: max(1, seconds))
        let added = key.withUnsafeBytes { authctl_keyring_add(Self.description(keystore: path), $0.baseAddress, $0.count, timeout) }
        guard added == 0 else {
            let reason = String(cString: strerror(errno))
            throw AuthError.keystore(
                "the kernel keyring refused to keep the key (\(reason)): key management system calls may be blocked here (a container's seccomp profile). Give the key at every command instead (AUTHCTL_KEYSTORE_PASSPHRASE), or seal the keystore with a key file"
            )
        }
    }

    @discardableResult
    public func remove(keystore path: String) -> Bool {
        let description = Self.description(keystore: path)
        // Found by a search from this process: its session keyring, then the user keyring.
        var removed = Int(authctl_keyring_remove(description))
        // Kept in another session's keyring (`unlock` in another login): listed in
        // /proc/keys, which shows the keys the user may view, and invalidated by its id.
        for id in Self.keyIDs(inProcKeys: Self.procKeys(), description: description, uid: getuid())
        where authctl_keyring_invalidate(id) == 0 {
            removed += 1
        }
        return removed > 0
    }

    /// /proc/keys as the kernel gives it to this process (empty when it cannot be read).
    static func procKeys() -> String {
        let descriptor = open("/proc/keys", O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return "" }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16 << 10)
        while bytes.count < 4 << 20 {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            bytes.append(contentsOf: buffer[0..<count])
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The ids of the "user" keys named `description` that `uid` owns, in a /proc/keys listing
    /// (keyrings(7): `ID FLAGS USAGE TIMEOUT PERM UID GID TYPE DESCRIPTION: LENGTH`, the id in
    /// hexadecimal; the description may hold spaces).
    static func keyIDs(inProcKeys listing: String, description: String, uid: UInt32) -> [Int] {
        listing.split(separator: "\n").compactMap { line in
            var rest = Substring(line)
            var fields: [Substring] = []
            for _ in 0..<8 {
                rest = rest.drop { $0 == " " }
                let end = rest.firstIndex(of: " ") ?? rest.endIndex
                fields.append(rest[..<end])
                rest = rest[end...]
            }
            rest = rest.drop { $0 == " " }
            guard fields[7] == "user", UInt32(fields[5]) == uid, let id = Int(fields[0], radix: 16) else { return nil }
            // A user key shows its payload's length after the description; one without a
            // payload (negative, revoked) shows none.
            let named =
                rest == description
                || (rest.hasPrefix(description + ": ") && rest.dropFirst(description.count + 2).allSatisfy { $0.isASCII && $0.isNumber })
            return named ? id : nil
        }
    }
}
