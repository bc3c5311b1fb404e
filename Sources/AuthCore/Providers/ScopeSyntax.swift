/// One OAuth scope (RFC 6749 §3.3: `scope-token = 1*NQCHAR`, printable ASCII without
/// space, `"` and `\`).
public enum ScopeSyntax {
    public static func isValid(_ scope: String) -> Bool {
        !scope.isEmpty && scope.utf8.allSatisfy { $0 == 0x21 || (0x23...0x5B).contains($0) || (0x5D...0x7E).contains($0) }
    }

    public static func check(_ scope: String, option: Message.Input) throws {
        guard isValid(scope) else {
            throw AuthError.invalidArgument(
                "\(input: option) '\(Sanitize.text(scope, limit: 60))' is not one scope: printable ASCII without spaces, quotes or backslashes (RFC 6749 §3.3). Repeat \(input: option) for several"
            )
        }
    }
}
