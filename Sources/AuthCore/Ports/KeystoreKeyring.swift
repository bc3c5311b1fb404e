import Crypto

/// The Secret Service (GNOME Keyring, KWallet, KeePassXC) as a sealed keystore uses it: one
/// item per sealing, named by a random id the keystore records, holding the key that wraps
/// its data key. A new sealing stores a new item before the file is written, so a failed
/// write leaves the old item, and the old file, as they were.
public protocol KeystoreKeyring: Sendable {
    /// The key of `item`; a keystore error when there is none or the keyring is locked.
    func wrappingKey(item: String) throws -> SymmetricKey
    /// Stores `key` as `item`.
    func store(_ key: SymmetricKey, item: String, label: String) throws
    /// Removes `item` (a sealing that was replaced); failures are ignored.
    func remove(item: String)
}
