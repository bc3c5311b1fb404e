/// `authctl rules add|list|remove` (docs/identities.md): config.json's rules, changed under the
/// file's lock like the providers. Each rule is held to `IdentityRule.check` before it is
/// written; a name is unique.
public struct Rules: Sendable {
    let configStore: ConfigStore

    public init(configStore: ConfigStore) { self.configStore = configStore }

    /// The rules, validated with the rest of the file.
    public func list() throws -> [IdentityRule] { try configStore.rules() }

    /// Adds `rule` at `position` (from 1; nil: last); the rules as they are now.
    @discardableResult
    public func add(_ rule: IdentityRule, at position: Int? = nil) async throws -> [IdentityRule] {
        do {
            try rule.check()
        } catch {
            throw AuthError.invalidArgument(error.message)
        }
        var result: [IdentityRule] = []
        try await configStore.update { file in
            var rules = file.rules ?? []
            if let name = rule.name, rules.contains(where: { $0.name == name }) {
                throw AuthError.invalidArgument(
                    "a rule named '\(name)' exists already: give another name, or remove it first (\(command: .rulesRemove, "\(name)"))")
            }
            guard rules.count < IdentityRule.maximumCount else {
                throw AuthError.invalidArgument("config.json holds \(rules.count) rules, the most authctl reads: remove one first")
            }
            let index = min(max((position ?? rules.count + 1) - 1, 0), rules.count)
            rules.insert(rule, at: index)
            file.rules = rules
            result = rules
        }
        return result
    }

    /// Removes the rule named `reference`, or at that place (from 1); the rule removed.
    public func remove(_ reference: String) async throws -> IdentityRule {
        var removed: IdentityRule?
        try await configStore.update { file in
            var rules = file.rules ?? []
            let index: Int? =
                rules.firstIndex { $0.name == reference } ?? Int(reference).flatMap { rules.indices.contains($0 - 1) ? $0 - 1 : nil }
            guard let index else {
                throw AuthError.invalidArgument(
                    "there is no rule '\(Sanitize.text(reference, limit: 60))': give a rule's name or number, as \(command: .rulesList) shows them"
                )
            }
            removed = rules.remove(at: index)
            file.rules = rules.isEmpty ? nil : rules
        }
        guard let removed else { throw AuthError.internalError("the rule to remove was not found") }
        return removed
    }
}
