/// Where the credential of a `login`, `link` or `reauth` comes from (SPEC §2).
public enum CredentialSource: Sendable {
    /// An interactive sign-in: the browser flow of SPEC §3, `--manual`, or the device flow.
    case interactive(FlowOptions)
    /// An ID token obtained elsewhere (`--id-token -`, read from stdin by the executable),
    /// with the raw nonce it was requested with, if any (`--raw-nonce`).
    case idToken(String, rawNonce: String?)
    /// A pending credential saved by an earlier conflict (`login --credential`, `link --pending`).
    case pending(handle: String)
}

