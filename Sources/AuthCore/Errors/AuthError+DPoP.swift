extension AuthError {
    /// A DPoP-bound token (`token_type` `DPoP`) whose key the keystore does not hold: it can
    /// be neither used nor refreshed, and is never sent as a bearer token (docs/security.md).
    public static func dpopKeyMissing(_ what: String, signIn: Message? = nil) -> AuthError {
        .invalidCredential(
            "\(what) is bound to a DPoP key the keystore does not hold (the file was changed or damaged); it cannot be used or refreshed without it. \(signIn ?? "Sign in again")"
        )
    }
}
