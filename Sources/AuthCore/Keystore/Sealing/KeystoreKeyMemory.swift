import Synchronization

/// The data key a sealed keystore opened with, kept in this process's memory (`exec`, which
/// refreshes its command's token for as long as the command runs): the keystore opens again
/// with it, with nothing asked. Once `stopAsking()` is called, no passphrase is asked on
/// the terminal any more — the command shares it, and what a person typed would go to the
/// command (a shell, and its history).
public final class KeystoreKeyMemory: Sendable {
    private struct State {
        var key: DataKey?
        var mayAsk = true
    }

    private let state = Mutex(State())

    public init() {}

    /// From now on a passphrase is never asked: the key in memory opens the keystore, or
    /// opening it fails.
    public func stopAsking() { state.withLock { $0.mayAsk = false } }

    var mayAsk: Bool { state.withLock { $0.mayAsk } }

    /// The key in memory when it is the one `sealing` wraps (its check value matches).
    func key(for sealing: KeystoreSealing) -> DataKey? {
        guard let key = state.withLock({ $0.key }), Data(base64Encoded: sealing.keyCheck) == key.checkValue else { return nil }
        return key
    }

    func remember(_ key: DataKey) { state.withLock { $0.key = key } }
}
