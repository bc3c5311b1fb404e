/// A rule of a provider's configuration that one field breaks: `field` is its config.json
/// key, `error` the message `providers add` gives (naming the option).
public struct ConfigFieldError: Error, Sendable {
    public let field: String
    public let error: AuthError
    /// The entry's key in the file, when known where the problem was found.
    public var provider: String?
}
