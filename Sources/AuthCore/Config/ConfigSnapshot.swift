import Synchronization

/// What a `ConfigStore`'s first `load` found — the configuration or the error — shared by
/// every copy of the store, so that a command reads config.json once.
final class ConfigSnapshot: Sendable {
    private let state = Mutex<Result<ConfigFile, any Error>?>(nil)

    /// The result kept, or `load`'s, kept for next time.
    func value(_ load: () throws -> ConfigFile) throws -> ConfigFile {
        try state.withLock { kept in
            if let kept { return kept }
            let result = Result { try load() }
            kept = result
            return result
        }.get()
    }

    /// The next `value` loads again (the configuration was changed).
    func forget() { state.withLock { $0 = nil } }
}
