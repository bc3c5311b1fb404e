/// One finding of `doctor`: what was checked, how it went, and the facts the command layer
/// words (AuthCore holds no sentence of it, except the messages of errors it carries).
public struct DoctorCheck: Sendable, Equatable {
    public enum Status: String, Sendable, Equatable { case ok, warning, problem }

    public enum Name: String, Sendable, Equatable, CaseIterable {
        case config, keystore, discovery, signingAlgorithms = "signing-algorithms", pkce, issParameter = "iss-parameter", ciba, keys
        case redirect, clock, proxy, browser, keyring
    }

    /// What a sign-in would open the start URL with.
    public enum BrowserChoice: Sendable, Equatable {
        /// `AUTHCTL_BROWSER` or `$BROWSER` (the variable), a program found on `PATH` or not.
        case command(variable: String, program: String, found: Bool)
        /// The desktop's `xdg-open` (a display is set), found or not.
        case desktop(found: Bool)
        /// No display and no browser variable: the URL is printed to open elsewhere.
        case none
    }

    /// What the provider's authorization endpoint did with a request naming the redirect URI.
    public enum RedirectAnswer: Sendable, Equatable {
        /// A redirect back to the URI (with a code or an error such as `login_required`):
        /// providers redirect only to registered URIs.
        case redirectedBack(error: String?)
        /// Its sign-in page, or a redirect to it: the request was accepted so far.
        case signInPage(status: Int)
        /// An error page naming the redirect URI (`redirect_uri_mismatch`, `invalid_redirect_uri`).
        case refused(status: Int)
        /// An error page or redirect naming the client (`invalid_client`, `unauthorized_client`).
        case clientRefused(status: Int, error: String?)
        /// Another answer: nothing can be concluded.
        case unclear(status: Int)
    }

    public enum Finding: Sendable, Equatable {
        /// The check failed with this error (its message names the fix).
        case failed(AuthError)
        case configLoaded(providers: Int)
        case keystore(KeystoreSealStatus)
        case discovery(url: String, issuer: String, documented: Bool)
        case algorithms(advertised: [String]?, usable: [String])
        case pkce(advertised: [String]?)
        case issParameter(advertised: Bool)
        /// CIBA (CIBA Core 1.0 §4): the backchannel endpoint advertised or not, and the
        /// delivery modes (`backchannel_token_delivery_modes_supported`; authctl polls).
        case ciba(offered: Bool, modes: [String]?)
        case keys(url: String, count: Int)
        case redirect(uri: String, answer: RedirectAnswer)
        /// No client id is configured (an issuer URL given to `doctor`): nothing to ask.
        case redirectNotChecked
        /// The provider's clock minus this machine's, from its `Date` header; nil: no header.
        case clock(offset: TimeInterval?, tolerated: TimeInterval)
        case proxy(host: String, proxy: String?, variable: String?)
        case browser(BrowserChoice)
        /// Whether a D-Bus session bus is set for the Secret Service keyring, and whether the
        /// keystore is configured to be sealed with it.
        case keyring(sessionBus: Bool, expected: Bool)
    }

    public var name: Name
    public var status: Status
    public var finding: Finding
    /// The kind of a problem (its exit status); nil unless `status` is `.problem`.
    public var code: AuthError.Code?

    public init(_ name: Name, _ status: Status, _ finding: Finding, code: AuthError.Code? = nil) {
        self.name = name
        self.status = status
        self.finding = finding
        self.code = status == .problem ? (code ?? .providerNotConfigured) : nil
    }

    static func failed(_ name: Name, _ error: AuthError) -> DoctorCheck { DoctorCheck(name, .problem, .failed(error), code: error.code) }
}

/// `doctor`: checks a provider as a sign-in would use it, without signing anybody in and
/// without writing anything (no cache, no keystore, no configuration).
public struct Doctor: Sendable {
    let transport: any HTTPTransport
    let clock: any Clock
    let random: any RandomSource

    public init(transport: any HTTPTransport, clock: any Clock, random: any RandomSource) {
        self.transport = transport
        self.clock = clock
        self.random = random
    }

