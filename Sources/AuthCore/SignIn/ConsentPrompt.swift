/// A person asked before a change that needs consent (docs/apple.md: linking a private-relay
/// identity; docs/resources.md: lending a configured provider to a resource on another
/// origin). docs/getting-started.md: nobody is asked without a terminal. The command layer
/// words the question (`TerminalConsentPrompt`).
public protocol ConsentPrompt: Sendable {
    /// True when a person can be asked (stdin and stderr are a terminal).
    var canAsk: Bool { get }
    /// Whether the person agrees to link `providerID` to `user`, which needs consent for
    /// `reason` (`AccountRules.consentReason`): true only for a yes. Only called when `canAsk`.
    func agreesToLink(_ providerID: String, to user: User, reason: String) -> Bool
    /// Whether the person agrees to sign in to a resource through a provider they configured
    /// for another purpose, asking it for these scopes: true only for a yes. Only called when
    /// `canAsk`.
    func agreesToLend(_ lending: BorrowedProvider) -> Bool
    /// Whether the person agrees that a resource's grant moves to another authorization server
    /// (the one its metadata names now): true only for a yes. Only called when `canAsk`.
    func agreesToMove(_ move: ServerMove) -> Bool
}

/// A resource whose grant was issued by `from`, and whose metadata names `to` now
/// (docs/resources.md, "When the authorization server changes").
public struct ServerMove: Sendable, Equatable {
    public var resource: String
    /// The grant's issuer.
    public var from: String
    /// The server the resource names now.
    public var to: String

    public init(resource: String, from: String, to: String) {
        self.resource = resource
        self.from = from
        self.to = to
    }
}

/// A configured provider lent to a protected resource on another origin than its issuer's
/// (docs/resources.md): the resource would receive a token of the person's account there.
/// What the person is asked, and what `consent-required` names.
public struct BorrowedProvider: Sendable, Equatable {
    /// The provider (client) configured by the person, `oidc.corp`.
    public var providerID: String
    /// Its issuer: the authorization server the resource lists.
    public var issuer: String
    /// The resource identifier the token would be for.
    public var resource: String
    /// The scopes the sign-in would ask.
    public var scopes: [String]

    public init(providerID: String, issuer: String, resource: String, scopes: [String]) {
        self.providerID = providerID
        self.issuer = issuer
        self.resource = resource
        self.scopes = scopes
    }
}
