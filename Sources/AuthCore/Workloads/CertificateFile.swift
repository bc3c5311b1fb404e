extension SecretSource {
    /// A PEM with a private key and its certificate (`--certificate-file`), checked as the
    /// Apple `.p8` key is: no symbolic link, owned by the user, readable by nobody else.
    public func certificateFile(_ path: String) throws -> String {
        try SafeFile.readSecretText(
            path, what: "the certificate file", check: "\(input: .certificateFile) (a PEM with the private key and the certificate)")
    }
}
