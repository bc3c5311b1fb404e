import CLibCurlShim
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

extension LibCurl {

    /// One blocking transfer (run on its own thread), its answer read whole.
    func perform(_ request: HTTPRequest, settings: Settings, cancelled: CancellationFlag) throws -> HTTPResponse {
        let exchange = Exchange(cancelled: cancelled, maximumBody: max(request.responseLimit, 0), streaming: nil)
        let code = try transfer(request, settings: settings, exchange: exchange)
        return HTTPResponse(status: code, headers: exchange.headers, body: exchange.body)
    }

    /// One blocking transfer (run on its own thread), its body handed to `streaming.sink` as it
    /// arrives once `streaming.decide` said so.
    func perform(_ request: HTTPRequest, settings: Settings, cancelled: CancellationFlag, streaming: Streaming) throws
        -> HTTPResponseHead
    {
        let exchange = Exchange(cancelled: cancelled, maximumBody: 0, streaming: streaming)
        let code = try transfer(request, settings: settings, exchange: exchange)
        if streaming.decision == nil {
            // No body and no end of the headers seen: decided now, on the status libcurl reports.
            streaming.status = streaming.status ?? code
            guard exchange.decideIfNeeded() else { throw streaming.failure ?? CancellationError() }
        }
        return streaming.head ?? HTTPResponseHead(status: code, headers: exchange.headers)
    }

