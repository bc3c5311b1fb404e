/// A `WWW-Authenticate` challenge of a protected resource (RFC 9110 §11.6.1) for the
/// `Bearer` scheme (RFC 6750 §3) or `DPoP` (RFC 9449 §7.1), with the parameters authctl acts
/// on: `error` (`invalid_token`, `insufficient_scope`, RFC 9470's
/// `insufficient_user_authentication`), `scope`, `resource_metadata` (RFC 9728 §5.1),
/// `acr_values` and `max_age` (RFC 9470 §3). Parsed from the header's text only: bounded,
/// and a malformed header is no challenge rather than an error.
public struct BearerChallenge: Sendable, Equatable {
    /// `Bearer` or `DPoP`, as sent.
    public var scheme: String
    /// Every auth-param, names in lower case, values unquoted.
    public var parameters: [String: String]

    public var error: String? { parameters["error"] }
    /// `scope`: the scopes the resource needs (space-separated on the wire).
    public var scopes: [String] { (parameters["scope"] ?? "").split(separator: " ").map(String.init) }
    public var resourceMetadata: String? { parameters["resource_metadata"] }
    /// RFC 9470 §3: the authentication context classes the resource asks for.
    public var acrValues: String? { parameters["acr_values"] }
    /// RFC 9470 §3: the most seconds since the person authenticated.
    public var maxAge: Int? { parameters["max_age"].flatMap { Int($0) }.flatMap { (0...1_000_000_000).contains($0) ? $0 : nil } }

    public init(scheme: String, parameters: [String: String]) {
        self.scheme = scheme
        self.parameters = parameters
    }

    /// The longest header read.
    static let headerLimit = 8192

    /// The `Bearer` (or `DPoP`) challenges of a `WWW-Authenticate` value; several challenges
    /// may share one header (RFC 9110 §11.6.1).
    public static func parse(_ header: String) -> [BearerChallenge] {
        guard header.utf8.count <= headerLimit else { return [] }
        var scanner = Scanner(Array(header.unicodeScalars))
        var challenges: [BearerChallenge] = []
        while !scanner.atEnd {
            scanner.skip(while: { $0 == " " || $0 == "\t" || $0 == "," })
            guard let scheme = scanner.token(), !scheme.isEmpty else { break }
            var parameters: [String: String] = [:]
            while true {
                let mark = scanner.position
                scanner.skip(while: { $0 == " " || $0 == "\t" || $0 == "," })
                guard let name = scanner.token(), !name.isEmpty else { break }
                scanner.skip(while: { $0 == " " || $0 == "\t" })
                guard scanner.take("=") else {
                    // Not `name=`: the next challenge's scheme (or token68).
                    scanner.position = mark
                    break
                }
                scanner.skip(while: { $0 == " " || $0 == "\t" })
                guard let value = scanner.quoted() ?? scanner.token() else { return challenges }
                if parameters[name.lowercased()] == nil { parameters[name.lowercased()] = value }
            }
            let lower = scheme.lowercased()
            if lower == "bearer" || lower == "dpop" {
                challenges.append(BearerChallenge(scheme: scheme, parameters: parameters))
            }
            if scanner.position == 0 { break }
        }
        return challenges
    }

    private struct Scanner {
        let scalars: [Unicode.Scalar]
        var position = 0
        init(_ scalars: [Unicode.Scalar]) { self.scalars = scalars }
        var atEnd: Bool { position >= scalars.count }

        mutating func skip(while test: (Unicode.Scalar) -> Bool) {
            while position < scalars.count, test(scalars[position]) { position += 1 }
        }

        mutating func take(_ character: Unicode.Scalar) -> Bool {
            guard position < scalars.count, scalars[position] == character else { return false }
            position += 1
            return true
        }

        /// An RFC 9110 token (token68's `=`, `/`, `+` included for values).
        mutating func token() -> String? {
            let start = position
            skip { scalar in
                scalar.isASCII && scalar.value > 0x20 && scalar.value < 0x7F && !"\"(),;<>@[\\]{}=".unicodeScalars.contains(scalar)
                    || "/+".unicodeScalars.contains(scalar)
            }
            // A token68 may end in `=`s; a name never does, and the caller sees the `=` next.
            guard position > start else { return nil }
            var text = ""
            text.unicodeScalars.append(contentsOf: scalars[start..<position])
            return text
        }

        /// A quoted-string, its escapes undone; nil (position kept) when none starts here.
        mutating func quoted() -> String? {
            guard position < scalars.count, scalars[position] == "\"" else { return nil }
            var index = position + 1
            var text = ""
            while index < scalars.count {
                let scalar = scalars[index]
                if scalar == "\"" {
                    position = index + 1
                    return text
                }
                if scalar == "\\", index + 1 < scalars.count {
                    index += 1
                }
                // Control characters never reach a message.
                if scalars[index].value < 0x20 || scalars[index].value == 0x7F { return nil }
                text.unicodeScalars.append(scalars[index])
                index += 1
            }
            return nil
        }
    }
}
