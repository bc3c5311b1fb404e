extension TokenSet {
    /// What a refresh (or a workload's new grant) proves: the key, required to bind the new
    /// tokens again when these are bound, offered when only the refresh token may be (RFC 9449
    /// §5); nil when the tokens are bound and the key is missing (`AuthError.dpopKeyMissing`).
    public var refreshProof: TokenClient.Proof? {
        guard let proofKey else { return isDPoPBound ? nil : TokenClient.Proof.none }
        return isDPoPBound ? .required(proofKey) : .offered(proofKey)
    }
}