    /// The checks of this session's environment: the browser a sign-in would start (as
    /// `SystemBrowserLauncher` and `AUTHCTL_BROWSER` choose it) and the keyring's session bus.
    /// `isProgram` says whether a program name is found on `PATH`.
    public static func sessionChecks(environment: [String: String], isProgram: (String) -> Bool) -> [DoctorCheck] {
        func program(_ command: String) -> String { String(command.split(separator: " ").first ?? "") }
        let choice: DoctorCheck.BrowserChoice
        if let command = environment["AUTHCTL_BROWSER"], !command.trimming(.whitespaces).isEmpty {
            choice = .command(variable: "AUTHCTL_BROWSER", program: program(command), found: isProgram(program(command)))
        } else if let first = (environment["BROWSER"] ?? "").split(separator: ":").first(where: { !$0.allSatisfy(\.isWhitespace) }) {
            choice = .command(variable: "BROWSER", program: program(String(first)), found: isProgram(program(String(first))))
        } else if !(environment["DISPLAY"] ?? "").isEmpty || !(environment["WAYLAND_DISPLAY"] ?? "").isEmpty {
            choice = .desktop(found: isProgram("xdg-open"))
        } else {
            choice = .none
        }
        let browserStatus: DoctorCheck.Status =
            switch choice {
            case .command(_, _, let found), .desktop(let found): found ? .ok : .warning
            case .none: .warning
            }
        let bus = !(environment["DBUS_SESSION_BUS_ADDRESS"] ?? "").isEmpty
        let expected = environment["AUTHCTL_KEYSTORE_KEYRING"].map { !$0.isEmpty && $0 != "0" } ?? false
        return [
            DoctorCheck(.browser, browserStatus, .browser(choice)),
            DoctorCheck(.keyring, expected && !bus ? .problem : .ok, .keyring(sessionBus: bus, expected: expected), code: .keystoreError),
        ]
    }

    /// Beyond this clock difference a warning: the ID token checks tolerate `clockSkew`.
    static let comfortableSkew: TimeInterval = 60

    /// The provider's checks, in order: proxy, discovery (then what it advertises), the key
    /// set with the clock, the redirect registration. `environment` only decides the proxy.
    public func check(_ provider: any IdentityProvider, environment: [String: String]) async -> [DoctorCheck] {
        var checks: [DoctorCheck] = []
        let url = provider.discoveryURL
        let route = ProxyRoute(for: url, environment: environment)
        checks.append(
            DoctorCheck(
                .proxy, route.shownProxy == nil ? .ok : .warning,
                .proxy(host: url.host ?? "", proxy: route.shownProxy, variable: route.variable)))
        let document: DiscoveryDocument
        do {
            document = try await DiscoveryCheck(transport: transport, clock: clock).run(provider)
        } catch let error as AuthError {
            checks.append(.failed(.discovery, error))
            return checks
        } catch {
            checks.append(.failed(.discovery, .network("\(provider.id)'s discovery document could not be fetched. Try again")))
            return checks
        }
        checks.append(
            DoctorCheck(
                .discovery, .ok,
                .discovery(url: DiscoveryCheck.shown(url), issuer: document.issuer, documented: provider.documentedMetadata != nil)))
        let advertised = document.idTokenSigningAlgValuesSupported
        let usable = (advertised ?? []).filter { IDTokenExpectations.asymmetricAlgorithms.contains($0) }
        checks.append(
            DoctorCheck(
                .signingAlgorithms, advertised == nil ? .warning : usable.isEmpty ? .problem : .ok,
                .algorithms(advertised: advertised, usable: usable)))
        let methods = document.codeChallengeMethodsSupported
        checks.append(
            DoctorCheck(.pkce, methods == nil ? .warning : methods?.contains("S256") == true ? .ok : .problem, .pkce(advertised: methods)))
        checks.append(
            DoctorCheck(
                .issParameter, .ok, .issParameter(advertised: document.authorizationResponseIssParameterSupported == true)))
        let offered = document.backchannelAuthenticationEndpoint != nil
        let modes = document.backchannelTokenDeliveryModesSupported
        // Not offering CIBA is no problem (most providers do not); offering it without poll is a warning.
        checks.append(
            DoctorCheck(.ciba, !offered || modes?.contains("poll") != false ? .ok : .warning, .ciba(offered: offered, modes: modes)))
        checks += await keysAndClock(document)
        checks.append(await redirect(provider, document))
        return checks
    }

