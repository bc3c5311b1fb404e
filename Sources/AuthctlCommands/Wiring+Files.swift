import AuthCore

#if canImport(Glibc)
    import Glibc
#endif

/// The files and the keyring the commands touch beside their use cases, chosen here with
/// the rest of the real parts (`Wiring`): no command file builds an adapter itself.
extension Wiring {
    /// `data` written 0600 and atomically (`SafeFile`), with the command's randomness: the
    /// token file of `--output-file`, a photo.
    func writePrivateFile(_ data: Data, to path: String, what: String, directory: SafeFile.DirectoryRule = .strict) throws {
        try SafeFile.writeAtomically(data, to: path, what: what, random: useCases().random, directory: directory)
    }

    /// A file read in full (`SafeFile.read`), in any directory; nil when it does not exist.
    func readFile(_ path: String, what: String, code: SafeFile.ErrorCode) throws -> Data? {
        try SafeFile.read(path, what: what, code: code, directory: .any)
    }

    /// The `@FILE` of an option that takes a value or a file (`--authorization-details`).
    static func readArgumentFile(_ path: String, option: Message.Input, limit: Int) throws -> String {
        try SafeFile.readArgumentFile(path, option: option, limit: limit)
    }

    /// Whether `name` is a program this command could run: a path to an executable file, or
    /// an executable file of that name in `$PATH`.
    func isProgram(_ name: String) -> Bool {
        guard !name.isEmpty else { return false }
        if name.contains("/") { return FileManager.default.isExecutableFile(atPath: name) }
        return (environment["PATH"] ?? "").split(separator: ":").contains { FileManager.default.isExecutableFile(atPath: "\($0)/\(name)") }
    }

    /// The system keyring (the Secret Service) a keystore is sealed with.
    var keyring: SecretServiceKeyring { SecretServiceKeyring() }

    /// The file, read up to `limit`: a larger regular file is refused before any byte is
    /// read, anything else (a FIFO, a device) as soon as it gives more. Not a directory.
    /// `refusal` words why it was refused.
    func readBounded(_ file: String, limit: Int, tooLarge: String, refusal: (String) -> AuthError) throws -> Data {
        let fd = open(file, O_RDONLY | O_CLOEXEC | O_NOCTTY)
        guard fd >= 0 else { throw refusal("cannot be read (\(String(cString: strerror(errno))))") }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw refusal("cannot be examined (\(String(cString: strerror(errno))))") }
        if (info.st_mode & S_IFMT) == S_IFDIR { throw refusal("is a directory") }
        if (info.st_mode & S_IFMT) == S_IFREG, info.st_size > off_t(limit) { throw refusal(tooLarge) }
        do {
            return try FileDescriptorInput(descriptor: fd).readToEnd(limit: limit)
        } catch is InputTooLarge {
            throw refusal(tooLarge)
        }
    }
}

extension Wiring {
    /// This machine's name (gethostname(2)), said beside a device code: where the sign-in was
    /// started. Nil when the system gives none.
    static func hostName() -> String? {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return nil }
        let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        guard let name = String(validating: bytes, as: UTF8.self), !name.isEmpty else { return nil }
        return name
    }

    /// `bootstrap` (docs/remote.md): the listener, the browser and the terminal of this
    /// machine, and nothing of its configuration or keystore, which it neither reads nor writes.
    func bootstrap(browserCommand option: String?) -> Bootstrap {
        let terminal = self.terminal
        let clock = io.clock
        let random = SystemRandomSource()
        let browser: any BrowserLauncher =
            if let command = browserCommand(option) {
                CommandBrowserLauncher(command: command, environment: ChildEnvironment(scrubbing: environment, configured: []))
            } else {
                io.browser.hiding([])
            }
        let receivers = SystemRedirectReceivers(
            clock: clock, random: random,
            otherUserPage: SignInPage.otherUser(
                allowedBy: "\(MessageSpelling.option(.allowAnyLocalUser)) (or AUTHCTL_ALLOW_ANY_LOCAL_USER=1)"),
            peers: ProcNetTCPPeerLookup()
        ) { nil }
        return Bootstrap(
            flow: BrokeredSignIn(
                clock: clock, random: random, browser: browser, receivers: receivers, events: EventText(terminal: terminal)))
    }
}
