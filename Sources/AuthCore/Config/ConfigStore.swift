/// config.json as authctl reads it (every entry held to the rules of `providers add`) and
/// changes it, over a `ConfigStorage` (the file, or memory in tests). The configuration is
/// read and validated once per store, that is once per command: every copy of the store
/// shares what the first `load` found, and `update` makes the next `load` read again.
public struct ConfigStore: Sendable {
    let storage: any ConfigStorage
    let loaded: ConfigSnapshot

    public init(storage: any ConfigStorage) {
        self.storage = storage
        loaded = ConfigSnapshot()
    }

    /// Where the configuration lives, as messages name it.
    public var path: String { storage.path }

    /// Reads the file and holds every entry to the rules of `providers add`: a file edited by
    /// hand fails here (`provider-not-configured`, naming the file, the provider and the
    /// field), never later in a sign-in.
    public func load() throws -> ConfigFile {
        try loaded.value { try validated() }
    }

    func validated() throws -> ConfigFile {
        let file = try read(lenient: false)
        for (key, config) in file.providers.sorted(by: { $0.key < $1.key }) {
            do {
                guard key == config.id else {
                    throw ConfigFieldError(
                        field: "id",
                        error: .notConfigured(
                            "it is '\(Sanitize.text(config.id, limit: 60))' but the entry is filed under '\(Sanitize.text(key, limit: 60))'; the two must be equal"
                        ))
                }
                try config.checkFields()
            } catch let problem as ConfigFieldError {
                throw fieldError(problem, provider: key)
            }
        }
        try checkBackend(file)
        try checkRules(file.rules ?? [])
        return file
    }

    /// The file as it is. `lenient` (for `update`, so that `providers add|remove` can repair
    /// a damaged entry) drops unknown keys and values of the wrong type instead of failing.
    func read(lenient: Bool) throws -> ConfigFile {
        guard let data = try storage.read() else { return ConfigFile() }
        return try decode(data, lenient: lenient)
    }

    func decode(_ data: Data, lenient: Bool) throws -> ConfigFile {
        let decoder = JSONDecoder()
        if lenient, let key = ProviderConfig.lenientKey { decoder.userInfo[key] = true }
        let file: ConfigFile
        do {
            file = try decoder.decode(ConfigFile.self, from: data)
        } catch let problem as ConfigFieldError {
            throw fieldError(problem, provider: nil)
        } catch let DecodingError.keyNotFound(key, context) {
            throw corrupt("\(Self.member(context.codingPath + [key])) is missing")
        } catch let DecodingError.typeMismatch(_, context), let DecodingError.valueNotFound(_, context) {
            throw corrupt("\(Self.member(context.codingPath)) has the wrong type")
        } catch {
            throw corrupt("it is not valid JSON")
        }
        guard file.version <= ConfigFile.currentVersion else { throw corrupt("it is from a newer authctl (version \(file.version))") }
        return file
    }

    /// A member of the file as a person finds it: `provider oidc.a, field "issuer"`, `rule 2,
    /// field "user"`, `"version"`.
    static func member(_ path: [any CodingKey]) -> String {
        let names = path.map { Sanitize.text($0.stringValue, limit: 60) }
        switch (names.first, path.count) {
        case ("providers", 3...): return "provider \(names[1]), field \"\(names[2])\""
        case ("rules", 3...): return "rule \((path[1].intValue ?? 0) + 1), field \"\(names[2])\""
        case ("rules", 2): return "rule \((path[1].intValue ?? 0) + 1)"
        case (nil, _): return "its top level"
        default: return "\"\(names.joined(separator: "."))\""
        }
    }

    private func corrupt(_ what: String) -> AuthError {
        AuthError.notConfigured(
            "the configuration file \(path) is damaged: \(what). Fix or move it away (\(moveAside: path)) and add the providers again"
        )
    }

    /// A field that breaks a rule, as the file's reader sees it: the file, the provider, the field.
    private func fieldError(_ problem: ConfigFieldError, provider: String?) -> AuthError {
        let id = (provider ?? problem.provider).map { Sanitize.text($0, limit: 60) } ?? "ID"
        let message = problem.error.message.dropping(suffix: ".")
        return AuthError.notConfigured(
            "the configuration file \(path), provider \(id), field \"\(Sanitize.text(problem.field, limit: 60))\": \(message). Correct the field in the file, or remove the provider (\(command: .providersRemove, "\(id)")) and add it again"
        )
    }

    /// The rules held to the rules of `rules add` (docs/identities.md).
    func checkRules(_ rules: [IdentityRule]) throws {
        do {
            try IdentityRule.check(rules)
        } catch {
            let place = error.index.map { "rule \($0)" } ?? "rules"
            let message = error.message.dropping(suffix: ".")
            throw AuthError.notConfigured(
                "the configuration file \(path), \(place), field \"\(error.field)\": \(message). Correct the rule in the file, or remove it (\(command: .rulesRemove, "\(error.index.map(String.init) ?? "N")")) and add it again"
            )
        }
    }

    /// The rules of config.json (validated with the rest of the file); none when it has none.
    public func rules() throws -> [IdentityRule] { try load().rules ?? [] }

    public func provider(_ id: ProviderID) throws -> ProviderConfig {
        let providers = try load().providers
        guard let config = providers[id.rawValue] else {
            // A typo of a configured id (`oidc.crop` for `oidc.corp`) is said first.
            if let nearest = Suggestion.closest(to: id.rawValue, among: Array(providers.keys).sorted()) {
                throw AuthError.notConfigured("the provider \(id) is not configured. Did you mean \(nearest)?")
            }
            let arguments: [Message.Argument] =
                ["\(id)", .input(.clientID, "ID")] + (ProviderRegistry.kind(of: id).requiresIssuer ? [.input(.issuer, "URL")] : [])
            throw AuthError.notConfigured(
                "the provider \(id) is not configured. Add it with: \(command: .providersAdd, arguments: arguments)"
            )
        }
        return config
    }

    /// Changes the configuration under the storage's lock: a damaged file is read leniently,
    /// so that `providers add|remove` can repair it.
    public func update(_ change: (inout ConfigFile) throws -> Void) async throws {
        defer { loaded.forget() }
        try await storage.update { data in
            var file = try data.map { try decode($0, lenient: true) } ?? ConfigFile()
            try change(&file)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            return try encoder.encode(file)
        }
    }
}
