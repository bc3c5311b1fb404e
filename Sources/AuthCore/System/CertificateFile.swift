#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension SecretSource {
    /// A PEM with a private key and its certificate (`--certificate-file`), checked as the
    /// Apple `.p8` key is: no symbolic link, owned by the user, readable by nobody else.
    public func certificateFile(_ path: String) throws -> String {
        guard
            let data = try SafeFile.read(
                path, what: "the certificate file", code: .providerNotConfigured, directory: .any, limit: SafeFile.secretFileLimit),
            let text = String(data: data, encoding: .utf8)
        else {
            throw AuthError.notConfigured(
                "the certificate file \(path) does not exist or is not text. Check \(input: .certificateFile) (a PEM with the private key and the certificate)"
            )
        }
        return text
    }
}
