/// Why a command acts as a user other than the current one (docs/identities.md): `--user`,
/// `AUTHCTL_USER`, or a rule of config.json. A use case given a user this way names that user
/// and this reason in its errors, never "the current user" (issue 35).
public enum UserChoiceReason: Sendable, Equatable {
    /// `--user`.
    case option
    /// `AUTHCTL_USER`.
    case environment
    /// The rule at this place of config.json (from 1), and its name.
    case rule(index: Int, name: String?)
}

extension Message {
    /// Who a command acts as, in its messages: `the current user (ada@example.com)`, or
    /// `ada@example.com (chosen by rule 2 (work))`.
    static func subject(_ user: User, chosenBy reason: UserChoiceReason?, namingCurrent: Bool = false) -> Message {
        let name = Sanitize.text(user.email ?? user.uid, limit: 80)
        switch reason {
        case nil: return namingCurrent ? "the current user (\(name))" : "the current user"
        case .option: return "\(name) (chosen by \(input: .user))"
        case .environment: return "\(name) (chosen by AUTHCTL_USER)"
        case .rule(let index, let rule):
            return "\(name) (chosen by rule \(index)\(rule.map { " (\(Sanitize.text($0, limit: 40)))" } ?? ""))"
        }
    }

    /// What to do when the user a command acts as lacks the identity it needs.
    static func linkNextStep(_ providerID: String, chosenBy reason: UserChoiceReason?) -> Message {
        switch reason {
        case nil: "Link it with: \(command: .link, "\(providerID)")"
        case .rule:
            "See why that rule holds here: \(command: .rulesExplain); or link it to that user: \(command: .link, "\(providerID)") while that user is current"
        case .option, .environment:
            "Name another user, or link it to that user: \(command: .link, "\(providerID)") while that user is current"
        }
    }
}
