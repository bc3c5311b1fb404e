extension ConfigStore {
    /// `backend` and `firebase` of config.json held to the rules of `backend use` (docs/firebase.md):
    /// a file edited by hand fails on load naming the file and the field, never later.
    func checkBackend(_ file: ConfigFile) throws {
        func problem(_ field: String, _ message: Message) -> AuthError {
            AuthError.notConfigured(
                "the configuration file \(path), field \"\(field)\": \(message.dropping(suffix: ".")). Set it again with: \(command: .backendUse, "firebase", .input(.project, "ID"), .input(.apiKey, "KEY")), or \(command: .backendUse, "local")"
            )
        }
        switch file.backend {
        case nil, "local"?: break
        case "firebase"?:
            guard file.firebase != nil else { throw problem("firebase", "it is missing, and the backend is firebase") }
        case let other?:
            throw problem("backend", "'\(Sanitize.text(other, limit: 40))' is not a backend (local or firebase)")
        }
        do {
            try file.firebase?.validate()
        } catch let failure as ConfigFieldError {
            throw problem("firebase.\(failure.field)", failure.error.message)
        }
    }

    /// The Firebase project users live in, or nil for the local backend.
    public func firebaseBackend() throws -> FirebaseConfig? {
        let file = try load()
        return file.backend == "firebase" ? file.firebase : nil
    }
}