    /// Sets the request up, runs it and returns the HTTP status; every failure is an error
    /// that names the host (or the proxy), never the query.
    func transfer(_ request: HTTPRequest, settings: Settings, exchange: Exchange) throws -> Int {
        let host = request.url.host ?? "?"
        guard let easy = easyInit() else { throw AuthError.network("libcurl could not start a request to \(host). Try again") }
        defer { easyCleanup(easy) }
        let cancelled = exchange.cancelled
        let streaming = exchange.streaming
        let context = Unmanaged.passUnretained(exchange).toOpaque()
        var headerList: OpaquePointer?
        defer { slistFreeAll(headerList) }
        var errorBuffer = [CChar](repeating: 0, count: 256)  // CURL_ERROR_SIZE
        // libcurl reads the POST body from this buffer during the transfer (it does not copy it).
        let body = [UInt8](request.body ?? Data()) + [0]
        let route = settings.route

        func check(_ option: Option, _ code: Int32) throws {
            if code != 0 { throw OptionRefused(option: option, code: code) }
        }
        let status: Int32
        do {
            status = try errorBuffer.withUnsafeMutableBufferPointer { errors in
                try body.withUnsafeBufferPointer { bodyBytes in
                    try check(.url, setoptPointer(easy, Option.url.rawValue, request.url.absoluteString))
                    try check(.protocols, setoptLong(easy, Option.protocols.rawValue, Self.protocolHTTP | Self.protocolHTTPS))
                    try check(.followLocation, setoptLong(easy, Option.followLocation.rawValue, 0))
                    // The path as given: what was checked (a resource's grant, an endpoint's
                    // origin) is what is sent, never normalised again here (RFC 3986 §5.2.4).
                    try check(.pathAsIs, setoptLong(easy, Option.pathAsIs.rawValue, 1))
                    try check(.noSignal, setoptLong(easy, Option.noSignal.rawValue, 1))
                    // A streamed answer has no total time limit (its head has: the progress callback).
                    try check(.timeoutMS, setoptLong(easy, Option.timeoutMS.rawValue, streaming == nil ? Int(settings.timeout * 1000) : 0))
                    try check(.connectTimeoutMS, setoptLong(easy, Option.connectTimeoutMS.rawValue, Int(min(settings.timeout, 15) * 1000)))
                    try check(.acceptEncoding, setoptPointer(easy, Option.acceptEncoding.rawValue, ""))
                    try check(.errorBuffer, setoptPointer(easy, Option.errorBuffer.rawValue, errors.baseAddress))
                    try check(.writeFunction, setoptCallback(easy, Option.writeFunction.rawValue, Self.receiveBody))
                    try check(.writeData, setoptPointer(easy, Option.writeData.rawValue, context))
                    try check(.headerFunction, setoptCallback(easy, Option.headerFunction.rawValue, Self.receiveHeader))
                    try check(.headerData, setoptPointer(easy, Option.headerData.rawValue, context))
                    try check(.noProgress, setoptLong(easy, Option.noProgress.rawValue, 0))
                    try check(.xferInfoFunction, setoptProgress(easy, Option.xferInfoFunction.rawValue, Self.progress))
                    try check(.xferInfoData, setoptPointer(easy, Option.xferInfoData.rawValue, context))
                    if streaming == nil {
                        // A Content-Length over the limit fails before the body comes; the write
                        // callback enforces it for answers without one.
                        try check(.maxFileSizeLarge, setoptOffset(easy, Option.maxFileSizeLarge.rawValue, Int64(exchange.maximumBody)))
                    } else {
                        // A proxy's answer to CONNECT is not the head to decide on.
                        try check(.suppressConnectHeaders, setoptLong(easy, Option.suppressConnectHeaders.rawValue, 1))
                    }
                    // The proxy chosen here (none for loopback), so that a failure can name it;
                    // NO_PROXY keeps the user's list, with the loopback names added.
                    try check(.proxy, setoptPointer(easy, Option.proxy.rawValue, route.proxy))
                    try check(.noProxy, setoptPointer(easy, Option.noProxy.rawValue, route.noProxy))
                    if let userAgent = settings.userAgent {
                        try check(.userAgent, setoptPointer(easy, Option.userAgent.rawValue, userAgent))
                    }
                    // A body goes with any method that has one (`request -X PUT --data …`): libcurl
                    // sends POSTFIELDS, and CUSTOMREQUEST renames the POST.
                    if request.method == "POST" || request.body != nil {
                        try check(.post, setoptLong(easy, Option.post.rawValue, 1))
                        try check(
                            .postFieldSizeLarge, setoptOffset(easy, Option.postFieldSizeLarge.rawValue, Int64(request.body?.count ?? 0)))
                        try check(.postFields, setoptPointer(easy, Option.postFields.rawValue, bodyBytes.baseAddress))
                    }
                    if request.method != "POST", request.method != "GET" || request.body != nil {
                        try check(.customRequest, setoptPointer(easy, Option.customRequest.rawValue, request.method))
                    }
                    // Suppress libcurl's own `Expect: 100-continue` on POSTs, as URLSession did.
                    for line in request.headers.map({ "\($0.key): \($0.value)" }) + ["Expect:"] {
                        guard let appended = slistAppend(headerList, line) else { throw OptionRefused(option: .httpHeader, code: 27) }
                        headerList = appended
                    }
                    try check(.httpHeader, setoptPointer(easy, Option.httpHeader.rawValue, UnsafeRawPointer(headerList)))
                    return easyPerform(easy)
                }
            }
        } catch let refused as OptionRefused {
            let reason = easyStrerror(refused.code).map { String(cString: $0) } ?? "error \(refused.code)"
            throw AuthError.network(
                "the installed libcurl refused \(refused.option.name) (\(reason)), so authctl did not send the request to \(host). Install libcurl 7.62 or later"
            )
        }
        if cancelled.isSet { throw CancellationError() }
        if exchange.exceeded || status == Self.fileSizeExceeded { throw request.tooLarge() }
        if let streaming {
            if let failure = streaming.failure { throw failure }
            if streaming.headLate {
                throw AuthError.network(Message(verbatim: CachedRequestWords.noHead(host, seconds: Int(settings.timeout))))
            }
        }
        let stoppedOnPurpose = streaming?.stoppedDiscarding == true && status == Self.writeError
        guard status == 0 || stoppedOnPurpose else {
            let detail = errorBuffer.withUnsafeBufferPointer { buffer in buffer.baseAddress.map { String(cString: $0) } ?? "" }
            let reason = detail.isEmpty ? easyStrerror(status).map { String(cString: $0) } ?? "error \(status)" : detail
            if let proxy = route.shownProxy {
                throw AuthError.network(
                    "could not reach \(host) through the proxy \(proxy) (from \(route.variable ?? "the environment")): \(Sanitize.text(route.scrub(reason), limit: 160)). Check that the proxy works, or list \(host) in NO_PROXY, then try again"
                )
            }
            if let streamed = streaming?.streamed, streamed > 0 {
                throw AuthError.network(
                    Message(verbatim: CachedRequestWords.cutShort(host, after: streamed, reason: Sanitize.text(reason, limit: 160))))
            }
            throw AuthError.network(Message(verbatim: CachedRequestWords.couldNotReach(host, reason: Sanitize.text(reason, limit: 160))))
        }
        var code = 0
        guard getinfoLong(easy, Self.responseCode, &code) == 0 else {
            throw AuthError.network("libcurl could not report the HTTP status of the answer from \(host). Try again")
        }
        return code
    }

