#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension SecretSource {
    /// The most a federated token may be: 64 KiB (a real one is one or two KiB).
    public static var federatedTokenLimit: Int { 64 << 10 }

    /// A federated token read from a file, afresh at every grant (`--federated-token-file`).
    ///
    /// Unlike a client secret file, it may be a symbolic link: Kubernetes projects service
    /// account tokens as `token → ..data/token` and swaps `..data` when it rotates them
    /// (Azure Workload Identity's `AZURE_FEDERATED_TOKEN_FILE`). Kubernetes writes it as root
    /// and lets the pod read it, so the file (where the link leads) must be the user's or
    /// root's, and no one else may write it: another local user's file could hold a token of
    /// theirs, which authctl would present as the workload's. A regular file of at most
    /// 64 KiB, and text.
    public func federatedTokenFile(_ path: String) throws -> String {
        try checkNotKeystoreFile(path, option: .federatedTokenFile)
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        guard fd >= 0 else {
            throw AuthError.notConfigured(
                "the federated token file \(path) cannot be read (\(String(cString: strerror(errno)))). Check \(input: .federatedTokenFile): the CI service writes it (Kubernetes: the projected service account token)"
            )
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            throw AuthError.notConfigured("the federated token file \(path) is not a regular file. Check \(input: .federatedTokenFile)")
        }
        guard info.st_uid == geteuid() || info.st_uid == 0 else {
            throw AuthError.notConfigured(
                "the federated token file \(path) belongs to another user (uid \(info.st_uid)), who could put a token of theirs in it. Use a file of your own or root's (\(input: .federatedTokenFile))"
            )
        }
        guard info.st_mode & (S_IWGRP | S_IWOTH) == 0 else {
            throw AuthError.notConfigured(
                "the federated token file \(path) is one that others may write, so its token could be anyone's. Make it writable by its owner alone (chmod go-w '\(path)')"
            )
        }
        var data = Data(count: Self.federatedTokenLimit + 1)
        var length = 0
        while length < data.count {
            let count = data.withUnsafeMutableBytes { buffer -> Int in
                guard let base = buffer.baseAddress else { return -1 }
                return read(fd, base + length, buffer.count - length)
            }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else {
                throw AuthError.notConfigured("the federated token file \(path) could not be read (\(String(cString: strerror(errno))))")
            }
            if count == 0 { break }
            length += count
        }
        guard length <= Self.federatedTokenLimit, let text = String(data: data.prefix(length), encoding: .utf8) else {
            throw AuthError.notConfigured(
                "the federated token file \(path) holds no token (more than 64 KiB, or not text). Check \(input: .federatedTokenFile)")
        }
        return text.trimming(.whitespacesAndNewlines)
    }
}
