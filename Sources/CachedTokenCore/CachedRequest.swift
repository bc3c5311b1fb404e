/// `authctl request URL` as the request program answers it (`lib/authctl/authctl-request`,
/// docs/front.md): the plain forms of the command, and what the full program would send for
/// them from a cached bearer grant — `RequestInvocation.run` and `ResourceRequest` up to the
/// transfer. The request program then sends exactly that through libcurl, with the options
/// `CurlTransport` sets. Nil wherever the full program could do anything else (refuse, refresh,
/// ask, filter for a terminal): the command is then the full program's, before anything is sent.
public struct CachedRequest: Equatable {
    /// The URL, of the plain form (`CachedResourceAnswer.isPlainResource`): sent as it is.
    public var url: String
    /// `-X`/`--method` as given (the full program upper-cases it).
    public var method: String?
    /// `-H`/`--header`, in order, as given.
    public var headers: [String] = []
    /// `--data`: the text itself, or `@FILE`.
    public var data: String?
    public var keystore: String?
    public var config: String?

    /// The command line after the program's name, when it is `request URL` with at most
    /// `-X`/`--method`, `-H`/`--header` (repeatable), `--data` (not `-`: stdin, which an
    /// `exec` cannot give back), `--keystore` and `--config` — the grammar of the full
    /// program's hand parser (`RequestInvocation.parseFast`, `HandParser`): `--name=value` or
    /// the value as the next word, which does not start with a dash; each option once but
    /// `-H`. Everything else (`--include`, `--json`, `--user`, `-v`, `--timeout`, a second
    /// URL, `--`) is the full program's.
    public static func parse(_ arguments: [String]) -> CachedRequest? {
        guard arguments.first == "request" else { return nil }
        var url: String?
        var method: String?, data: String?, keystore: String?, config: String?
        var headers: [String] = []
        var words = CommandWords(arguments, from: 1)
        while words.next() {
            /// The option's value; nil where the hand parser takes none (`--name=` too).
            func value() -> String? { words.inline == "" ? nil : words.value() }
            func once(_ target: inout String?, _ accepts: (String) -> Bool = { _ in true }) -> Bool {
                guard target == nil, let text = value(), accepts(text) else { return false }
                target = text
                return true
            }
            let taken: Bool
            switch words.name {
            case "-X", "--method": taken = once(&method)
            case "-H", "--header":
                if let header = value(), headerParts(header) != nil {
                    headers.append(header)
                    taken = true
                } else {
                    taken = false
                }
            case "--data": taken = once(&data)
            case "--keystore": taken = once(&keystore, CachedTokenRequest.isPath)
            case "--config": taken = once(&config, CachedTokenRequest.isPath)
            default:
                guard url == nil, words.inline == nil, !words.argument.isEmpty, !words.argument.hasPrefix("-") else { return nil }
                url = words.argument
                taken = true
            }
            guard taken else { return nil }
        }
        guard let url else { return nil }
        return CachedRequest(url: url, method: method, headers: headers, data: data, keystore: keystore, config: config)
    }

    /// `RequestInvocation.parseHeader`: `Name: value`, both trimmed of spaces, a name without
    /// a space. (The arguments the front takes are printable ASCII: the space is their only
    /// white space.)
    public static func headerParts(_ text: String) -> (name: String, value: String)? {
        let bytes = Array(text.utf8)
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")) else { return nil }
        let name = trimmedSpaces(bytes[..<colon])
        let value = trimmedSpaces(bytes[(colon + 1)...])
        guard !name.isEmpty, !name.contains(0x20) else { return nil }
        return (String(decoding: name, as: UTF8.self), String(decoding: value, as: UTF8.self))
    }

    static func trimmedSpaces(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var slice = bytes
        while slice.first == 0x20 { slice = slice.dropFirst() }
        while slice.last == 0x20 { slice = slice.dropLast() }
        return slice
    }
}

/// What the request program sends for a `CachedRequest` (`ResourceRequest`'s request).
public struct CachedRequestPlan: Equatable {
    public var url: String
    /// Upper case, as sent.
    public var method: String
    /// `Name: value` lines, the Authorization header last (libcurl gets `Expect:` after them).
    public var headerLines: [String]
    public var body: Body
    /// The URL's host, as the full program's messages name it.
    public var host: String

    public enum Body: Equatable {
        case none
        /// `--data TEXT`.
        case text(String)
        /// `--data @FILE`: read by the program (16 MiB at most, a regular file).
        case file(String)
    }

