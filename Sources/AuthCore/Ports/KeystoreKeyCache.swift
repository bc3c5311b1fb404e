/// Where an unlocked keystore's data key is kept for a while (`unlock`, `lock`): the kernel
/// keyring (`KernelKeyring`). Keyed by the keystore's path; the key is checked against the
/// keystore's check value before it is used, so a stale or planted one opens nothing.
public protocol KeystoreKeyCache: Sendable {
    /// The key kept for the keystore at `path`; nil when there is none (or it timed out).
    func key(keystore path: String) -> Data?
    /// Keeps `key` for the keystore at `path` for `seconds`.
    func store(_ key: Data, keystore path: String, seconds: Int) throws
    /// Forgets the key of the keystore at `path`; whether there was one.
    @discardableResult func remove(keystore path: String) -> Bool
}
