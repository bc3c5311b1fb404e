import FrontLibc

// authctl's front (issue 24, bench/README.md): the small static-PIE program installed as
// `bin/authctl`. It answers the commonest `authctl token` itself — a valid cached access token
// of the current user, read from a plaintext keystore or one sealed with a key file, or its
// ID token as kubectl's
// ExecCredential — and for everything else executes the
// full program (`<bindir>/../lib/authctl/authctl`) with the very same arguments and
// environment, having printed and read nothing. Whenever it is not sure, it hands over: the
// full program then answers as it always does, with its own messages and exit status.
// docs/front.md describes it; Tests/Front/run-front-test.sh holds it to the full program.
// What it reads and answers is the cached-token core's (Sources/CachedTokenCore, compiled in
// whole by scripts/build-front.sh); this program keeps the system calls and the AES glue.

@_cdecl("main")
func frontMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    #if AUTHCTL_REQUEST
        // The request program (FrontRequest.swift): `request` sent, or the full program's.
        if let status = requestAnswer(argc, argv) { return status }
        return handOver(argv)
    #else
        return frontAnswer(argc, argv)
    #endif
}

func frontAnswer(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    // `request` from a cached bearer grant: the request program's, which loads libcurl (this
    // static program cannot); when it cannot be run, the full program sends it.
    if argc > 1, let first = argv[1], strcmp(first, "request") == 0, requestPlan(argc, argv) != nil {
        _ = execInstalled(argv, program: "authctl-request", levels: 1)
    }
    if argc > 1, let first = argv[1], strcmp(first, "git-credential") == 0, let status = gitCredential(argc, argv) {
        return status
    }
    if argc > 1, let first = argv[1], strcmp(first, "status") == 0, let status = statusAnswer(argc, argv) {
        if writeAll(status) { return 0 }
    }
    if let token = answer(argc, argv) {
        if writeAll(token) { return 0 }
    }
    return handOver(argv)
}

/// The bytes `authctl token` prints for this command line, or nil when the front does not answer it.
func answer(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> [UInt8]? {
    guard let arguments = plainArguments(argc, argv), let request = CachedTokenRequest.parse(arguments),
        let user = currentUserRecord(keystore: request.keystore, config: request.config), let now = nowSeconds()
    else { return nil }
    return CachedTokenAnswer.bytes(request, user: user, now: now)
}

/// The bytes `authctl status [--json]` prints for this command line, or nil when the front does
/// not answer it (Sources/CachedTokenCore/CachedStatusAnswer.swift).
func statusAnswer(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> [UInt8]? {
    guard let arguments = plainArguments(argc, argv), let request = CachedStatusAnswer.Request.parse(arguments),
        let user = currentUserRecord(keystore: request.keystore, config: request.config), let now = nowSeconds()
    else { return nil }
    return CachedStatusAnswer.bytes(request, user: user, now: now)
}

/// The command line after the program's name when every argument is printable ASCII; nil
/// for anything else (the full program's).
func plainArguments(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> [String]? {
    var arguments: [String] = []
    var index = 1
    while index < Int(argc) {
        guard let pointer = argv[index], let argument = plainText(pointer) else { return nil }
        arguments.append(argument)
        index += 1
    }
    return arguments
}

/// The current user's record from the keystore `--keystore` (or the environment) names, when
/// nothing else chooses the user or seals the keystore and config.json holds no rules: what
/// `token` and `git-credential get` answer from; nil: the full program's.
func currentUserRecord(keystore: String?, config: String?) -> CachedUser? {
    // What else chooses the user or seals the keystore: the full program's to read.
    for name in ["AUTHCTL_USER", "AUTHCTL_KEYSTORE_PASSPHRASE", "AUTHCTL_KEYSTORE_KEYRING"] {
        if let value = getenv(name), value[0] != 0 { return nil }
    }
    // A key file (a keystore sealed with one, docs/keystore.md): empty is unset, as in the core.
    var keyFile: String?
    if let value = getenv("AUTHCTL_KEYSTORE_KEY_FILE"), value[0] != 0 {
        guard let text = plainText(value) else { return nil }
        keyFile = text
    }
    guard
        let keystorePath = resolvedPath(
            keystore, variable: "AUTHCTL_KEYSTORE", xdg: "XDG_DATA_HOME", fallback: ".local/share", file: "keystore.json"),
        let configPath = resolvedPath(config, variable: "AUTHCTL_CONFIG", xdg: "XDG_CONFIG_HOME", fallback: ".config", file: "config.json"),
        !configMayHoldRules(configPath)
    else { return nil }
    return cachedUser(keystorePath: keystorePath, keyFile: keyFile)
}

/// A C string of printable ASCII as a String; nil for anything else (the full program's).
func plainText(_ pointer: UnsafePointer<CChar>) -> String? {
    let length = strlen(pointer)
    let bytes = UnsafeRawPointer(pointer).bindMemory(to: UInt8.self, capacity: length)
    let buffer = UnsafeBufferPointer(start: bytes, count: length)
    guard buffer.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else { return nil }
    return String(decoding: buffer, as: UTF8.self)
}

/// `CommandFiles.keystorePath` and `configPath`: the option, else the variable, else the XDG place;
/// nil when the front does not take what it finds (a value that is not printable ASCII, no
/// usable HOME): then the full program decides.
func resolvedPath(_ option: String?, variable: String, xdg: String, fallback: String, file: String) -> String? {
    if let option { return option }
    if let value = getenv(variable) {
        guard let text = plainText(value), CachedTokenRequest.isPath(text) else { return nil }
        return text
    }
    return xdgPath(xdg, fallback, file)
}

/// `CommandFiles.xdg`: `$VARIABLE` when absolute, else `$HOME/fallback`, then `authctl/file`; nil
/// without a usable HOME (the core then asks the password database: the full program's).
func xdgPath(_ variable: String, _ fallback: String, _ file: String) -> String? {
    if let value = getenv(variable), let text = plainText(value), text.hasPrefix("/") { return text + "/authctl/" + file }
    if let value = getenv(variable), plainText(value) == nil { return nil }
    guard let home = getenv("HOME"), let text = plainText(home), !text.isEmpty else { return nil }
    return text + "/" + fallback + "/authctl/" + file
}
