import ArgumentParser
import AuthCore

/// `authctl doctor [PROVIDER|URL]`: what stands between this machine and a sign-in, one
/// line per check, each problem with its fix. The checks are AuthCore's (`Doctor`); the
/// words are here.
struct DoctorCommand: AuthctlCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Check a provider and this machine for what would make a sign-in fail, and say the fix.",
        discussion:
            "Checks the configuration, the keystore, the browser a sign-in would open and the keyring's session bus; then the provider: proxy variables, its discovery document (issuer exact, signing algorithms, PKCE S256, iss), its key set, the clock against its Date header, and whether it accepts the loopback redirect URI authctl sends (an authorization request with a throwaway state, not followed). Nothing is written and nobody is signed in. Exit 0 without a problem; else the exit status of the first problem's kind (3 unreachable, 4 clock, 6 keystore or keyring, 7 configuration or provider).\n\nExamples:\n  authctl doctor oidc.corp\n  authctl doctor https://login.example.com --json"
    )

    @Argument(
        help: "A configured provider id, or an issuer URL to check before adding it (default: the only configured provider).",
        completion: Completions.providerIDs)
    var provider: String?
    @OptionGroup var global: GlobalOptions

    func run(_ wiring: Wiring) async throws {
        var checks: [DoctorCheck] = []
        var providers: [ProviderConfig] = []
        do {
            let file = try wiring.configStore().load()
            providers = Array(file.providers.values)
            checks.append(DoctorCheck(.config, .ok, .configLoaded(providers: file.providers.count)))
        } catch let error as AuthError {
            checks.append(DoctorCheck(.config, .problem, .failed(error), code: error.code))
        }
        do {
            checks.append(DoctorCheck(.keystore, .ok, .keystore(try wiring.keystore().sealStatus())))
        } catch let error as AuthError {
            checks.append(DoctorCheck(.keystore, .problem, .failed(error), code: error.code))
        }
        checks += Doctor.sessionChecks(environment: wiring.environment, isProgram: wiring.isProgram)
        let config: ProviderConfig?
        if let provider, provider.contains("://") {
            config = ProviderConfig(id: "oidc.issuer", issuer: provider)
        } else if let provider {
            let id = try ProviderID(parsing: provider)
            config = try wiring.configStore().provider(id)
        } else {
            config = providers.count == 1 ? providers.first : nil
        }
        if let config {
            let environment = wiring.useCases()
            let checked = try ProviderRegistry.provider(for: config)
            checks += await Doctor(transport: environment.transport, clock: wiring.io.clock, random: environment.random)
                .check(checked, environment: wiring.environment)
        }
        if global.json {
            wiring.output.json(
                .array(
                    checks.map { check in
                        let (detail, fix) = Self.words(check)
                        return .object([
                            "check": .string(check.name.rawValue), "status": .string(check.status.rawValue), "detail": .string(detail),
                            "fix": Output.optional(fix),
                        ])
                    }))
        } else {
            for check in checks {
                let (detail, fix) = Self.words(check)
                let status = check.status.rawValue
                wiring.output.line(status + String(repeating: " ", count: max(1, 9 - status.count)) + "\(check.name.rawValue): \(detail)")
                if let fix { wiring.output.line("         fix: \(fix)") }
            }
            if config == nil {
                wiring.output.line(
                    providers.isEmpty
                        ? "No provider is configured: add one with authctl providers add, or check an issuer with authctl doctor URL."
                        : "Name a provider to check it: authctl doctor PROVIDER (\(providers.map(\.id).sorted().joined(separator: ", "))).")
            }
        }
        if let problem = checks.first(where: { $0.status == .problem }) {
            throw ExitCode((problem.code ?? .providerNotConfigured).exitStatus)
        }
    }

    /// The words of a check: what was found, and (for a warning or a problem) the fix.
    static func words(_ check: DoctorCheck) -> (String, String?) {
        switch check.finding {
        case .failed(let error):
            // An error's message says what failed, then (after its last ". ") what to do.
            let words = MessageSpelling.words(error.message)
            let characters = Array(words)
            guard let split = characters.indices.dropLast().last(where: { characters[$0] == "." && characters[$0 + 1] == " " }) else {
                return (words, "see the message")
            }
            return (String(characters[..<split]), String(characters[(split + 2)...]))
        case .configLoaded(let count):
            return ("the configuration file is readable (\(count) provider\(count == 1 ? "" : "s"))", nil)
        case .keystore(let status):
            guard status.exists else { return ("no keystore yet (it is created at the first sign-in)", nil) }
            switch status.protection {
            case .plaintext:
                return (
                    "private to you, in plaintext: anyone who can read it as you can use its tokens (seal it: authctl keystore seal)", nil
                )
            case .keyFile: return ("private to you, sealed with a key file", nil)
            case .passphrase: return ("private to you, sealed with a passphrase", nil)
            case .keyring: return ("private to you, sealed with the system keyring", nil)
            }
        case .discovery(let url, let issuer, let documented):
            return (
                documented ? "documented endpoints (nothing to fetch), issuer \(issuer)" : "\(url) names the issuer \(issuer) exactly", nil
            )
        case .algorithms(let advertised, let usable):
            guard let advertised else {
                return (
                    "the provider does not list its ID-token signing algorithms", "none needed if its tokens are RS256; others are refused"
                )
            }
            if usable.isEmpty {
                return (
                    "ID tokens signed with \(advertised.joined(separator: ", ")) only, none of which authctl verifies (HMAC and none are refused)",
                    "configure the client at the provider to sign ID tokens with RS256 or ES256"
                )
            }
            return ("ID tokens signed with \(usable.joined(separator: ", "))", nil)
        case .pkce(let advertised):
            guard let advertised else {
                return (
                    "PKCE is not advertised (code_challenge_methods_supported)",
                    "none if the provider accepts S256 anyway (most do); authctl always sends it"
                )
            }
            if advertised.contains("S256") { return ("PKCE S256 is supported", nil) }
            return (
                "PKCE methods \(advertised.joined(separator: ", ")) only, not S256 (which authctl always sends)",
                "enable PKCE with S256 for the client at the provider"
            )
        case .ciba(let offered, let modes):
            guard offered else {
                return ("CIBA is not offered (no backchannel_authentication_endpoint): login --ciba is not available", nil)
            }
            let named = modes.map { $0.map { Sanitize.text($0, limit: 20) }.joined(separator: ", ") } ?? "not advertised"
            if modes?.contains("poll") == false {
                return (
                    "CIBA is offered in the delivery modes \(named), not poll", "authctl polls: use login --remote or --device-code instead"
                )
            }
            return ("CIBA is offered (delivery modes: \(named)): login --ciba --login-hint HINT polls", nil)
        case .issParameter(let advertised):
            return (
                advertised
                    ? "the authorization response carries iss (RFC 9207); authctl requires it"
                    : "the authorization response does not carry iss (RFC 9207): authctl relies on the one-time state and the exact issuer",
                nil
            )
        case .keys(let url, let count):
            return ("\(url) holds \(count) key\(count == 1 ? "" : "s")", nil)
        case .redirect(let uri, let answer):
            switch answer {
            case .redirectedBack(let error):
                return ("the provider redirects to \(uri)\(error.map { " (with \($0))" } ?? ""): it is registered", nil)
            case .signInPage:
                return ("the provider accepted a request for \(uri) and showed its sign-in page", nil)
            case .refused(let status):
                return (
                    "the provider refused the redirect URI \(uri) (HTTP \(status), an error page about the redirect URI)",
                    "register \(uri) as a redirect URI of the client at the provider (a loopback URI: some providers want http://127.0.0.1 with any port, some an exact port: then fix it with authctl providers add ID --redirect-uri URI)"
                )
            case .clientRefused(let status, let error):
                return (
                    "the provider refused the client (HTTP \(status)\(error.map { ", \($0)" } ?? ""))",
                    "check the client id with authctl providers show ID against the app's registration at the provider"
                )
            case .unclear(let status):
                return ("the authorization endpoint answered HTTP \(status): whether \(uri) is registered is unknown", "try a sign-in")
            }
        case .redirectNotChecked:
            return ("not checked: no client id (an issuer URL)", "add the provider with its client id, then run authctl doctor ID")
        case .clock(let offset, let tolerated):
            guard let offset else { return ("the provider sent no Date header: the clock could not be compared", nil) }
            let seconds = Int(offset.rounded())
            let shown =
                seconds == 0 ? "agrees with the provider's" : "is \(abs(seconds)) s \(seconds > 0 ? "behind" : "ahead of") the provider's"
            if check.status == .ok { return ("this machine's clock \(shown)", nil) }
            return (
                "this machine's clock \(shown) (ID tokens are refused beyond \(Int(tolerated)) s)",
                "set the clock (timedatectl set-ntp true, or your system's time service)"
            )
        case .browser(let choice):
            switch choice {
            case .command(let variable, let program, let found):
                return found
                    ? ("sign-ins open the browser with \(program) (from \(variable))", nil)
                    : ("\(variable) names \(program), which is not found on PATH", "install it, or fix \(variable)")
            case .desktop(let found):
                return found
                    ? ("sign-ins open the desktop's browser (xdg-open)", nil)
                    : ("a display is set but xdg-open is not installed", "install xdg-utils, or set BROWSER to your browser")
            case .none:
                return (
                    "no display and no BROWSER: sign-ins print the URL to open on another device",
                    "use authctl login --ciba, --remote, --device-code or --manual (docs/remote.md)"
                )
            }
        case .keyring(let bus, let expected):
            if bus { return ("a D-Bus session bus is set: the Secret Service keyring can be asked", nil) }
            if expected {
                return (
                    "AUTHCTL_KEYSTORE_KEYRING is set but this session has no D-Bus session bus (DBUS_SESSION_BUS_ADDRESS): the keyring cannot unseal the keystore",
                    "run authctl in a desktop session (or dbus-run-session with the keyring unlocked), or seal with a key file instead"
                )
            }
            return ("no D-Bus session bus: keyring sealing is not available in this session (not used)", nil)
        case .proxy(let host, let proxy, let variable):
            guard let proxy else { return ("requests to \(host) go direct (no proxy variable applies)", nil) }
            return (
                "requests to \(host) go through the proxy \(proxy) (from \(variable ?? "the environment"))",
                "if the provider is reachable directly, add \(host) to NO_PROXY"
            )
        }
    }
}
