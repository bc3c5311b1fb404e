/// `authctl token --resource URL` as the token front answers it (docs/front.md): the current
/// user's grant whose resource covers the URL (`User.resourceGrant(for:)`: the longest, then the
/// newest), its bearer access token valid for more than `--min-ttl`, and — when the token is a
/// JWT — an `aud` that names the grant's resource (`ResourceAudience.check`). The front judges
/// only URLs of a plain form, where the full program's parsing (`ResourceIdentifier`,
/// `RequestURL`) changes nothing, so that string comparisons give its answers; anything else,
/// and every doubt, is the full program's (nil).
public enum CachedResourceAnswer {
    /// The bytes printed for `request` (its `resource` set) from `user` at `now`.
    public static func bytes(_ request: CachedTokenRequest, user: CachedUser, now: Double) -> [UInt8]? {
        // The full program refuses a provider, --id-token or --scope with --resource; kubectl's
        // format is its own to print for a resource.
        guard let resource = request.resource, request.provider == nil, !request.idToken, request.format != .kubectlExec,
            isPlainResource(resource)
        else { return nil }
        guard let (_, accessToken) = usableToken(for: resource, user: user, minimumTTL: request.minimumTTL, now: now) else {
            return nil
        }
        switch request.format {
        case .raw: return TokenOutputBytes.bytes(accessToken + "\n")
        case .header: return TokenOutputBytes.bytes("Authorization: Bearer " + accessToken + "\n")
        case .headersJSON: return TokenOutputBytes.headersJSON(authorization: "Bearer " + accessToken, dpop: nil)
        case .kubectlExec: return nil
        }
    }

    /// The grant the full program chooses for `resource` (a plain URL) and its access token,
    /// when the front can judge it and the token is what `ResourceTokens.token(for:)` returns
    /// from cache: a bearer token valid for more than `minimumTTL` seconds (and one more), not
    /// marked for a new sign-in, whose `aud` (a JWT's) names the grant's resource. Nil for
    /// every other case (a refresh, a refusal, a grant of a form the front does not judge).
    public static func usableToken(for resource: String, user: CachedUser, minimumTTL: Int, now: Double)
        -> (grant: CachedGrant, accessToken: String)?
    {
        var chosen: CachedGrant?
        for grant in user.resourceGrants {
            // A grant the front cannot judge may be the one the full program chooses.
            guard isPlainResource(grant.resource) else { return nil }
            guard covers(grant.resource, resource) else { continue }
            if let best = chosen {
                let longer = grant.resource.utf8.count > best.resource.utf8.count
                let newer = grant.resource.utf8.count == best.resource.utf8.count && grant.grantedAt > best.grantedAt
                if longer || newer { chosen = grant }
            } else {
                chosen = grant
            }
        }
        guard let grant = chosen, let tokens = grant.tokens, let accessToken = tokens.accessToken, tokens.needsSignInSince == nil,
            CachedTokenAnswer.isBearer(tokens.tokenType),
            CachedTokenAnswer.isValidWithSpare(tokens.expiresAt, minimumTTL: minimumTTL, now: now),
            audienceNames(accessToken, resource: grant.resource)
        else { return nil }
        return (grant, accessToken)
    }

    /// `ResourceIdentifier.covers` on plain forms: the same resource, or one below it at a `/`.
    static func covers(_ grant: String, _ url: String) -> Bool {
        url == grant || (url.utf8.count > grant.utf8.count + 1 && url.hasPrefix(grant + "/"))
    }

