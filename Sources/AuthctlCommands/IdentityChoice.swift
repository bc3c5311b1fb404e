import AuthCore

/// Which user (and provider) a command acts as, when something other than the current user
/// says so (docs/identities.md): `--user`, else `AUTHCTL_USER`, else the first rule of
/// config.json whose conditions hold where the command runs. Nil: the current user, exactly
/// as before rules existed. The current user never changes.
struct IdentityChoice: Equatable {
    enum Source: Equatable {
        case option
        case environment
        /// The rule's place in config.json (from 1) and its name.
        case rule(index: Int, name: String?)
    }

    /// A uid or an email.
    var user: String?
    var provider: String?
    var source: Source

    /// Words for a person: `--user`, `AUTHCTL_USER`, `rule 2 (work)`.
    var sourceDescription: String { ChosenIdentity(chosenBy: reason).sourceDescription ?? "" }

    /// The source as the core's value, which its errors name with the user.
    var reason: UserChoiceReason {
        switch source {
        case .option: .option
        case .environment: .environment
        case .rule(let index, let name): .rule(index: index, name: name)
        }
    }

    /// `--user`, else `AUTHCTL_USER` (empty: unset); nil when neither is given.
    static func overriding(_ settings: Wiring.Settings, io: AuthctlIO) -> IdentityChoice? {
        if let user = settings.user { return IdentityChoice(user: user, provider: nil, source: .option) }
        if let user = io.variable("AUTHCTL_USER"), !user.isEmpty { return IdentityChoice(user: user, provider: nil, source: .environment) }
        return nil
    }

    /// What the token hot path found, read cheaply.
    enum Fast {
        /// Nothing chooses: the current user.
        case none
        case chosen(IdentityChoice)
        /// It cannot tell without the full reading (`Wiring.identityChoice`), which the full
        /// command then does (and reports).
        case unsure
    }

    /// The choice for the token hot path. (A plain enum, not a double optional, whose
    /// metadata the runtime would make at run time on the hot path.)
    static func fast(_ settings: Wiring.Settings, io: AuthctlIO) -> Fast {
        if let chosen = overriding(settings, io: io) {
            return IdentityChoice.isValidUser(chosen.user) ? .chosen(chosen) : .unsure
        }
        let storage = io.configStorage(Wiring.configPath(settings, io: io))
        guard storage.mayHoldRules() else { return .none }
        let data: Data?
        do {
            data = try storage.read()
        } catch {
            return .unsure
        }
        guard let data else { return .none }
        let chooser = IdentityRules.Chooser(ruleContext(io: io, askedRemote: nil))
        switch ConfigRulesScan.firstMatch(in: data, where: chooser.holds) {
        case .none: return .none
        case .unsure: return .unsure
        case .rule(let rule, let index):
            return .chosen(IdentityChoice(user: rule.user, provider: rule.provider, source: .rule(index: index, name: rule.name)))
        }
    }

    static func isValidUser(_ user: String?) -> Bool { user.map(IdentityRule.isUserSelector) ?? true }

    /// The first rule that matches here, as a choice.
    static func winner(_ rules: [IdentityRule], io: AuthctlIO, askedRemote: String?) -> IdentityChoice? {
        guard !rules.isEmpty else { return nil }
        guard let (index, rule) = IdentityRules.winner(rules, in: ruleContext(io: io, askedRemote: askedRemote)) else { return nil }
        return IdentityChoice(user: rule.user, provider: rule.provider, source: .rule(index: index, name: rule.name))
    }

    static func ruleContext(io: AuthctlIO, askedRemote: String?) -> SystemRuleContext {
        SystemRuleContext(askedRemote: askedRemote) { io.variable($0) }
    }

