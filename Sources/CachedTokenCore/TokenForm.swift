/// The forms of `authctl token …` parsed by hand (the arguments after `token`): one grammar for
/// the full program's hot path (`TokenInvocation.parseFast`) and the token front
/// (`CachedTokenRequest.parse`), each judging the values with its own rules through `accepts`.
/// Nil for anything else — an unknown option, a flag given a value (`--json=x`), a missing value
/// or one that starts with a dash (ArgumentParser's rule), `-vq`, `--`, a second provider, an
/// empty argument — which then goes through ArgumentParser for its usual messages.
public struct TokenForm: Equatable {
    /// The options that take a value.
    public enum Option: Equatable, Sendable { case keystore, config, user, minimumTTL, format, scope, resource }

    public var keystore: String?
    public var config: String?
    public var user: String?
    public var minimumTTL: String?
    public var format: String?
    public var scopes: [String] = []
    /// `--resource URL`: a resource grant's token (docs/resources.md).
    public var resource: String?
    public var provider: String?
    public var json = false, verbose = false, quiet = false
    public var idToken = false, accessToken = false, forceRefresh = false

    public init() {}

    /// `arguments` (after `token`) read; every option's value is first given to `accepts`, and
    /// one it refuses refuses the whole.
    public static func parse(_ arguments: [String], accepts: (Option, String) -> Bool) -> TokenForm? {
        var form = TokenForm()
        var words = CommandWords(arguments)
        while words.next() {
            /// The option's value, inline (`--name=value`) or the next argument, if `accepts` takes it.
            func value(_ option: Option) -> String? {
                guard let text = words.value(), accepts(option, text) else { return nil }
                return text
            }
            func flag(_ value: inout Bool) -> Bool {
                value = true
                return words.inline == nil
            }
            let read: Bool
            switch words.name {
            case "--json": read = flag(&form.json)
            case "-v", "--verbose": read = flag(&form.verbose)
            case "-q", "--quiet": read = flag(&form.quiet)
            case "--id-token": read = flag(&form.idToken)
            case "--access-token": read = flag(&form.accessToken)
            case "--force-refresh": read = flag(&form.forceRefresh)
            case "--keystore": read = set(&form.keystore, value(.keystore))
            case "--config": read = set(&form.config, value(.config))
            case "--user": read = set(&form.user, value(.user))
            case "--min-ttl": read = set(&form.minimumTTL, value(.minimumTTL))
            case "--format": read = set(&form.format, value(.format))
            case "--resource": read = set(&form.resource, value(.resource))
            case "--scope":
                guard let scope = value(.scope) else { return nil }
                form.scopes.append(scope)
                read = true
            default:
                read = !words.argument.hasPrefix("-") && !words.argument.isEmpty && form.provider == nil
                form.provider = words.argument
            }
            guard read else { return nil }
        }
        // Token.validate's rule: ArgumentParser refuses both, so hand them over.
        if form.idToken && form.accessToken { return nil }
        return form
    }

    static func set(_ target: inout String?, _ value: String?) -> Bool {
        guard let value else { return false }
        target = value
        return true
    }
}