    private func keysAndClock(_ document: DiscoveryDocument) async -> [DoctorCheck] {
        guard let url = document.jwksURI else {
            return [
                .failed(
                    .keys,
                    .notConfigured(
                        "the provider's metadata names no key set (jwks_uri), so its ID tokens cannot be checked. Ask the provider's operator"
                    ))
            ]
        }
        let response: HTTPResponse
        do {
            response = try await transport.send(HTTPRequest(url: url, headers: ["Accept": "application/json"]))
        } catch let error as AuthError {
            return [.failed(.keys, error)]
        } catch {
            return [.failed(.keys, .network("the key set \(DiscoveryCheck.shown(url)) could not be fetched. Try again"))]
        }
        var checks: [DoctorCheck] = []
        if response.status != 200 {
            checks.append(
                .failed(
                    .keys,
                    .network(
                        "the key set \(DiscoveryCheck.shown(url)) answered HTTP \(response.status). Check the provider, or try again later")
                ))
        } else if let keys = JSONWebKeySet(data: response.body), !keys.keys.isEmpty {
            checks.append(DoctorCheck(.keys, .ok, .keys(url: DiscoveryCheck.shown(url), count: keys.keys.count)))
        } else {
            checks.append(
                .failed(
                    .keys,
                    .notConfigured("the key set \(DiscoveryCheck.shown(url)) is not a JWK Set with keys. Check the provider")))
        }
        let tolerated = IDTokenExpectations(issuer: "", clientID: "", nonce: nil, now: clock.now()).clockSkew
        guard let date = response.header("Date").flatMap(HTTPDate.parse) else {
            checks.append(DoctorCheck(.clock, .warning, .clock(offset: nil, tolerated: tolerated)))
            return checks
        }
        // The header has whole seconds: a difference under one second is none.
        let offset = (date.timeIntervalSince1970 - clock.now().timeIntervalSince1970.rounded(.down))
        let status: DoctorCheck.Status =
            abs(offset) > tolerated ? .problem : abs(offset) > Self.comfortableSkew ? .warning : .ok
        checks.append(DoctorCheck(.clock, status, .clock(offset: offset, tolerated: tolerated), code: .invalidCredential))
        return checks
    }

    /// An authorization request as a sign-in would send it (a throwaway state, nonce and
    /// PKCE challenge), sent without following redirects; nothing comes back to a listener.
    private func redirect(_ provider: any IdentityProvider, _ document: DiscoveryDocument) async -> DoctorCheck {
        guard let clientID = provider.clientID else { return DoctorCheck(.redirect, .warning, .redirectNotChecked) }
        let redirectURI: URL
        let request: AuthorizationRequest
        do {
            if let configured = provider.config.redirectURI, let url = URL(string: configured) {
                redirectURI = url
            } else {
                let (host, port) = Self.listener(provider.config.listenAddress, random: random)
                redirectURI = try provider.defaultRedirectURI(host: host, port: port)
            }
            let scopes = provider.defaultScopes + provider.config.scopes.filter { !provider.defaultScopes.contains($0) }
            request = AuthorizationRequest(
                authorizationEndpoint: document.authorizationEndpoint, issuer: document.issuer, clientID: clientID,
                redirectURI: redirectURI, scopes: scopes, responseMode: provider.responseMode(for: scopes),
                state: Base64URL.encode(random.bytes(count: 16)), nonce: Base64URL.encode(random.bytes(count: 16)),
                pkce: PKCE.generate(using: random), additionalParameters: provider.config.parameters.sorted { $0.key < $1.key })
            let response = try await transport.send(HTTPRequest(url: request.url(), headers: ["Accept": "text/html"]))
            let answer = Self.redirectAnswer(response, redirectURI: redirectURI.absoluteString)
            let status: DoctorCheck.Status =
                switch answer {
                case .redirectedBack, .signInPage: .ok
                case .refused, .clientRefused: .problem
                case .unclear: .warning
                }
            return DoctorCheck(.redirect, status, .redirect(uri: redirectURI.absoluteString, answer: answer))
        } catch let error as AuthError {
            return .failed(.redirect, error)
        } catch {
            return .failed(.redirect, .network("the authorization endpoint could not be asked. Try again"))
        }
    }