    private static let receiveBody: Callback = { data, size, count, context in
        guard let data, let context else { return 0 }
        let exchange = Unmanaged<Exchange>.fromOpaque(context).takeUnretainedValue()
        let length = size * count
        if let streaming = exchange.streaming {
            guard exchange.decideIfNeeded() else { return 0 }
            switch streaming.decision {
            case .stream:
                do {
                    try streaming.sink(Data(bytes: data, count: length))
                } catch {
                    streaming.failure = error
                    return 0  // aborts the transfer (CURLE_WRITE_ERROR)
                }
                streaming.streamed += length
                return length
            case .discard, nil:
                streaming.discarded += length
                guard streaming.discarded <= StreamDecision.discardLimit else {
                    streaming.stoppedDiscarding = true
                    return 0
                }
                return length
            }
        }
        guard exchange.body.count + length <= exchange.maximumBody else {
            exchange.exceeded = true
            return 0  // aborts the transfer (CURLE_WRITE_ERROR)
        }
        exchange.body.append(UnsafeRawPointer(data).assumingMemoryBound(to: UInt8.self), count: length)
        return length
    }

    /// Header lines of the last response (a `100 Continue` or an interim response starts over).
    private static let receiveHeader: Callback = { data, size, count, context in
        guard let data, let context else { return 0 }
        let exchange = Unmanaged<Exchange>.fromOpaque(context).takeUnretainedValue()
        let length = size * count
        // A streamed answer's head is complete once decided: what follows are trailers.
        if exchange.streaming?.decision != nil { return length }
        let line = String(decoding: UnsafeRawBufferPointer(start: data, count: length), as: UTF8.self)
            .trimming(.whitespacesAndNewlines)
        if line.hasPrefix("HTTP/") {
            exchange.headers = [:]
            exchange.streaming?.status = line.split(separator: " ").dropFirst().first.flatMap { Int($0) }
        } else if line.isEmpty, let streaming = exchange.streaming, let status = streaming.status, !(100...199).contains(status) {
            // The end of the final head (an interim 1xx head is followed by another).
            return exchange.decideIfNeeded() ? length : 0
        } else if let colon = line.firstIndex(of: ":") {
            let name = String(line[..<colon]).trimming(.whitespaces)
            exchange.headers[name] = String(line[line.index(after: colon)...]).trimming(.whitespaces)
        }
        return length
    }

    /// Aborts the transfer when the task was cancelled (Ctrl-C), and a streamed answer's head that is later than its deadline.
    private static let progress: ProgressCallback = { context, _, _, _, _ in
        guard let context else { return 0 }
        let exchange = Unmanaged<Exchange>.fromOpaque(context).takeUnretainedValue()
        if exchange.cancelled.isSet { return 1 }
        if let streaming = exchange.streaming, streaming.decision == nil, ContinuousClock.now > streaming.headDeadline {
            streaming.headLate = true
            return 1
        }
        return 0
    }
}
