import FrontLibc

// `authctl git-credential PROVIDER get` (issue 37, docs/front.md): git's credential helper,
// answered from the cache when the cached-token core is sure (CachedGitCredential). git's
// description comes on stdin, which an exec cannot give back: the front decides all it can
// before reading (the command line, the environment, the files), reads only then — up to a
// blank line or the end of input, bounded — and when it does not answer, hands the full
// program a new stdin holding exactly the bytes it read (front_replay_stdin: a pipe filled
// before the exec). The full program stops at the blank line too, so it reads the same.

/// What `git-credential` asked when the front may answer it: the provider's stored id and
/// the files; nil for anything else (another operation, `--scope`, `--user`, any other option).
struct GitCredentialRequest {
    var provider = ""
    var keystore: String?
    var config: String?

    static func parse(_ arguments: [String]) -> GitCredentialRequest? {
        guard arguments.first == "git-credential" else { return nil }
        var request = GitCredentialRequest()
        var positionals: [String] = []
        var index = 1
        while index < arguments.count {
            let argument = arguments[index]
            if argument == "--keystore" || argument == "--config" {
                guard index + 1 < arguments.count else { return nil }
                let value = arguments[index + 1]
                guard CachedTokenRequest.isPath(value), !value.hasPrefix("-") else { return nil }
                if argument == "--keystore" {
                    guard request.keystore == nil else { return nil }
                    request.keystore = value
                } else {
                    guard request.config == nil else { return nil }
                    request.config = value
                }
                index += 2
                continue
            }
            guard !argument.hasPrefix("-") else { return nil }
            positionals.append(argument)
            index += 1
        }
        guard positionals.count == 2, positionals[1] == "get", let provider = CachedTokenRequest.providerID(positionals[0]) else {
            return nil
        }
        request.provider = provider
        return request
    }
}

/// The exit status of `git-credential … get` when the front takes it (answered, or handed over
/// with stdin replayed); nil when it is not such a command (nothing read).
func gitCredential(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32? {
    guard let arguments = plainArguments(argc, argv), let request = GitCredentialRequest.parse(arguments),
        let user = currentUserRecord(keystore: request.keystore, config: request.config)
    else { return nil }
    // Decided all it could: now git's description.
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4_096)
    while bytes.count < CachedGitCredential.readLimit, !CachedGitCredential.isComplete(bytes) {
        let count = chunk.withUnsafeMutableBufferPointer { buffer -> Int in
            guard let base = buffer.baseAddress else { return -1 }
            return read(0, base, min(buffer.count, CachedGitCredential.readLimit - bytes.count))
        }
        if count < 0, errno == EINTR { continue }
        if count < 0 {
            // Nothing read: stdin is as it was, the full program meets the same error.
            if bytes.isEmpty { return handOver(argv) }
            break
        }
        if count == 0 { break }
        bytes.append(contentsOf: chunk[0..<count])
    }
    if let description = CachedGitCredential.description(bytes), let now = nowSeconds(),
        let answer = CachedGitCredential.answer(description, provider: request.provider, user: user, now: now)
    {
        if writeAll(answer) { return 0 }
        return 1
    }
    let replayed = bytes.withUnsafeBufferPointer { buffer -> Int32 in
        guard let base = buffer.baseAddress else { return front_replay_stdin(nil, 0) }
        return front_replay_stdin(base, buffer.count)
    }
    guard replayed == 0 else {
        fail("authctl: could not hand git's credential description to the full program (" + String(cString: strerror(errno)) + ")\n")
        return 1
    }
    return handOver(argv)
}
