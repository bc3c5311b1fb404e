import FrontLibc

// `authctl request URL` answered without the full program (issue 37, docs/front.md): the token
// front execs `lib/authctl/authctl-request` — these sources built a second time, as a dynamic
// executable that loads libcurl — when the cached-token core says what the full program would
// send (`CachedRequestPlan`): a cached bearer grant, a plain URL, no proxy, stdout not a
// terminal. It sends that with the options `CurlTransport` sets for a streamed answer and writes
// the body as it comes. An answer the full program would not simply print — a 401, a 403 with a
// challenge (a refresh or a step-up) — is dropped unread and the command handed to the full
// program, which sends it again and decides; so is anything that fails before the request
// could be sent. Other endings are the full program's words and status (`CachedRequestWords`).

/// The plan for this command line, or nil when the full program must run it (the front's
/// test before it execs the request program, and the request program's own).
func requestPlan(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CachedRequestPlan? {
    guard let arguments = plainArguments(argc, argv), let command = CachedRequest.parse(arguments) else { return nil }
    // A terminal gets the body visible-safe (the full program's filter); a proxy is the full
    // program's to choose and to name.
    guard isatty(1) == 0 else { return nil }
    // A closed standard descriptor would be taken by the next file opened (libcurl's own
    // socket pair): the full program's to meet.
    guard front_fd_is_open(0), front_fd_is_open(1), front_fd_is_open(2) else { return nil }
    for name in CachedRequestPlan.proxyVariables where getenv(name) != nil { return nil }
    guard let user = currentUserRecord(keystore: command.keystore, config: command.config), let now = nowSeconds() else { return nil }
    return CachedRequestPlan.make(command, user: user, now: now)
}

#if AUTHCTL_REQUEST
    /// The request program's answer: its exit status, or nil when the full program must run the
    /// command (nothing was written).
    func requestAnswer(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32? {
        guard let plan = requestPlan(argc, argv) else { return nil }
        var body: [UInt8]?
        switch plan.body {
        case .none: body = nil
        case .text(let text): body = Array(text.utf8)
        case .file(let path):
            guard let bytes = regularFile(path, limit: 16 << 20) else { return nil }
            body = bytes
        }
        var curl = front_curl()
        guard front_curl_load(&curl) == 0 else { return nil }
        front_request_signals()
        return send(plan, body: body, curl: curl)
    }

    /// What one transfer saw: the callbacks' state (one transfer per process).
    struct Transfer {
        var status: Int?
        /// A `WWW-Authenticate` header of the final head that says `insufficient_scope`.
        var asksScope = false
        /// The body came after a head without a status (the full program's words, exit 3).
        var noStatus = false
        /// Decided at the end of the head: stream it, or hand the command over.
        var streams: Bool?
        var streamed = 0
        var stdoutClosed = false
        var headLate = false
        var headDeadline = 0.0
    }

    nonisolated(unsafe) var transfer = Transfer()

    /// Whether to give the answer with this status (`CachedRequestPlan.streams`), or hand the
    /// command over.
    func decide(_ status: Int) -> Bool { CachedRequestPlan.streams(status: status, asksScope: transfer.asksScope) }

    /// `CurlTransport`'s head deadline and total time: the transport's 30 seconds.
    let transportTimeout = 30

    func send(_ plan: CachedRequestPlan, body: [UInt8]?, curl loaded: front_curl) -> Int32? {
        var curl = loaded
        guard let easy = front_curl_easy_init(&curl) else { return nil }
        defer { front_curl_easy_cleanup(&curl, easy) }
        var list: UnsafeMutableRawPointer?
        defer { front_curl_slist_free_all(&curl, list) }
        for line in plan.headerLines + ["Expect:"] {
            guard let appended = front_curl_slist_append(&curl, list, line) else { return nil }
            list = appended
        }
        var errors = [CChar](repeating: 0, count: 256)  // CURL_ERROR_SIZE
        let bodyBytes = (body ?? []) + [0]
        transfer.headDeadline = front_monotonic_seconds() + Double(transportTimeout)
        let code = errors.withUnsafeMutableBufferPointer { errorBuffer -> Int32? in
            bodyBytes.withUnsafeBufferPointer { bodyBuffer -> Int32? in
                // `LibCurl.transfer`'s options for a streamed answer, in its order.
                var set = [
                    front_curl_setopt_pointer(&curl, easy, 10002, plan.url),  // URL
                    front_curl_setopt_long(&curl, easy, 181, 3),  // PROTOCOLS: HTTP | HTTPS
                    front_curl_setopt_long(&curl, easy, 52, 0),  // FOLLOWLOCATION
                    front_curl_setopt_long(&curl, easy, 234, 1),  // PATH_AS_IS
                    front_curl_setopt_long(&curl, easy, 99, 1),  // NOSIGNAL
                    front_curl_setopt_long(&curl, easy, 155, 0),  // TIMEOUT_MS: none for a streamed answer
                    front_curl_setopt_long(&curl, easy, 156, 15000),  // CONNECTTIMEOUT_MS: min(timeout, 15) s
                    front_curl_setopt_pointer(&curl, easy, 10102, ""),  // ACCEPT_ENCODING
                    front_curl_setopt_pointer(&curl, easy, 10010, errorBuffer.baseAddress),  // ERRORBUFFER
                    front_curl_setopt_data_callback(&curl, easy, 20011, onBody),  // WRITEFUNCTION
                    front_curl_setopt_data_callback(&curl, easy, 20079, onHeader),  // HEADERFUNCTION
                    front_curl_setopt_long(&curl, easy, 43, 0),  // NOPROGRESS
                    front_curl_setopt_progress(&curl, easy, 20219, onProgress),  // XFERINFOFUNCTION
                    front_curl_setopt_long(&curl, easy, 265, 1),  // SUPPRESS_CONNECT_HEADERS
                    front_curl_setopt_pointer(&curl, easy, 10004, ""),  // PROXY: direct
                    front_curl_setopt_pointer(&curl, easy, 10177, CachedRequestPlan.noProxy),  // NOPROXY
                    front_curl_setopt_pointer(&curl, easy, 10018, CachedRequestPlan.userAgent),  // USERAGENT
                ]
                if plan.method == "POST" || body != nil {
                    set.append(front_curl_setopt_long(&curl, easy, 47, 1))  // POST
                    set.append(front_curl_setopt_offset(&curl, easy, 30120, Int64(body?.count ?? 0)))  // POSTFIELDSIZE_LARGE
                    set.append(front_curl_setopt_pointer(&curl, easy, 10015, bodyBuffer.baseAddress))  // POSTFIELDS
                }
                if plan.method != "POST", plan.method != "GET" || body != nil {
                    set.append(front_curl_setopt_pointer(&curl, easy, 10036, plan.method))  // CUSTOMREQUEST
                }
                set.append(front_curl_setopt_pointer(&curl, easy, 10023, list))  // HTTPHEADER
                // An option this libcurl refuses: nothing was sent; the full program says which.
                guard set.allSatisfy({ $0 == 0 }) else { return nil }
                return front_curl_easy_perform(&curl, easy)
            }
        }
        guard let code else { return nil }
        if front_interrupted() != 0 { return ending(CachedRequestWords.interrupted, status: 130) }
        if transfer.stdoutClosed { return 141 }
        if transfer.headLate { return ending(CachedRequestWords.noHead(plan.host, seconds: transportTimeout), status: 3) }
        if transfer.noStatus { return ending(CachedRequestWords.noStatusLine, status: 3) }
        if transfer.streams == nil, code == 0 {
            // No body: decided on the status libcurl reports (`LibCurl.perform`).
            var reported = 0
            if transfer.status == nil {
                guard front_curl_getinfo_long(&curl, easy, 0x200002, &reported) == 0 else {
                    return ending(CachedRequestWords.noStatusLine, status: 3)
                }
                transfer.status = reported
            }
            guard let status = transfer.status else { return ending(CachedRequestWords.noStatusLine, status: 3) }
            transfer.streams = decide(status)
        }
        // A refresh or a step-up: the full program's, which sends again and decides. Nothing was written.
        if transfer.streams == false { return nil }
        guard code == 0 else {
            // The full program's words for what libcurl says (a connection refused, a reset, a
            // body cut short): a request that may have reached the resource is not sent twice.
            let detail = errors.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
            let given = detail.isEmpty ? front_curl_easy_strerror(&curl, code).map { Array(String(cString: $0).utf8) } ?? [] : detail
            let reason = CachedRequestWords.reason(given) ?? "error " + String(code)
            return transfer.streamed > 0
                ? ending(CachedRequestWords.cutShort(plan.host, after: transfer.streamed, reason: reason), status: 3)
                : ending(CachedRequestWords.couldNotReach(plan.host, reason: reason), status: 3)
        }
        guard let status = transfer.status else { return nil }
        return status >= 400 ? ending(CachedRequestWords.resourceAnswered(status), status: 22) : 0
    }

    /// `authctl: MESSAGE` on stderr, and `status`.
    func ending(_ message: String, status: Int32) -> Int32 {
        fail("authctl: " + message + "\n")
        return status
    }

    /// Header lines of the last response (an interim 1xx head starts over), decided at its end.
    let onHeader: front_curl_data_callback = { data, size, count, _ in
        guard let data else { return 0 }
        let length = size * count
        if transfer.streams != nil { return length }  // trailers
        let line = UnsafeRawBufferPointer(start: data, count: length).bindMemory(to: UInt8.self)
        switch CachedRequestPlan.headLine(line) {
        case .status(let status):
            transfer.status = status
            transfer.asksScope = false
        case .challenge(let asksScope): transfer.asksScope = transfer.asksScope || asksScope
        case .end:
            // Without a status, decided when the body comes (`LibCurl.receiveHeader`).
            guard let status = transfer.status, !(100...199).contains(status) else { return length }
            transfer.streams = decide(status)
            return transfer.streams == true ? length : 0  // a hand-over stops the transfer
        case .other: break
        }
        return length
    }

    /// The body, written to stdout as it comes once the head said to.
    let onBody: front_curl_data_callback = { data, size, count, _ in
        guard let data else { return 0 }
        let length = size * count
        if transfer.streams == nil {
            // `LibCurl.decideIfNeeded`: a body after a head without a status ends the transfer.
            guard let status = transfer.status else {
                transfer.noStatus = true
                return 0
            }
            transfer.streams = decide(status)
        }
        guard transfer.streams == true else { return 0 }
        var written = 0
        while written < length {
            let result = write(1, data + written, length - written)
            if result < 0, errno == EINTR { continue }
            guard result > 0 else {
                transfer.stdoutClosed = true
                return 0
            }
            written += result
        }
        transfer.streamed += length
        return length
    }

    /// Ctrl-C, and a head later than its deadline, stop the transfer.
    let onProgress: front_curl_progress_callback = { _, _, _, _, _ in
        if front_interrupted() != 0 { return 1 }
        if transfer.streams == nil, front_monotonic_seconds() > transfer.headDeadline {
            transfer.headLate = true
            return 1
        }
        return 0
    }

    /// A regular file's bytes, read to its end, `limit` at most; nil for anything else (the full
    /// program reads FIFOs and devices, and words every refusal). Its type is checked before it
    /// is opened for reading: opening a FIFO would take the place of the full program's reader.
    func regularFile(_ path: String, limit: Int) -> [UInt8]? {
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & 0o170000 == 0o100000 else { return nil }
        let fd = front_open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        guard fstat(fd, &info) == 0, info.st_mode & 0o170000 == 0o100000 else { return nil }
        // Read to the end, not to `st_size` (a file of /proc says 0 and holds more).
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { buffer -> Int in
                guard let base = buffer.baseAddress else { return -1 }
                return read(fd, base, buffer.count)
            }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { return nil }
            if count == 0 { return bytes }
            bytes += chunk[..<count]
            guard bytes.count <= limit else { return nil }
        }
    }
#endif
