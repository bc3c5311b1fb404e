/// Where the credential of a `login`, `link` or `reauth` comes from (docs/authctl.1).
public enum CredentialSource: Sendable {
    /// An interactive sign-in: the browser flow of docs/sign-in.md, `--manual`, or the device flow.
    case interactive(FlowOptions)
    /// An ID token obtained elsewhere (`--id-token -`, read from stdin by the executable when
    /// the sign-in gets to it), with the raw nonce it was requested with, if any (`--raw-nonce`).
    case idToken(IDTokenInput, rawNonce: String?)
    /// A pending credential saved by an earlier conflict (`login --credential`, `link --pending`).
    case pending(handle: String)

    /// The same source with its ID token read now (first, before anything is checked).
    func withIDTokenRead() throws -> CredentialSource {
        guard case .idToken(let input, let rawNonce) = self else { return self }
        return .idToken(IDTokenInput(try input.token()), rawNonce: rawNonce)
    }
}
