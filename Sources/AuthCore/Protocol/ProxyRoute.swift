/// The proxy one request goes through, decided from the variables curl and most tools
/// read, so that authctl can say which proxy failed:
///
/// - `http://` URLs: `http_proxy` (lower case only: `HTTP_PROXY` can be set by a web
///   server's CGI environment, the "httpoxy" problem, and curl ignores it too);
///   `https://` URLs: `https_proxy`, then `HTTPS_PROXY`; then `all_proxy`, `ALL_PROXY`.
/// - `no_proxy` (or `NO_PROXY`): `*`, or host names and domains (`example.com` also
///   covers `api.example.com`), IP addresses and IPv4 CIDR ranges, separated by commas or
///   spaces.
/// - A loopback host (`EndpointPolicy.isLoopback`) never goes through a proxy: what goes
///   to a provider on this machine (codes, verifiers, client secrets) stays on it.
///
/// libcurl is given the chosen proxy (`CURLOPT_PROXY`, empty for none) and, as a second
/// guard, `CURLOPT_NOPROXY` with the user's list and the loopback names added.
struct ProxyRoute: Equatable {
    /// `CURLOPT_PROXY`: the variable's value as it is (credentials included, for libcurl
    /// only), or "" for a direct connection.
    var proxy: String
    /// `CURLOPT_NOPROXY`: the user's `no_proxy` with the loopback names appended.
    var noProxy: String
    /// The variable the proxy came from (`https_proxy`); nil when direct.
    var variable: String?

    /// Always excluded from proxying (curl ≥ 7.86 understands the CIDR range; older ones
    /// skip it, and loopback hosts get no proxy at all anyway).
    static let loopbackNames = ["localhost", "127.0.0.1", "::1", "127.0.0.0/8"]

    init(for url: URL, environment: [String: String]) {
        let userList = [environment["no_proxy"], environment["NO_PROXY"]].compactMap { $0 }.first { !$0.isEmpty }
        noProxy = ((userList.map { [$0] } ?? []) + Self.loopbackNames).joined(separator: ",")
        proxy = ""
        variable = nil
        guard let host = url.host, !EndpointPolicy.isLoopback(host: host) else { return }
        let scheme = url.scheme?.lowercased() ?? "http"
        let names = (scheme == "http" ? ["http_proxy"] : ["\(scheme)_proxy", "\(scheme.uppercased())_PROXY"]) + ["all_proxy", "ALL_PROXY"]
        guard let name = names.first(where: { !(environment[$0] ?? "").trimming(.whitespaces).isEmpty }),
            let value = environment[name]?.trimming(.whitespaces)
        else { return }
        if let userList, Self.bypasses(host: host, list: userList) { return }
        proxy = value
        variable = name
    }

    /// The proxy as `scheme://host:port` for a message: never the user name or password
    /// that the variable may hold. Nil when the request goes direct.
    var shownProxy: String? {
        guard !proxy.isEmpty else { return nil }
        let text = proxy.contains("://") ? proxy : "http://" + proxy  // curl's default scheme
        guard let components = URLComponents(string: text), let host = components.host, !host.isEmpty else {
            return "(an address in \(variable ?? "a proxy variable") that could not be read)"
        }
        let shownHost = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        return "\(components.scheme ?? "http")://\(shownHost)\(components.port.map { ":\($0)" } ?? "")"
    }

    /// `text` (libcurl's error) with the proxy's user name and password taken out, should
    /// libcurl ever quote them.
    func scrub(_ text: String) -> String {
        let full = proxy.contains("://") ? proxy : "http://" + proxy
        guard let components = URLComponents(string: full) else { return text }
        var scrubbed = text
        for secret in [components.percentEncodedPassword, components.password, components.percentEncodedUser, components.user]
        where !(secret ?? "").isEmpty {
            scrubbed = scrubbed.replacingEvery(secret ?? "", with: "…")
        }
        return scrubbed
    }

    /// True when `host` matches an entry of a `no_proxy` list.
    static func bypasses(host: String, list: String) -> Bool {
        let host = host.lowercased().trimming(ScalarSet(charactersIn: "[]"))
        let entries = list.split(whereSeparator: { $0 == "," || $0 == " " || $0 == "\t" }).map {
            $0.lowercased().trimming(ScalarSet(charactersIn: "[]"))
        }
        for entry in entries where !entry.isEmpty {
            if entry == "*" { return true }
            if entry.contains("/") {
                if inIPv4Range(host, entry) { return true }
                continue
            }
            let name = entry.hasPrefix(".") ? String(entry.dropFirst()) : entry
            if host == name || host.hasSuffix("." + name) { return true }
        }
        return false
    }

    /// `host` is an IPv4 literal inside the `a.b.c.d/n` range.
    static func inIPv4Range(_ host: String, _ range: String) -> Bool {
        let parts = range.split(separator: "/", maxSplits: 1)
        guard parts.count == 2, let bits = Int(parts[1]), (0...32).contains(bits), let network = ipv4(String(parts[0])),
            let address = ipv4(host)
        else { return false }
        let mask: UInt32 = bits == 0 ? 0 : ~UInt32(0) << UInt32(32 - bits)
        return address & mask == network & mask
    }

    static func ipv4(_ text: String) -> UInt32? {
        let octets = text.split(separator: ".", omittingEmptySubsequences: false)
        guard octets.count == 4 else { return nil }
        var value: UInt32 = 0
        for octet in octets {
            guard octet.count <= 3, octet.allSatisfy(\.isASCII), let number = UInt32(octet), number <= 255 else { return nil }
            value = value << 8 | number
        }
        return value
    }
}
