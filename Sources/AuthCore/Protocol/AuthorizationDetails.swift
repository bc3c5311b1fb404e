/// Rich authorization requests (RFC 9396): `authorization_details`, a JSON array of objects
/// each naming its `type`, sent with the authorization request (or pushed with it), granted
/// back in the token response and kept with the grant (`status --json` shows it).
///
/// The value is checked as it comes in — from `login --authorization-details` or a
/// provider's answer — and bounded: at most 64 entries and 64 KiB of JSON, each entry an
/// object whose `type` is a non-empty string (RFC 9396 §2). Nothing else of an entry is
/// interpreted: its meaning is the provider's.
public struct AuthorizationDetails: Sendable, Equatable {
    /// The entries, each an object with a string `type`.
    public let entries: [[String: JSONValue]]

    static let maximumEntries = 64
    public static let maximumBytes = 64 << 10

    /// The value when it is an array of at most 64 objects with a string `type`; else nil.
    public init?(_ value: JSONValue) {
        guard case .array(let items) = value, items.count <= Self.maximumEntries else { return nil }
        var entries: [[String: JSONValue]] = []
        for item in items {
            guard case .object(let object) = item, let type = object["type"]?.stringValue, !type.isEmpty else { return nil }
            entries.append(object)
        }
        self.entries = entries
        guard json.utf8.count <= Self.maximumBytes else { return nil }
    }

    /// The details given on the command line (`--authorization-details JSON`, or the contents
    /// of `@FILE`), checked; the error names what is wrong and what to give instead.
    public static func parse(_ text: String, source: String) throws -> AuthorizationDetails {
        let what = "\(source) must be a JSON array of objects, each with a \"type\" (RFC 9396), at most 64 of them and 64 KiB"
        guard text.utf8.count <= maximumBytes,
            let value = try? JSONDecoder().decode(JSONValue.self, from: Data(utf8: text))
        else { throw AuthError.invalidArgument("\(what): it is not JSON of that size. Example: '[{\"type\":\"account_information\"}]'") }
        guard let details = AuthorizationDetails(value) else {
            throw AuthError.invalidArgument("\(what). Example: '[{\"type\":\"account_information\",\"actions\":[\"read\"]}]'")
        }
        return details
    }

    /// The value as JSON text, members sorted: the `authorization_details` parameter, and the
    /// form the keystore keeps.
    public var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let value = JSONValue.array(entries.map(JSONValue.object))
        return (try? encoder.encode(value)).flatMap { String(data: $0, encoding: .utf8) } ?? "[]"
    }

    /// The `type` of each entry, in order.
    public var types: [String] { entries.compactMap { $0["type"]?.stringValue } }

    public var value: JSONValue { .array(entries.map(JSONValue.object)) }
}
