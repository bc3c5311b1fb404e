/// One rule of config.json's `rules` (docs/identities.md): which identity a command uses when
/// it runs where the conditions hold — under a directory, in a repository with a remote, with
/// a kubectl context, with an environment variable. Every condition given must hold; the
/// first rule (in the file's order) whose conditions all hold wins. It names a user (uid or
/// email), a provider, or both; `token`, `exec`, `git-credential` and `status` then use that
/// user without making it the current user.
///
///     {"name": "work", "user": "alice@contoso.com", "provider": "microsoft.com",
///      "directory": "~/work/", "remote": "https://dev.azure.com/contoso/**"}
public struct IdentityRule: Codable, Sendable, Equatable {
    /// A name to remove it by and to see it in `rules explain` (letters, digits, `.`, `_`, `-`).
    public var name: String?
    /// The user: a uid, or an email (the user's own email or a verified identity's).
    public var user: String?
    /// The provider whose token to give (as `authctl token PROVIDER`); an alias is kept as written.
    public var provider: String?
    /// A directory (absolute, or under `~/`) the working directory is in, symbolic links
    /// resolved; wildcards as `Glob` reads them.
    public var directory: String?
    /// A pattern of the repository's remote URLs (`https://dev.azure.com/contoso/**`), or of
    /// the URL git asks a credential for.
    public var remote: String?
    /// A pattern of kubectl's current context.
    public var kubeContext: String?
    /// `NAME` (set and not empty) or `NAME=VALUE` (equal).
    public var env: String?

    public init(
        name: String? = nil, user: String? = nil, provider: String? = nil, directory: String? = nil, remote: String? = nil,
        kubeContext: String? = nil, env: String? = nil
    ) {
        self.name = name
        self.user = user
        self.provider = provider
        self.directory = directory
        self.remote = remote
        self.kubeContext = kubeContext
        self.env = env
    }

    /// The most rules a file may hold.
    public static let maximumCount = 256

    /// The conditions, in the order they are looked at (the cheapest first).
    public enum Condition: String, Sendable, Equatable, CaseIterable {
        case env, directory, kubeContext, remote
    }

    public func pattern(of condition: Condition) -> String? {
        switch condition {
        case .env: env
        case .directory: directory
        case .kubeContext: kubeContext
        case .remote: remote
        }
    }

    /// No condition at all (`check` refuses such a rule).
    var conditionsEmpty: Bool { env == nil && directory == nil && kubeContext == nil && remote == nil }

    public var conditions: [(Condition, String)] {
        Condition.allCases.compactMap { condition in pattern(of: condition).map { (condition, $0) } }
    }

    /// The user as a uid, or nil when it is an email (an email holds `@`, which no uid does).
    public var userUID: String? { user.flatMap { $0.utf8.contains(UInt8(ascii: "@")) ? nil : $0 } }

    /// A field that breaks a rule of `rules add`: its config.json key and what is wrong.
    public struct FieldError: Error, Sendable, Equatable {
        public var field: String
        public var message: Message
        /// The rule's place in the file (from 1), when known.
        public var index: Int?
    }