    /// The chosen user's uid: a uid as it is, an email looked up among the users (their own
    /// email, or a verified identity's; several users with it is an error). Nil when only a
    /// provider was chosen. Throws when the keystore has no such user.
    /// `verifying` false: a uid is taken as it is (the token hot path, whose read of that
    /// user fails anyway when it is not there, and the full command then says why).
    func uid(in keystore: FileKeystore, verifying: Bool = true) throws -> String? {
        guard let user else { return nil }
        if !user.utf8.contains(UInt8(ascii: "@")) {
            guard verifying else { return user }
            guard try keystore.readUser(uid: user).users.contains(where: { $0.uid == user }) else { throw unknownUser(user) }
            return user
        }
        let email = user.lowercased()
        let matching = try keystore.readProfiles().users.filter { candidate in
            candidate.email?.lowercased() == email
                || candidate.providerData.contains { $0.profile.emailVerified && $0.profile.email?.lowercased() == email }
        }
        guard let first = matching.first else { throw unknownUser(user) }
        guard matching.count == 1 else {
            throw AuthError.invalidArgument(
                "\(sourceDescription) names the email \(Sanitize.text(user, limit: 80)), which \(matching.count) users have (\(matching.map(\.uid).joined(separator: ", "))): name the uid instead"
            )
        }
        return first.uid
    }

    private func unknownUser(_ user: String) -> AuthError {
        AuthError.chosenUserMissing(user, source: sourceDescription)
    }
}

/// The identity a command acts as, decided once by `Wiring.chosenIdentity` for every command
/// that reads a token (docs/identities.md): the chosen user's uid and why, and a rule's
/// provider (used when the command names none). All nil: the current user, as before rules.
struct ChosenIdentity: Equatable {
    var uid: String?
    var chosenBy: UserChoiceReason?
    var provider: String?

    static let current = ChosenIdentity()

    /// Why the user was chosen, in words: `--user`, `AUTHCTL_USER`, `rule 2 (work)`; nil: the current user.
    var sourceDescription: String? {
        switch chosenBy {
        case nil: nil
        case .option: "--user"
        case .environment: "AUTHCTL_USER"
        case .rule(let index, let name): "rule \(index)\(name.map { " (\($0))" } ?? "")"
        }
    }

    /// The command's provider, else the rule's.
    func providerID(_ given: String?) throws -> ProviderID? { try (given ?? provider).map(ProviderID.init(parsing:)) }
}

extension Wiring {
    /// THE choice of identity: `--user`, else `AUTHCTL_USER`, else the first rule that holds
    /// here, else the current user — the user resolved to a uid in the keystore. Every command
    /// that reads a token takes its user from here; the others refuse `--user`
    /// (`WiredCommand.takesUser`). `askedRemote`: the URL git asks a credential for.
    func chosenIdentity(askedRemote: String? = nil) throws -> ChosenIdentity {
        guard let choice = try identityChoice(askedRemote: askedRemote) else { return .current }
        let uid = try choice.uid(in: keystore())
        return ChosenIdentity(uid: uid, chosenBy: uid == nil ? nil : choice.reason, provider: choice.provider)
    }

    /// The choice for this command (`IdentityChoice`), config.json's rules read and validated
    /// (a rule that breaks the rules of `rules add` fails the command, naming the file and the
    /// rule). `askedRemote`: the URL git asks a credential for (`git-credential`).
    func identityChoice(askedRemote: String? = nil) throws -> IdentityChoice? {
        if let chosen = IdentityChoice.overriding(options, io: io) {
            guard IdentityChoice.isValidUser(chosen.user) else {
                throw AuthError.invalidArgument(
                    "AUTHCTL_USER '\(Sanitize.text(chosen.user ?? "", limit: 80))' is neither a uid nor an email address: set it to one (\(command: .usersList) shows both), or unset it"
                )
            }
            return chosen
        }
        // A file without rules is not validated here: the command does as it did before rules.
        let storage = io.configStorage(configPath)
        guard storage.mayHoldRules(), let data = try storage.read() else { return nil }
        let rules: [IdentityRule]
        switch ConfigRulesScan.rules(in: data) {
        case .none: return nil
        case .rules(let scanned): rules = scanned
        case .unsure: rules = try config.rules()
        }
        return IdentityChoice.winner(rules, io: io, askedRemote: askedRemote)
    }
}
