/// What `authctl token …` asked, when the token front answers it: `--keystore P`, `--config P`,
/// `--min-ttl N`, `--format raw`, `header`, `headers-json` or `kubectl-exec`, `--id-token`, `--resource URL` and a provider
/// (`TokenForm`'s grammar, with values the front takes as they are); nil for anything else.
public struct CachedTokenRequest: Equatable {
    public var keystore: String?
    public var config: String?
    public var minimumTTL = 60
    /// The provider id, in the form identities are stored under.
    public var provider: String?
    public var format = Format.raw
    /// `--id-token`: the ID token instead of the access token.
    public var idToken = false
    /// `--resource URL`: the current user's grant for the resource (`CachedResourceAnswer`),
    /// a URL of the plain form the front judges (`CachedResourceAnswer.isPlainResource`).
    public var resource: String?

    public enum Format: Equatable, Sendable { case raw, header, kubectlExec, headersJSON }

    /// `TokenInvocation.printsIDToken` (without `--access-token` or `--scope`, which the front
    /// does not take): asked, or kubectl's.
    public var printsIDToken: Bool { idToken || format == .kubectlExec }

    /// The whole command line (after the program's name).
    public static func parse(_ arguments: [String]) -> CachedTokenRequest? {
        guard arguments.first == "token",
            let form = TokenForm.parse(Array(arguments.dropFirst()), accepts: accepts),
            !form.json, !form.verbose, !form.quiet, !form.accessToken, !form.forceRefresh, form.user == nil, form.scopes.isEmpty
        else { return nil }
        var request = CachedTokenRequest()
        request.keystore = form.keystore
        request.config = form.config
        if let text = form.minimumTTL {
            guard let seconds = seconds(text) else { return nil }
            request.minimumTTL = seconds
        }
        switch form.format {
        case nil, "raw": request.format = .raw
        case "header": request.format = .header
        case "kubectl-exec": request.format = .kubectlExec
        case "headers-json": request.format = .headersJSON
        default: return nil
        }
        request.idToken = form.idToken
        request.resource = form.resource
        if let provider = form.provider {
            guard let id = providerID(provider) else { return nil }
            request.provider = id
        }
        return request
    }

    /// The values the front takes (`--user` and `--scope`: none).
    static func accepts(_ option: TokenForm.Option, _ value: String) -> Bool {
        switch option {
        case .keystore, .config: return isPath(value)
        case .minimumTTL: return seconds(value) != nil
        case .format: return value == "raw" || value == "header" || value == "kubectl-exec" || value == "headers-json"
        case .resource: return CachedResourceAnswer.isPlainResource(value)
        case .user, .scope: return false
        }
    }

    /// A path the core takes as it is: printable ASCII, not only spaces (non-ASCII, control
    /// characters and Unicode spaces: the full program's).
    public static func isPath(_ text: String) -> Bool {
        !text.isEmpty && isPrintableASCII(text) && text.utf8.contains { $0 != 0x20 }
    }

    public static func isPrintableASCII(_ text: String) -> Bool { text.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F } }

    /// `--min-ttl`'s value: digits only, 0…86400.
    static func seconds(_ text: String) -> Int? {
        guard !text.isEmpty, text.utf8.count <= 6, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        var value = 0
        for digit in text.utf8 { value = value * 10 + Int(digit - 0x30) }
        return value <= 86_400 ? value : nil
    }

    /// A provider id as `ProviderID(parsing:)` takes it, in the form identities are stored under.
    static func providerID(_ text: String) -> String? {
        switch text {
        case "microsoft", "microsoft.com": return "microsoft.com"
        case "apple", "apple.com": return "apple.com"
        default:
            guard text.hasPrefix("oidc.") else { return nil }
            let name = text.utf8.dropFirst(5)
            guard !name.isEmpty, name.count <= 64,
                name.allSatisfy({ ($0 >= 97 && $0 <= 122) || ($0 >= 48 && $0 <= 57) || $0 == 45 || $0 == 95 })
            else { return nil }
            return text
        }
    }
}
