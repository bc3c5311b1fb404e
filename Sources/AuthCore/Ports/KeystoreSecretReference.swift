import Glibc

/// The keystore's own secrets may never be named as a client's (docs/security.md): a
/// configuration that is shared or kept with a project could otherwise send the passphrase,
/// the key file or the keystore itself to a server as a "client secret". Checked when a
/// provider is written (`providers add`), when config.json is read (`ConfigStore.load`), and
/// again at every read of a secret, whatever record named it (a workload's, an actor token's).
public enum KeystoreSecretReference {
    /// The variables that hold or unlock the keystore's secrets, or other secrets authctl
    /// reads for itself (`ChildEnvironment.secretVariables`): never a client's secret.
    public static func isKeystoreVariable(_ name: String) -> Bool { ChildEnvironment.secretVariables.contains(name) }

    /// Refuses `name` as where a client secret, a federated token or an actor token is read.
    /// - Parameter option: the option or field that named it.
    public static func checkVariable(_ name: String, option: Message.Input) throws {
        guard isKeystoreVariable(name) else { return }
        throw AuthError.notConfigured(
            "\(input: option) names \(name), which holds or unlocks authctl's own secrets (the keystore's passphrase or key, a token authctl hands out): it is never sent as a client's secret. Nothing was sent. Name the variable that holds the client's secret"
        )
    }

    /// Refuses `path` when it is one of `keystoreFiles` (the keystore, its lock, its key file),
    /// compared by the file they are (device and inode), not by how they are spelled.
    public static func checkFile(_ path: String, keystoreFiles: [String], option: Message.Input) throws {
        var target = stat()
        guard stat(path, &target) == 0 else { return }
        for file in keystoreFiles where !file.isEmpty {
            var own = stat()
            guard stat(file, &own) == 0, own.st_dev == target.st_dev, own.st_ino == target.st_ino else { continue }
            throw AuthError.notConfigured(
                "\(input: option) names \(Sanitize.text(path, limit: 200)), which is the keystore or its key file: authctl's own secrets are never sent as a client's. Nothing was sent. Name the file that holds the client's secret"
            )
        }
    }
}
