/// The choice of an identity by config.json's rules (docs/identities.md): the first rule whose
/// conditions all hold wins. Pure but for the facts `RuleContext` gives, each asked once and
/// only when a condition needs it (so a rule on an environment variable reads no file).
public enum IdentityRules {
    /// What one condition of one rule found.
    public struct ConditionResult: Sendable, Equatable {
        public var condition: IdentityRule.Condition
        public var pattern: String
        /// What it was compared with (the working directory, the remotes, the context; for a
        /// variable only `(set)`, never its value); empty when there was nothing to compare.
        public var found: [String]
        public var holds: Bool
    }

    /// One rule looked at: whether it won, and each condition's result (those after the
    /// first that failed are not looked at, and not listed).
    public struct Evaluation: Sendable, Equatable {
        /// Its place in the file, from 1.
        public var index: Int
        public var rule: IdentityRule
        public var conditions: [ConditionResult]
        public var matches: Bool { conditions.allSatisfy(\.holds) && !conditions.isEmpty }
    }

    /// The winning rule and its place (from 1), or nil.
    public static func winner(_ rules: [IdentityRule], in context: any RuleContext) -> (index: Int, rule: IdentityRule)? {
        let facts = Facts(context)
        for index in rules.indices where holds(rules[index], facts: facts) { return (index + 1, rules[index]) }
        return nil
    }

    /// Rules looked at one by one, the facts shared (the token hot path, `ConfigRulesScan.firstMatch`).
    public struct Chooser {
        let facts: Facts
        public init(_ context: any RuleContext) { facts = Facts(context) }
        public func holds(_ rule: IdentityRule) -> Bool { IdentityRules.holds(rule, facts: facts) }
    }

    /// Every rule looked at (`rules explain`), the winner being the first that matches.
    public static func explain(_ rules: [IdentityRule], in context: any RuleContext) -> [Evaluation] {
        let facts = Facts(context)
        return rules.enumerated().map { evaluate($1, index: $0 + 1, facts: facts) }
    }

    /// Whether every condition of `rule` holds: `evaluate` without its record (whose arrays
    /// cost the token hot path), in the same order.
    static func holds(_ rule: IdentityRule, facts: Facts) -> Bool {
        guard !rule.conditionsEmpty else { return false }
        if let pattern = rule.env, !envHolds(pattern, facts: facts) { return false }
        if let pattern = rule.directory {
            guard let directory = facts.workingDirectory, directoryMatches(pattern, directory, context: facts.context) else { return false }
        }
        if let pattern = rule.kubeContext {
            guard let context = facts.kubeContext, Glob.matches(pattern, context) else { return false }
        }
        if let pattern = rule.remote {
            let wanted = RemoteURL.normalized(pattern)
            guard facts.normalizedRemotes.contains(where: { Glob.matches(wanted, $0) }) else { return false }
        }
        return true
    }

    static func envHolds(_ pattern: String, facts: Facts) -> Bool {
        let equals = pattern.utf8.firstIndex(of: UInt8(ascii: "="))
        let name = equals.map { String(pattern[..<$0]) } ?? pattern
        let value = facts.context.variable(name)
        return equals.map { value == String(pattern[pattern.index(after: $0)...]) } ?? !(value ?? "").isEmpty
    }

    static func evaluate(_ rule: IdentityRule, index: Int, facts: Facts) -> Evaluation {
        var results: [ConditionResult] = []
        for (condition, pattern) in rule.conditions {
            let result = check(condition, pattern, facts: facts)
            results.append(result)
            if !result.holds { break }
        }
        return Evaluation(index: index, rule: rule, conditions: results)
    }

