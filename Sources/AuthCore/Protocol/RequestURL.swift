/// The URL `authctl request` sends (docs/resources.md, "The URL checked is the URL sent"):
/// its path with the dot segments removed (RFC 3986 §5.2.4) before the grant that covers it
/// is chosen, and sent as it is (libcurl does not normalise it again, `CURLOPT_PATH_AS_IS`).
/// A path that a server could decode into other segments than those checked — a
/// percent-encoded dot, slash or backslash (`%2e`, `%2f`, `%5c`) or a backslash — is refused.
/// `https://api.example.com/mcp/x/../items?q=a/../b` → `https://api.example.com/mcp/items?q=a/../b`;
/// `https://api.example.com/mcp/../admin` → `https://api.example.com/admin`. The fragment,
/// which is never sent, is dropped.
public enum RequestURL {
    /// `text` as the URL to check and send; refuses encoded dots, slashes and backslashes in
    /// its path.
    public static func normalized(_ text: String) throws -> URL {
        guard let schemeEnd = text.firstRange(of: "://") else {
            throw AuthError.invalidArgument("'\(Sanitize.text(text, limit: 100))' is not a URL. Give the resource's https:// address")
        }
        let afterScheme = text[schemeEnd.upperBound...]
        let withoutFragment = afterScheme.prefix { $0 != "#" }
        let authorityEnd = withoutFragment.firstIndex { $0 == "/" || $0 == "?" } ?? withoutFragment.endIndex
        let pathEnd = withoutFragment[authorityEnd...].firstIndex(of: "?") ?? withoutFragment.endIndex
        let path = String(withoutFragment[authorityEnd..<pathEnd])
        if path.contains("\\") || withoutFragment[..<authorityEnd].contains("\\") {
            throw AuthError.invalidArgument(
                "the URL's path holds a backslash, which some servers read as '/': the resource could receive another path than the one authctl checks against your grants. Write the path with '/' only"
            )
        }
        let lowered = path.lowercased()
        if let encoded = ["%2e", "%2f", "%5c"].first(where: { lowered.contains($0) }) {
            throw AuthError.invalidArgument(
                "the URL's path holds \(encoded.uppercased()), an encoded \(encoded == "%2e" ? "dot" : encoded == "%2f" ? "slash" : "backslash"), which the resource could decode into another path than the one authctl checks against your grants. Write the path without it (a dot as '.', segments separated by '/')"
            )
        }
        let made =
            String(text[..<schemeEnd.upperBound]) + String(withoutFragment[..<authorityEnd]) + removingDotSegments(path)
            + String(withoutFragment[pathEnd...])
        guard let url = URL(string: made) else {
            throw AuthError.invalidArgument("'\(Sanitize.text(text, limit: 100))' is not a URL. Give the resource's https:// address")
        }
        return url
    }

    /// `url` as the URL to check and send (`normalized(_:)` of its text).
    public static func normalized(_ url: URL) throws -> URL { try normalized(url.absoluteString) }

    /// RFC 3986 §5.2.4 `remove_dot_segments`, on the path as written (percent-encoded):
    /// `/a/b/c/./../../g` → `/a/g`.
    public static func removingDotSegments(_ path: String) -> String {
        var input = Substring(path)
        var output = ""
        func dropLastSegment() {
            if let slash = output.lastIndex(of: "/") { output = String(output[..<slash]) } else { output = "" }
        }
        while !input.isEmpty {
            if input.hasPrefix("../") {
                input = input.dropFirst(3)
            } else if input.hasPrefix("./") {
                input = input.dropFirst(2)
            } else if input.hasPrefix("/./") {
                input = Substring("/" + input.dropFirst(3))
            } else if input == "/." {
                input = "/"
            } else if input.hasPrefix("/../") {
                input = Substring("/" + input.dropFirst(4))
                dropLastSegment()
            } else if input == "/.." {
                input = "/"
                dropLastSegment()
            } else if input == "." || input == ".." {
                input = ""
            } else {
                let start = input.hasPrefix("/") ? input.index(after: input.startIndex) : input.startIndex
                let end = input[start...].firstIndex(of: "/") ?? input.endIndex
                output += input[..<end]
                input = input[end...]
            }
        }
        return output
    }
}
