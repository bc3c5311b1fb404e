import Synchronization

/// `application/x-www-form-urlencoded` as the OAuth specs use it (RFC 6749 Appendix B).
public enum FormURLEncoding {
    /// The unreserved characters of RFC 3986 §2.3, the only bytes not percent-encoded.
    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
        case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"): true
        default: false
        }
    }

    /// Every byte of the UTF-8 form outside the unreserved set as `%XX` (upper-case hex).
    public static func escape(_ string: String) -> String {
        PercentEncoding.encode(string, keeping: isUnreserved)
    }

    public static func encode(_ parameters: [(String, String)]) -> String {
        parameters.map { "\(escape($0.0))=\(escape($0.1))" }.joined(separator: "&")
    }

    /// Decodes a query string or form body into ordered pairs; `+` is a space.
    /// Returns nil when a percent escape is malformed.
    public static func decode(_ string: some StringProtocol) -> [(String, String)]? {
        var pairs: [(String, String)] = []
        for piece in String(string).split(separator: "&", omittingEmptySubsequences: true) {
            let parts = piece.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func unescape(_ s: Substring) -> String? {
                PercentEncoding.decode(s.replacingEvery("+", with: " "))
            }
            guard let name = unescape(parts[0]) else { return nil }
            guard let value = parts.count > 1 ? unescape(parts[1]) : "" else { return nil }
            pairs.append((name, value))
        }
        return pairs
    }
}