    /// A resource URL the full program reads as it is written (its `ResourceIdentifier` is the
    /// same text): `https://` and a lower-case host of letters, digits, `-` and dots between
    /// labels, or `http://127.0.0.1`; a port of 1–65535 without leading zeros; a path of
    /// segments of unreserved characters (RFC 3986: letters, digits, `-._~`) that are not `.`
    /// or `..`, without a trailing `/`; no query, fragment, user or escape; 2,048 bytes at most.
    public static func isPlainResource(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count <= 2048 else { return false }
        var index: Int
        var loopbackOnly = false
        if bytes.starts(with: Array("https://".utf8)) {
            index = 8
        } else if bytes.starts(with: Array("http://".utf8)) {
            index = 7
            loopbackOnly = true
        } else {
            return false
        }
        // The host: labels of [a-z0-9-], one dot between them.
        let hostStart = index
        var labelLength = 0
        while index < bytes.count, bytes[index] != UInt8(ascii: ":"), bytes[index] != UInt8(ascii: "/") {
            let byte = bytes[index]
            if byte == UInt8(ascii: ".") {
                guard labelLength > 0 else { return false }
                labelLength = 0
            } else {
                guard isLowerAlphanumeric(byte) || byte == UInt8(ascii: "-"), labelLength < 63 else { return false }
                labelLength += 1
            }
            index += 1
        }
        guard labelLength > 0 else { return false }
        if loopbackOnly, !bytes[hostStart..<index].elementsEqual("127.0.0.1".utf8) { return false }
        if index < bytes.count, bytes[index] == UInt8(ascii: ":") {
            index += 1
            var port = 0
            let start = index
            while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39, index - start < 5 {
                port = port * 10 + Int(bytes[index] - 0x30)
                index += 1
            }
            guard index > start, bytes[start] != 0x30, port <= 65535 else { return false }
        }
        // The path: `/segment`…, none empty, `.` or `..`.
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "/") else { return false }
            index += 1
            let start = index
            while index < bytes.count, bytes[index] != UInt8(ascii: "/") {
                let byte = bytes[index]
                guard
                    isLowerAlphanumeric(byte) || (byte >= 0x41 && byte <= 0x5A) || byte == UInt8(ascii: "-")
                        || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "~")
                else { return false }
                index += 1
            }
            let segment = bytes[start..<index]
            guard !segment.isEmpty, !segment.elementsEqual(".".utf8), !segment.elementsEqual("..".utf8) else { return false }
        }
        return true
    }

    static func isLowerAlphanumeric(_ byte: UInt8) -> Bool { (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39) }

    /// `ResourceAudience.check` passes: a token of printable ASCII that is not three parts (no JWT: nothing to check),
    /// or a JWS whose header names `alg` and whose payload's `aud` (a string, or strings) holds a
    /// plain resource URL that is `resource` or covers it. False for every other case — a
    /// refusal of the full program's, or a token it may read otherwise.
    static func audienceNames(_ token: String, resource: String) -> Bool {
        var token = token
        return token.withUTF8 { bytes -> Bool in
            // Printable ASCII only: the full program splits on characters, and a `.` followed by
            // a combining mark is no separator to it (an access token is RFC 6749's VSCHARs).
            guard bytes.count <= 65536, bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else { return false }
            var dots: [Int] = []
            for index in bytes.indices where bytes[index] == UInt8(ascii: ".") {
                dots.append(index)
                if dots.count > 2 { return true }  // not three parts: no JWT, nothing checked
            }
            guard dots.count == 2 else { return true }
            let headerBytes = UnsafeBufferPointer(rebasing: bytes[..<dots[0]])
            let payloadBytes = UnsafeBufferPointer(rebasing: bytes[(dots[0] + 1)..<dots[1]])
            guard case .decoded(let header) = IDTokenExpiryReader.base64URL(headerBytes),
                case .decoded(let payload) = IDTokenExpiryReader.base64URL(payloadBytes)
            else { return false }
            let named = header.withUnsafeBufferPointer { buffer -> Bool in
                var reader = KeystoreRecordReader(buffer)
                var seen: [String] = []
                var algorithm = false
                let read = reader.object { reader, key in
                    guard !seen.contains(key), seen.count < KeystoreRecordReader.maximumCount else { return false }
                    seen.append(key)
                    guard key == "alg" else { return reader.anyValue(depth: 1) }
                    algorithm = reader.string() != nil
                    return algorithm
                }
                return read && reader.atEnd() && algorithm
            }
            guard named else { return false }
            return payload.withUnsafeBufferPointer { buffer -> Bool in
                var reader = KeystoreRecordReader(buffer)
                var seen: [String] = []
                var audiences: [String]?
                let read = reader.object { reader, key in
                    guard !seen.contains(key), seen.count < KeystoreRecordReader.maximumCount else { return false }
                    seen.append(key)
                    guard key == "aud" else { return reader.anyValue(depth: 1) }
                    if let one = reader.plainString() {
                        audiences = [one]
                        return true
                    }
                    audiences = reader.strings()
                    return audiences != nil
                }
                guard read, reader.atEnd(), let audiences else { return false }
                return audiences.contains { $0.utf8.count <= 2048 && isPlainResource($0) && covers($0, resource) }
            }
        }
    }
}

extension KeystoreRecordReader {
    /// A JSON string when one comes next (the position unchanged otherwise).
    mutating func plainString() -> String? {
        skipSpace()
        guard position < bytes.count, bytes[position] == Self.quote else { return nil }
        return string()
    }
}