    /// The listener's host and port as a sign-in would choose them: the configured listen
    /// address, else 127.0.0.1 and a port drawn as `--manual` and `--remote` draw it (61000–65535:
    /// a provider that registers loopback redirect URIs must accept any port, RFC 8252 §7.3).
    static func listener(_ listenAddress: String?, random: any RandomSource) -> (String, UInt16) {
        let drawn = random.bytes(count: 2).reduce(0) { $0 << 8 | Int($1) }
        let range = RedirectListener.unlentPorts
        let ephemeral = range.lowerBound + UInt16(drawn % range.count)
        guard let listenAddress, let colon = listenAddress.lastIndex(of: ":") else { return ("127.0.0.1", ephemeral) }
        var host = String(listenAddress[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        let port = UInt16(listenAddress[listenAddress.index(after: colon)...]) ?? 0
        return (host.isEmpty ? "127.0.0.1" : host, port == 0 ? ephemeral : port)
    }

    static func redirectAnswer(_ response: HTTPResponse, redirectURI: String) -> DoctorCheck.RedirectAnswer {
        if (300..<400).contains(response.status), let location = response.header("Location") {
            let error = URLComponents(string: location)?.queryItems?.first { $0.name == "error" }?.value
            if location.hasPrefix(redirectURI) {
                if let error, error == "invalid_client" || error == "unauthorized_client" {
                    return .clientRefused(status: response.status, error: error)
                }
                return .redirectedBack(error: error.map { Sanitize.text($0, limit: 64) })
            }
            return .signInPage(status: response.status)
        }
        if (200..<300).contains(response.status) { return .signInPage(status: response.status) }
        let body = String(decoding: response.body.prefix(64 * 1024), as: UTF8.self).lowercased()
        if ["redirect_uri", "redirect uri", "redirect_url", "redirecturi", "invalid_redirect"].contains(where: body.contains) {
            return .refused(status: response.status)
        }
        for error in ["invalid_client", "unauthorized_client"] where body.contains(error) {
            return .clientRefused(status: response.status, error: error)
        }
        return .unclear(status: response.status)
    }
}

/// RFC 9110 §5.6.7: the `Date` header's IMF-fixdate, `Sun, 06 Nov 1994 08:49:37 GMT`.
enum HTTPDate {
    static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    static func parse(_ text: String) -> Date? {
        let parts = text.split(separator: " ")
        guard parts.count == 6, parts[5] == "GMT", let day = Int(parts[1]), (1...31).contains(day),
            let month = months.firstIndex(of: parts[2].lowercased()), let year = Int(parts[3]), (1970...9999).contains(year)
        else { return nil }
        let time = parts[4].split(separator: ":").compactMap { Int($0) }
        guard time.count == 3, (0...23).contains(time[0]), (0...59).contains(time[1]), (0...60).contains(time[2]) else { return nil }
        // Days from 1970-01-01 (Howard Hinnant's days_from_civil).
        let y = month < 2 ? year - 1 : year
        let era = y / 400
        let yearOfEra = y - era * 400
        let m = month + 1
        let dayOfYear = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146097 + dayOfEra - 719468
        return Date(timeIntervalSince1970: TimeInterval(days * 86400 + time[0] * 3600 + time[1] * 60 + time[2]))
    }
}