    static func check(_ condition: IdentityRule.Condition, _ pattern: String, facts: Facts) -> ConditionResult {
        switch condition {
        case .env:
            let value = facts.context.variable(String(pattern.utf8.prefix { $0 != UInt8(ascii: "=") }) ?? pattern)
            let holds = envHolds(pattern, facts: facts)
            // The value itself is never shown (a variable may hold a secret): only whether it is set.
            return ConditionResult(condition: .env, pattern: pattern, found: (value ?? "").isEmpty ? [] : ["(set)"], holds: holds)
        case .directory:
            guard let directory = facts.workingDirectory else {
                return ConditionResult(condition: .directory, pattern: pattern, found: [], holds: false)
            }
            return ConditionResult(
                condition: .directory, pattern: pattern, found: [directory],
                holds: directoryMatches(pattern, directory, context: facts.context))
        case .kubeContext:
            guard let context = facts.kubeContext else {
                return ConditionResult(condition: .kubeContext, pattern: pattern, found: [], holds: false)
            }
            return ConditionResult(condition: .kubeContext, pattern: pattern, found: [context], holds: Glob.matches(pattern, context))
        case .remote:
            // Compared (and shown) without a user name or password: a remote URL may carry a token.
            let remotes = facts.normalizedRemotes
            let wanted = RemoteURL.normalized(pattern)
            return ConditionResult(
                condition: .remote, pattern: pattern, found: remotes, holds: remotes.contains { Glob.matches(wanted, $0) })
        }
    }

    /// Whether `directory` (real, absolute) is the rule's directory or under it. `~` is the home
    /// directory; a directory without wildcards is compared with its symbolic links resolved too.
    public static func directoryMatches(_ pattern: String, _ directory: String, context: any RuleContext) -> Bool {
        // (Concrete String operations only: a generic `append(contentsOf:)` or an array of
        // optionals costs the token hot path a run-time type lookup, bench/README.md.)
        var expanded = pattern
        if pattern == "~" || pattern.hasPrefix("~/") {
            guard let home = context.homeDirectory() else { return false }
            expanded = home + String(pattern.dropFirst())
        }
        while expanded.utf8.count > 1, expanded.hasSuffix("/") { expanded.removeLast() }
        if Glob.hasWildcards(expanded) {
            return Glob.matches(expanded, directory) || Glob.matches(expanded + "/**", directory)
        }
        if isSameOrUnder(directory, expanded) { return true }
        guard let real = context.realPath(expanded), real != expanded else { return false }
        return isSameOrUnder(directory, real)
    }

    static func isSameOrUnder(_ directory: String, _ base: String) -> Bool {
        directory == base || directory.hasPrefix(base == "/" ? "/" : base + "/")
    }

    /// The facts, each asked of the context once.
    final class Facts {
        let context: any RuleContext
        init(_ context: any RuleContext) { self.context = context }
        lazy var workingDirectory: String? = context.workingDirectory()
        lazy var normalizedRemotes: [String] = context.gitRemotes().map(RemoteURL.normalized)
        lazy var kubeContext: String? = context.kubeContext()
    }
}

/// A remote URL as rules compare it: scheme and host in lower case, no user name or password,
/// no trailing `/` or `.git`; git's scp-like `user@host:path` is `ssh://host/path`.
public enum RemoteURL {
    public static func normalized(_ url: String) -> String {
        // On the bytes, ASCII case only (scheme and host are ASCII; a full Unicode lowercasing
        // costs the token hot path).
        let bytes = Array(url.utf8)
        let colon = UInt8(ascii: ":"), slash = UInt8(ascii: "/"), at = UInt8(ascii: "@")
        var scheme: [UInt8] = Array("ssh".utf8)
        var rest = bytes[...]
        if let index = bytes.firstIndex(of: colon) {
            if bytes[index...].starts(with: [colon, slash, slash]) {
                scheme = bytes[..<index].map(lowercase)
                rest = bytes[(index + 3)...]
            } else if !bytes[..<index].contains(slash) {
                // scp-like: [user@]host:path
                rest = (Array(bytes[..<index]) + [slash] + Array(bytes[(index + 1)...]))[...]
            } else {
                return url
            }
        } else {
            return url
        }
        let hostEnd = rest.firstIndex(of: slash) ?? rest.endIndex
        var authority = rest[..<hostEnd]
        if let index = authority.lastIndex(of: at) { authority = authority[(index + 1)...] }
        var path = Array(rest[hostEnd...])
        while path.last == slash { path.removeLast() }
        if path.count >= 4, path.suffix(4).elementsEqual(".git".utf8) { path.removeLast(4) }
        return String(decoding: scheme + [colon, slash, slash] + authority.map(lowercase) + path, as: UTF8.self)
    }

    static func lowercase(_ byte: UInt8) -> UInt8 { (65...90).contains(byte) ? byte | 0x20 : byte }
}
