extension SecretSource {
    /// A PEM with a private key and its certificate (a workload's `--certificate-file`, a
    /// provider's `--client-certificate-file`), checked as the Apple `.p8` key is: no
    /// symbolic link, owned by the user, readable by nobody else.
    public func certificateFile(_ path: String, option: Message.Input = .certificateFile) throws -> String {
        try checkNotKeystoreFile(path, option: option)
        return try SafeFile.readSecretText(
            path, what: "the certificate file", check: "\(input: option) (a PEM with the private key and the certificate)")
    }
}
