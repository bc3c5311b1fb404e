/// `backend use local|firebase`, `backend show`: where users live (docs/firebase.md), in config.json.
public struct Backends: Sendable {
    /// The backend as configured.
    public struct Setting: Sendable, Equatable {
        /// The Firebase project, nil for the local backend.
        public var firebase: FirebaseConfig?

        public init(firebase: FirebaseConfig? = nil) { self.firebase = firebase }

        public var name: String { firebase == nil ? "local" : "firebase" }
    }

    let configStore: ConfigStore

    public init(configStore: ConfigStore) { self.configStore = configStore }

    /// `backend use firebase`: checked by the rules of config.json (a bad value is a usage
    /// error, exit 2, naming the option) before anything is written.
    public func useFirebase(_ config: FirebaseConfig) async throws -> Setting {
        do {
            try config.validate()
        } catch let failure as ConfigFieldError {
            throw failure.error
        }
        try await configStore.update { file in
            file.backend = "firebase"
            file.firebase = config
        }
        return Setting(firebase: config)
    }

    /// `backend use local`: the keystore is the user database again; the Firebase project
    /// stays in the file for a later `backend use firebase`.
    public func useLocal() async throws {
        try await configStore.update { file in file.backend = nil }
    }

    public func show() throws -> Setting { Setting(firebase: try configStore.firebaseBackend()) }
}