    /// Holds the rule to the rules of `rules add`.
    public func check() throws(FieldError) {
        func refuse(_ field: String, _ message: Message) -> FieldError { FieldError(field: field, message: message) }
        if let name {
            guard Self.isName(name) else {
                throw refuse(
                    "name",
                    "'\(Sanitize.text(name, limit: 60))' is not a rule name: give 1 to 64 letters, digits, '.', '_' or '-', not all digits")
            }
        }
        guard user != nil || provider != nil else {
            throw refuse("user", "a rule names a user (a uid or an email), a provider, or both")
        }
        if let user {
            guard Self.isUser(user) else {
                throw refuse("user", "'\(Sanitize.text(user, limit: 80))' is neither a uid nor an email address")
            }
        }
        if let provider {
            do {
                _ = try ProviderID(parsing: provider)
            } catch {
                throw refuse("provider", (error as? AuthError)?.message ?? "'\(Sanitize.text(provider, limit: 60))' is not a provider id")
            }
        }
        guard !conditionsEmpty else {
            throw refuse(
                "directory", "a rule needs at least one condition: a directory, a remote, a kube context or an environment variable")
        }
        if let directory {
            guard directory == "~" || directory.hasPrefix("~/") || directory.hasPrefix("/"), Self.isPrintable(directory, limit: 4096)
            else {
                throw refuse(
                    "directory", "'\(Sanitize.text(directory, limit: 80))' is not a directory: give an absolute path, or one under ~/")
            }
        }
        if let remote {
            guard Self.isPrintable(remote, limit: 2048), !remote.utf8.contains(0x20) else {
                throw refuse(
                    "remote", "'\(Sanitize.text(remote, limit: 80))' is not a remote URL pattern (no spaces, at most 2048 characters)")
            }
        }
        if let kubeContext {
            guard Self.isPrintable(kubeContext, limit: 253) else {
                throw refuse("kubeContext", "'\(Sanitize.text(kubeContext, limit: 80))' is not a kube context name")
            }
        }
        if let env {
            guard Self.isVariableCondition(env) else {
                throw refuse(
                    "env",
                    "'\(Sanitize.text(env, limit: 80))' is not NAME or NAME=VALUE (NAME: letters, digits and _, not starting with a digit)")
            }
        }
    }

    static func isName(_ name: String) -> Bool {
        (1...64).contains(name.utf8.count) && !name.utf8.allSatisfy { (48...57).contains($0) }
            && name.utf8.allSatisfy { byte in
                (48...57).contains(byte) || (65...90).contains(byte) || (97...122).contains(byte) || byte == 45 || byte == 46 || byte == 95
            }
    }

    /// Whether `text` names a user as `--user` and a rule do: a uid or an email address.
    public static func isUserSelector(_ text: String) -> Bool { isUser(text) }

    static func isUser(_ user: String) -> Bool {
        if UIDSyntax.isUID(user) { return true }
        // An email: something@something, printable, no spaces.
        guard isPrintable(user, limit: 320), !user.utf8.contains(0x20), let at = user.utf8.firstIndex(of: UInt8(ascii: "@")) else {
            return false
        }
        return at != user.utf8.startIndex && user.utf8.index(after: at) != user.utf8.endIndex
    }

    /// Not empty, at most `limit` bytes, no control character (U+0000–U+001F, U+007F): checked on
    /// the bytes, which in valid UTF-8 says the same as on the scalars.
    static func isPrintable(_ text: String, limit: Int) -> Bool {
        !text.isEmpty && text.utf8.count <= limit && text.utf8.allSatisfy { $0 >= 0x20 && $0 != 0x7F }
    }

    static func isVariableCondition(_ text: String) -> Bool {
        let name = text.utf8.prefix { $0 != UInt8(ascii: "=") }
        guard let first = name.first, !(48...57).contains(first), name.count <= 128, isPrintable(text, limit: 4096) else {
            return false
        }
        return name.allSatisfy { byte in
            (48...57).contains(byte) || (65...90).contains(byte) || (97...122).contains(byte) || byte == 95
        }
    }

    /// The rules of a file: each by `check`, and names unique.
    public static func check(_ rules: [IdentityRule]) throws(FieldError) {
        guard rules.count <= maximumCount else {
            throw FieldError(field: "rules", message: "there are \(rules.count) rules; at most \(maximumCount) are read", index: nil)
        }
        var names: [String] = []
        for (index, rule) in rules.enumerated() {
            do {
                try rule.check()
            } catch {
                var problem = error
                problem.index = index + 1
                throw problem
            }
            if let name = rule.name {
                guard !names.contains(name) else {
                    throw FieldError(field: "name", message: "two rules are named '\(name)': names must differ", index: index + 1)
                }
                names.append(name)
            }
        }
    }
}

extension AuthError {
    /// The user a rule, `--user` or `AUTHCTL_USER` names (`source`, in the command line's
    /// words) is not in the keystore: `no-current-user`, as nobody is signed in as that user.
    public static func chosenUserMissing(_ user: String, source: String) -> AuthError {
        .noCurrentUser(
            message:
                "\(source) names the user \(Sanitize.text(user, limit: 80)), who is not in the keystore. Sign in as that user first (\(command: .login, "PROVIDER")), or see who is there: \(command: .usersList)"
        )
    }
}
