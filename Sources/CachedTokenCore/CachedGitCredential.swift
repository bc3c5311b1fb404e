/// `authctl git-credential PROVIDER get` as the front answers it (issue 37, docs/front.md): git's
/// description (`GitCredentialDescription`) read from the bytes git sent, the destination check
/// of `GitCredential.checkDestination`, and `GitCredential.answer`'s lines for a cached bearer
/// access token of the provider valid for more than `GitCredential.minimumTTL` (300 s). Nil
/// whenever the full program might do anything else: the front then hands the same bytes over.
public enum CachedGitCredential {
    /// `GitCredential.minimumTTL`.
    public static let minimumTTL = 300

    /// The attributes read: what the answer depends on.
    public struct Description: Equatable {
        public var attributes: [(key: String, value: String)] = []
        public static func == (a: Description, b: Description) -> Bool {
            a.attributes.elementsEqual(b.attributes) { $0.key == $1.key && $0.value == $1.value }
        }
        public subscript(key: String) -> String? { attributes.last(where: { $0.key == key })?.value }
        /// `values(of: "capability[]").contains(name)`: an empty value clears the list.
        public func announces(_ name: String) -> Bool {
            var found = false
            for attribute in attributes where attribute.key == "capability[]" {
                if attribute.value.isEmpty { found = false } else if attribute.value == name { found = true }
            }
            return found
        }
    }

    /// How many bytes the front reads at most before it decides (the full program stops at
    /// 64 KiB in all, a line of 8 KiB at most, so it never reads past this).
    public static let readLimit = 131_072

    /// Whether `bytes` (read so far) hold a whole description: a blank line.
    public static func isComplete(_ bytes: [UInt8]) -> Bool {
        if bytes.first == 10 { return true }
        var previous: UInt8 = 0
        for byte in bytes {
            if byte == 10, previous == 10 { return true }
            previous = byte
        }
        return false
    }

    /// The description in `bytes` (everything read: up to a blank line, or to the end of input),
    /// when the front is sure to read it as `GitCredentialDescription.read` does: lines of
    /// printable ASCII, each `key=value` and ended by a newline, within the limits. Nil otherwise.
    public static func description(_ bytes: [UInt8]) -> Description? {
        var description = Description()
        var total = 0
        var start = 0
        while start < bytes.count {
            guard let end = bytes[start...].firstIndex(of: 10) else { return nil }  // a last line without its newline
            if end == start { return description.attributes.isEmpty ? nil : description }  // the blank line
            let line = bytes[start..<end]
            total += line.count + 1
            guard line.count <= 8_192, total <= 65_536, line.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }),
                let equals = line.firstIndex(of: 0x3D)
            else { return nil }
            description.attributes.append(
                (String(decoding: line[..<equals], as: UTF8.self), String(decoding: line[(equals + 1)...], as: UTF8.self)))
            start = end + 1
        }
        // The end of input after whole lines. No line at all: the full program's (it refuses it).
        return description.attributes.isEmpty ? nil : description
    }

    /// `GitCredential.checkDestination`: https, or http to a loopback host.
    public static func isAllowedDestination(_ description: Description) -> Bool {
        let scheme = description["protocol"].map(lowercased)
        if scheme == "https" { return true }
        guard scheme == "http", let host = description["host"] else { return false }
        var name = Substring(host)
        if name.hasPrefix("[") {
            guard let close = name.firstIndex(of: "]") else { return false }
            name = name[name.index(after: name.startIndex)..<close]
        } else if let colon = name.firstIndex(of: ":") {
            name = name[..<colon]
        }
        let lower = lowercased(String(name))
        return lower == "127.0.0.1" || lower == "localhost" || lower == "::1"
    }

    static func lowercased(_ text: String) -> String {
        String(decoding: text.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }, as: UTF8.self)
    }

    /// The bytes `get` prints for `provider` (its stored form) from `user` at `now`; nil: the
    /// full program's (another destination, no such identity, no valid bearer token, DPoP,
    /// a token type other than Bearer, or a username that is not printable ASCII).
    public static func answer(_ description: Description, provider: String, user: CachedUser, now: Double) -> [UInt8]? {
        guard isAllowedDestination(description) else { return nil }
        var request = CachedTokenRequest()
        request.provider = provider
        request.minimumTTL = minimumTTL
        // The core's checks for a cached access token (identity, bearer, lifetime).
        guard CachedTokenAnswer.bytes(request, user: user, now: now) != nil,
            let identity = user.providerData.first(where: { $0.providerId == provider }), let tokens = identity.tokens,
            let token = tokens.accessToken, CachedTokenRequest.isPrintableASCII(token), !token.isEmpty
        else { return nil }
        let type = lowercased(tokens.tokenType)
        guard type == "bearer" || type.isEmpty else { return nil }
        var text = ""
        if description.announces("authtype") {
            text = "capability[]=authtype\nauthtype=Bearer\ncredential=" + token + "\nephemeral=true\n"
        } else {
            // `GitCredential.get`'s username: the profile's email, the user's, the federated id, the uid.
            if description["username"] == nil {
                let username = identity.email ?? user.email ?? identity.federatedId
                guard CachedTokenRequest.isPrintableASCII(username) else { return nil }
                text = "username=" + username + "\n"
            }
            text += "password=" + token + "\n"
        }
        if let expiresAt = tokens.expiresAt {
            guard expiresAt.isFinite else { return nil }
            text += "password_expiry_utc=" + String(Int64(max(0, min(expiresAt, 1e15)))) + "\n"
        }
        return TokenOutputBytes.bytes(text)
    }
}
