/// A provider id (docs/accounts.md): `microsoft.com`, `apple.com`, or `oidc.<name>` with a name of
/// lower-case letters, digits, `-` and `_`. `microsoft` and `apple` are accepted aliases.
public struct ProviderID: Sendable, Hashable, Comparable, CustomStringConvertible {
    public enum Kind: Sendable, Hashable {
        case microsoft
        case apple
        case oidc(name: String)
    }

    public let rawValue: String
    public let kind: Kind

    public init(parsing text: String) throws {
        switch text {
        case "microsoft", "microsoft.com":
            rawValue = "microsoft.com"
            kind = .microsoft
        case "apple", "apple.com":
            rawValue = "apple.com"
            kind = .apple
        default:
            let name = text.hasPrefix("oidc.") ? String(text.dropFirst(5)) : ""
            // Bytes, not a `Set` of Characters: its first use costs the token hot path a search of
            // the protocol conformances (bench/README.md); the allowed characters are ASCII.
            let allowed = name.utf8.allSatisfy { (97...122).contains($0) || (48...57).contains($0) || $0 == 45 || $0 == 95 }
            guard !name.isEmpty, name.utf8.count <= 64, allowed else {
                // A bare name that would make an oidc id (`corp`): oidc.corp is what was meant.
                let bare =
                    !text.isEmpty && text.utf8.count <= 64
                    && text.utf8.allSatisfy { (97...122).contains($0) || (48...57).contains($0) || $0 == 45 || $0 == 95 }
                let nearest =
                    text == "oidc" || text == "oidc."
                    ? "oidc.NAME"
                    : Suggestion.closest(to: text, among: ["microsoft", "microsoft.com", "apple", "apple.com"])
                        ?? (bare ? "oidc." + text : nil)
                throw AuthError.invalidArgument(
                    "'\(Sanitize.text(text, limit: 80))' is not a provider id.\(nearest.map { " Did you mean \($0)?" } ?? "") Use microsoft.com, apple.com or oidc.NAME (NAME: lower-case letters, digits, - and _)"
                )
            }
            rawValue = text
            kind = .oidc(name: name)
        }
    }

    public var description: String { rawValue }
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}
