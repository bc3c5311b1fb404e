/// An ID token obtained elsewhere (`--id-token -`), read only when a sign-in gets to it: the
/// executable reads stdin, so that a refusal that needs no token (Firebase takes no Microsoft
/// ID token, docs/firebase.md) comes before anyone is asked to paste one.
public struct IDTokenInput: Sendable {
    let read: @Sendable () throws -> String

    /// The token from `read` (called once per sign-in).
    public init(reading read: @escaping @Sendable () throws -> String) { self.read = read }

    /// A token in hand.
    public init(_ token: String) { read = { token } }

    /// The token as it was given (a trailing newline included).
    public func token() throws -> String { try read() }
}
