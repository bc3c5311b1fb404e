import CLibCurlShim

#if canImport(Glibc)
    import Glibc
#endif

/// Where an unlocked keystore's data key waits (`authctl unlock`), for the commands that
/// cannot answer a prompt (kubectl's and git's): the kernel's key retention service
/// (keyrings(7)). One "user" key per keystore, named `authctl:` and the keystore's absolute
/// path, in the session keyring of the login session (the user keyring when the process has
/// no session keyring of its own), readable by its possessors and the user only, with a
/// timeout the kernel enforces. Never a file, a variable or a command line; no daemon.
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
        authctl_keyring_remove(Self.description(keystore: path)) > 0
    }
}