    /// The proxy variables `ProxyRoute` reads: when one is set at all, the full program decides
    /// the route (and names the proxy when it fails).
    public static let proxyVariables = ["http_proxy", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY", "no_proxy", "NO_PROXY"]

    /// `CURLOPT_NOPROXY` for a direct request: `ProxyRoute.loopbackNames`, without a user's list.
    public static let noProxy = "localhost,127.0.0.1,::1,127.0.0.0/8"

    /// What `request` sends from `user`'s cached grant at `now`, or nil when the full program
    /// could do anything but send it: a method or header it refuses, a URL not of the plain form,
    /// no grant the front judges, a token it would refresh (60 seconds before expiry, as
    /// `ResourceTokens`), a DPoP-bound one, or an origin outside the grant's binding.
    public static func make(_ command: CachedRequest, user: CachedUser, now: Double) -> CachedRequestPlan? {
        guard let method = method(command.method ?? (command.data == nil ? "GET" : "POST")),
            CachedResourceAnswer.isPlainResource(command.url), let origin = origin(of: command.url),
            let (grant, accessToken) = CachedResourceAnswer.usableToken(for: command.url, user: user, minimumTTL: 60, now: now)
        else { return nil }
        // The egress rule (`SecretBinding.permits`): the grant's recorded origins, else its
        // issuer's and its resource's — the URL's, which the resource covers.
        if let egress = grant.tokens?.egress, !egress.dropFirst().contains(origin.text) { return nil }
        // `headers[name] = value` in order (a name given twice keeps its last value, in its
        // first place); the full program refuses an Authorization or DPoP header and a name
        // that is not an RFC 9110 token.
        var names: [String] = []
        var values: [String] = []
        for header in command.headers {
            guard let (name, value) = CachedRequest.headerParts(header), isToken(name),
                !equalsIgnoringCase(name, "Authorization"), !equalsIgnoringCase(name, "DPoP")
            else { return nil }
            if let index = names.firstIndex(of: name) {
                values[index] = value
            } else {
                names.append(name)
                values.append(value)
            }
        }
        var lines: [String] = []
        for index in names.indices { lines.append(names[index] + ": " + values[index]) }
        lines.append("Authorization: Bearer " + accessToken)
        var body = Body.none
        if let data = command.data {
            if data.hasPrefix("@") {
                let path = String(data.dropFirst())
                guard !path.isEmpty else { return nil }
                body = .file(path)
            } else {
                body = .text(data)
            }
        }
        return CachedRequestPlan(url: command.url, method: method, headerLines: lines, body: body, host: origin.host)
    }

    /// `ResourceRequest`'s method rule: upper-cased, 1–16 letters A–Z.
    static func method(_ text: String) -> String? {
        var bytes: [UInt8] = []
        for byte in text.utf8 {
            let upper = byte >= 0x61 && byte <= 0x7A ? byte - 0x20 : byte
            guard upper >= 0x41, upper <= 0x5A else { return nil }
            bytes.append(upper)
        }
        guard !bytes.isEmpty, bytes.count <= 16 else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The stored form of a plain URL's origin (`Origin.description`: the port always written)
    /// and its host.
    static func origin(of url: String) -> (text: String, host: String)? {
        let bytes = Array(url.utf8)
        let https = bytes.starts(with: Array("https://".utf8))
        let start = https ? 8 : 7
        var end = start
        while end < bytes.count, bytes[end] != UInt8(ascii: "/") { end += 1 }
        let authority = bytes[start..<end]
        let scheme = https ? "https" : "http"
        if let colon = authority.firstIndex(of: UInt8(ascii: ":")) {
            let host = String(decoding: authority[..<colon], as: UTF8.self)
            return (scheme + "://" + String(decoding: authority, as: UTF8.self), host)
        }
        let host = String(decoding: authority, as: UTF8.self)
        return (scheme + "://" + host + (https ? ":443" : ":80"), host)
    }

    /// RFC 9110 §5.6.2 `tchar`s only (`HTTPRequest.checkHeaders`).
    static func isToken(_ name: String) -> Bool {
        name.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }

    static func equalsIgnoringCase(_ text: String, _ other: String) -> Bool {
        let lower = { (byte: UInt8) -> UInt8 in byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte }
        return text.utf8.count == other.utf8.count && zip(text.utf8, other.utf8).allSatisfy { lower($0) == lower($1) }
    }
}

/// The words `request` ends with when the transfer does not go as asked, written once for both
/// programs (`LibCurl.transfer`, `RequestInvocation`, and the request program). `reason` is
/// libcurl's, as `Sanitize.text(_:limit: 160)` leaves it.
public enum CachedRequestWords {
    /// After a 4xx or 5xx answer, whose body went to stdout (exit 22).
    public static func resourceAnswered(_ status: Int) -> String { "the resource answered HTTP " + String(status) }

    /// No connection, or the head never came (exit 3).
    public static func couldNotReach(_ host: String, reason: String) -> String {
        "could not reach " + host + ": " + reason + ". Check the provider's address and your network, then try again"
    }

    /// The body broke off after `bytes` went to stdout (exit 3).
    public static func cutShort(_ host: String, after bytes: Int, reason: String) -> String {
        "the answer from " + host + " was cut short after " + String(bytes) + " bytes: " + reason + ". Try again"
    }

    /// No head within the transport's timeout (exit 3).
    public static func noHead(_ host: String, seconds: Int) -> String {
        host + " did not answer within " + String(seconds) + " seconds, so authctl stopped waiting. Check the address and try again"
    }

    /// A head without a status libcurl's parser and this one agree on (`HTTP/1.1 200OK`), when
    /// its body came (exit 3).
    public static let noStatusLine = "the answer came without an HTTP status line, so authctl stopped reading it"

    /// Ctrl-C during the transfer (exit 130).
    public static let interrupted = "cancelled (Ctrl-C); the rest of the answer was not read"

    /// `Sanitize.text(reason, limit: 160)` for a reason of ASCII (libcurl's own words): its C0
    /// controls and DEL dropped, then cut to 160 characters and `…`. Nil for any other byte.
    public static func reason(_ bytes: [UInt8]) -> String? {
        guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
        let kept = bytes.filter { $0 >= 0x20 && $0 != 0x7F }
        guard kept.count > 160 else { return String(decoding: kept, as: UTF8.self) }
        return String(decoding: kept[..<160], as: UTF8.self) + "…"
    }
}

extension CachedRequestPlan {
    /// `User-Agent` of every request of the full program (`Wiring.userAgent`).
    public static let userAgent = "authctl/" + AuthctlRelease.version

    /// What one header line of an answer says (`LibCurl.receiveHeader`'s reading).
    public enum HeadLine: Equatable {
        /// `HTTP/… STATUS …`: a head starts (nil: no status number).
        case status(Int?)
        /// A `WWW-Authenticate` header (its name in any case), and whether it holds
        /// `insufficient_scope` (any case): a challenge the full program may step up for.
        case challenge(asksScope: Bool)
        /// The empty line that ends a head.
        case end
        case other
    }

    public static func headLine(_ bytes: UnsafeBufferPointer<UInt8>) -> HeadLine {
        var start = 0
        var end = bytes.count
        let isSpace = { (byte: UInt8) -> Bool in byte == 0x20 || (byte >= 0x09 && byte <= 0x0D) }
        while start < end, isSpace(bytes[start]) { start += 1 }
        while end > start, isSpace(bytes[end - 1]) { end -= 1 }
        let line = UnsafeBufferPointer(rebasing: bytes[start..<end])
        if line.isEmpty { return .end }
        if line.starts(with: "HTTP/".utf8) {
            // The second word of the status line, as `Int` reads it.
            var index = 0
            while index < line.count, line[index] != 0x20 { index += 1 }
            while index < line.count, line[index] == 0x20 { index += 1 }
            var digits = 0
            var status = 0
            while index < line.count, line[index] != 0x20 {
                guard line[index] >= 0x30, line[index] <= 0x39, digits < 9 else { return .status(nil) }
                status = status * 10 + Int(line[index] - 0x30)
                digits += 1
                index += 1
            }
            return .status(digits == 0 ? nil : status)
        }
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else { return .other }
        var nameEnd = colon
        while nameEnd > 0, line[nameEnd - 1] == 0x20 || line[nameEnd - 1] == 0x09 { nameEnd -= 1 }
        let name = String(decoding: UnsafeBufferPointer(rebasing: line[..<nameEnd]), as: UTF8.self)
        guard equalsIgnoringCase(name, "WWW-Authenticate") else { return .other }
        let value = Array(UnsafeBufferPointer(rebasing: line[(colon + 1)...])).map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }
        let wanted = Array("insufficient_scope".utf8)
        let asksScope =
            value.count >= wanted.count
            && (0...(value.count - wanted.count)).contains { start in
                value[start..<(start + wanted.count)].elementsEqual(wanted)
            }
        return .challenge(asksScope: asksScope)
    }

    /// Whether the full program would give this answer as it is (`ResourceRequest.verdict` for
    /// a first attempt with a bearer token): not a 401 (a refresh, a move or a step-up), not a
    /// 403 whose challenge may ask for scope (`insufficient_scope`: a step-up). A 403 with any
    /// other challenge (`Basic`, `invalid_token`) is an answer, as for the full program.
    public static func streams(status: Int, asksScope: Bool) -> Bool {
        !(status == 401 || (status == 403 && asksScope))
    }
}

/// The release this build is (CHANGELOG.md's newest; a test holds them equal): `--version`'s
/// and every request's `User-Agent`, in the full program and the request program alike.
public enum AuthctlRelease {
    public static let version = "0.1.0"
}
