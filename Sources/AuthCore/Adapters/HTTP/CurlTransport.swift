import CLibCurlShim
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// `HTTPTransport` over libcurl's easy interface, loaded with `dlopen` on the first request.
///
/// Why not Foundation's URLSession: FoundationNetworking links libcurl and its ~30 shared
/// libraries into the executable, so every start of authctl paid for loading them — about
/// 4.4 ms and 6 MiB (bench/README.md) — even `authctl token` answering from the keystore.
/// Loaded on demand, libcurl costs only the commands that talk to a provider.
///
/// Redirects are never followed (docs/security.md: "Redirects from the token endpoint are not
/// followed"); a 3xx is returned to the caller, which treats it as a protocol violation.
/// Only `http` and `https` are allowed; TLS verification is libcurl's default (on) and is
/// never switched off.
///
/// Every request carries `User-Agent` (`authctl/VERSION`, given by the executable), is
/// refused before anything is sent when a header holds a line break (`HTTPRequest.
/// checkHeaders`), and reads at most `HTTPRequest.responseLimit` bytes of answer. Proxies
/// come from the usual variables (`ProxyRoute`), but a loopback provider is never reached
/// through one, and a failure through a proxy names it.
public struct CurlTransport: HTTPTransport {
    let timeout: TimeInterval
    let userAgent: String?
    let environment: [String: String]

    /// - Parameters:
    ///   - userAgent: the `User-Agent` of every request (`authctl/0.1.0`).
    ///   - environment: where the proxy variables are read (`http_proxy`, `NO_PROXY`, …).
    public init(
        timeout: TimeInterval = 30, userAgent: String? = nil, environment: [String: String]
    ) {
        self.timeout = timeout
        self.userAgent = userAgent
        self.environment = environment
    }

    public func exchange(_ request: HTTPRequest) async throws -> HTTPResponse {
        try request.checkHeaders()
        let curl = try LibCurl.shared()
        let settings = LibCurl.Settings(
            timeout: timeout, userAgent: userAgent, route: ProxyRoute(for: request.url, environment: environment))
        let cancelled = CancellationFlag()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<HTTPResponse, any Error>) in
                DetachedThread.start {
                    continuation.resume(with: Result { try curl.perform(request, settings: settings, cancelled: cancelled) })
                }
            }
        } onCancel: {
            cancelled.set()
        }
    }

    /// The body handed on chunk by chunk, as libcurl gives it (`authctl request`): no bound on
    /// its size and no total time limit (an event stream may stay open, idle, for hours; Ctrl-C
    /// ends it). The connection must be made within the usual connect time and the head must
    /// come within `timeout`, as for any request.
    public func exchange(
        _ request: HTTPRequest, decide: @escaping @Sendable (HTTPResponseHead) throws -> StreamDecision,
        sink: @escaping @Sendable (Data) throws -> Void
    ) async throws -> HTTPResponseHead {
        try request.checkHeaders()
        let curl = try LibCurl.shared()
        let settings = LibCurl.Settings(
            timeout: timeout, userAgent: userAgent, route: ProxyRoute(for: request.url, environment: environment))
        let cancelled = CancellationFlag()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<HTTPResponseHead, any Error>) in
                DetachedThread.start {
                    continuation.resume(
                        with: Result {
                            let streaming = LibCurl.Streaming(
                                decide: decide, sink: sink, headDeadline: .now + .milliseconds(Int(settings.timeout * 1000)))
                            return try curl.perform(request, settings: settings, cancelled: cancelled, streaming: streaming)
                        })
                }
            }
        } onCancel: {
            cancelled.set()
        }
    }
}

/// The few libcurl functions authctl uses, resolved from `libcurl.so.4` once.
final class LibCurl: @unchecked Sendable {
    // curl.h: option numbers are a type base (long 0, object pointer 10000, function
    // pointer 20000, curl_off_t 30000) plus the option's index.
    enum Option: Int32 {
        case writeData = 10001, url = 10002, proxy = 10004, errorBuffer = 10010, postFields = 10015, userAgent = 10018
        case httpHeader = 10023, headerData = 10029, customRequest = 10036, xferInfoData = 10057, acceptEncoding = 10102
        case noProxy = 10177
        case writeFunction = 20011, headerFunction = 20079, xferInfoFunction = 20219
        case maxFileSizeLarge = 30117, postFieldSizeLarge = 30120
        case noProgress = 43, post = 47, followLocation = 52, noSignal = 99, timeoutMS = 155, connectTimeoutMS = 156
        case protocols = 181, pathAsIs = 234, suppressConnectHeaders = 265

        /// The name in curl.h, for the error of an option libcurl refused.
        var name: String {
            switch self {
            case .writeData: "CURLOPT_WRITEDATA"
            case .url: "CURLOPT_URL"
            case .proxy: "CURLOPT_PROXY"
            case .errorBuffer: "CURLOPT_ERRORBUFFER"
            case .postFields: "CURLOPT_POSTFIELDS"
            case .userAgent: "CURLOPT_USERAGENT"
            case .httpHeader: "CURLOPT_HTTPHEADER"
            case .headerData: "CURLOPT_HEADERDATA"
            case .customRequest: "CURLOPT_CUSTOMREQUEST"
            case .xferInfoData: "CURLOPT_XFERINFODATA"
            case .acceptEncoding: "CURLOPT_ACCEPT_ENCODING"
            case .noProxy: "CURLOPT_NOPROXY"
            case .writeFunction: "CURLOPT_WRITEFUNCTION"
            case .headerFunction: "CURLOPT_HEADERFUNCTION"
            case .xferInfoFunction: "CURLOPT_XFERINFOFUNCTION"
            case .maxFileSizeLarge: "CURLOPT_MAXFILESIZE_LARGE"
            case .postFieldSizeLarge: "CURLOPT_POSTFIELDSIZE_LARGE"
            case .noProgress: "CURLOPT_NOPROGRESS"
            case .post: "CURLOPT_POST"
            case .followLocation: "CURLOPT_FOLLOWLOCATION"
            case .noSignal: "CURLOPT_NOSIGNAL"
            case .timeoutMS: "CURLOPT_TIMEOUT_MS"
            case .connectTimeoutMS: "CURLOPT_CONNECTTIMEOUT_MS"
            case .protocols: "CURLOPT_PROTOCOLS"
            case .pathAsIs: "CURLOPT_PATH_AS_IS"
            case .suppressConnectHeaders: "CURLOPT_SUPPRESS_CONNECT_HEADERS"
            }
        }
    }

    /// What the transport decides for every request: timeouts, `User-Agent`, proxy.
    struct Settings {
        var timeout: TimeInterval
        var userAgent: String?
        var route: ProxyRoute
    }

    static let fileSizeExceeded: Int32 = 63  // CURLE_FILESIZE_EXCEEDED: Content-Length over the limit
    static let writeError: Int32 = 23  // CURLE_WRITE_ERROR: a callback stopped the transfer
    static let responseCode: Int32 = 0x20_0000 + 2  // CURLINFO_LONG + 2
    static let protocolHTTP = 1, protocolHTTPS = 2  // CURLPROTO_HTTP, CURLPROTO_HTTPS

    typealias Callback = @convention(c) (UnsafeMutablePointer<CChar>?, Int, Int, UnsafeMutableRawPointer?) -> Int
    typealias ProgressCallback = @convention(c) (UnsafeMutableRawPointer?, Int64, Int64, Int64, Int64) -> Int32

    private let easyInit: @convention(c) () -> OpaquePointer?
    private let easyCleanup: @convention(c) (OpaquePointer?) -> Void
    private let easyPerform: @convention(c) (OpaquePointer?) -> Int32
    private let easyStrerror: @convention(c) (Int32) -> UnsafePointer<CChar>?
    // `curl_easy_setopt` and `curl_easy_getinfo` are variadic: they are called as such by
    // the wrappers of CLibCurlShim (Swift can call a variadic C function through no pointer).
    private let setopt: UnsafeMutableRawPointer
    private let getinfo: UnsafeMutableRawPointer
    private let slistAppend: @convention(c) (OpaquePointer?, UnsafePointer<CChar>) -> OpaquePointer?
    private let slistFreeAll: @convention(c) (OpaquePointer?) -> Void

    private static let loaded = Mutex<LibCurl?>(nil)

    static func shared() throws -> LibCurl {
        try loaded.withLock { loaded in
            if let loaded { return loaded }
            let library = try LibCurl()
            loaded = library
            return library
        }
    }

    private init() throws {
        guard let handle = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL) ?? dlopen("libcurl.so", RTLD_NOW | RTLD_LOCAL) else {
            throw AuthError.network(
                "libcurl could not be loaded, so authctl cannot reach the provider. Install it (Debian and Ubuntu: apt-get install libcurl4)"
            )
        }
        func symbol<T>(_ name: String, as type: T.Type) throws -> T {
            guard let address = dlsym(handle, name) else {
                throw AuthError.network("the installed libcurl lacks \(name). Install libcurl 7.62 or later")
            }
            return unsafeBitCast(address, to: type)
        }
        typealias GlobalInit = @convention(c) (Int) -> Int32
        guard try symbol("curl_global_init", as: GlobalInit.self)(3) == 0 else {  // CURL_GLOBAL_DEFAULT
            throw AuthError.network("libcurl failed to initialise. Check the libcurl installation")
        }
        easyInit = try symbol("curl_easy_init", as: (@convention(c) () -> OpaquePointer?).self)
        easyCleanup = try symbol("curl_easy_cleanup", as: (@convention(c) (OpaquePointer?) -> Void).self)
        easyPerform = try symbol("curl_easy_perform", as: (@convention(c) (OpaquePointer?) -> Int32).self)
        easyStrerror = try symbol("curl_easy_strerror", as: (@convention(c) (Int32) -> UnsafePointer<CChar>?).self)
        setopt = try symbol("curl_easy_setopt", as: UnsafeMutableRawPointer.self)
        getinfo = try symbol("curl_easy_getinfo", as: UnsafeMutableRawPointer.self)
        slistAppend = try symbol("curl_slist_append", as: (@convention(c) (OpaquePointer?, UnsafePointer<CChar>) -> OpaquePointer?).self)
        slistFreeAll = try symbol("curl_slist_free_all", as: (@convention(c) (OpaquePointer?) -> Void).self)
    }

    // One `curl_easy_setopt` per argument type, through CLibCurlShim; each returns the CURLcode.
    private func setoptPointer(_ easy: OpaquePointer, _ option: Int32, _ value: UnsafeRawPointer?) -> Int32 {
        authctl_curl_setopt_pointer(setopt, easy, option, value)
    }
    private func setoptLong(_ easy: OpaquePointer, _ option: Int32, _ value: Int) -> Int32 {
        authctl_curl_setopt_long(setopt, easy, option, value)
    }
    private func setoptOffset(_ easy: OpaquePointer, _ option: Int32, _ value: Int64) -> Int32 {
        authctl_curl_setopt_off_t(setopt, easy, option, value)
    }
    private func setoptCallback(_ easy: OpaquePointer, _ option: Int32, _ value: Callback) -> Int32 {
        authctl_curl_setopt_data_callback(setopt, easy, option, value)
    }
    private func setoptProgress(_ easy: OpaquePointer, _ option: Int32, _ value: ProgressCallback) -> Int32 {
        authctl_curl_setopt_xferinfo_callback(setopt, easy, option, value)
    }
    private func getinfoLong(_ easy: OpaquePointer, _ info: Int32, _ value: UnsafeMutablePointer<Int>) -> Int32 {
        authctl_curl_getinfo_long(getinfo, easy, info, value)
    }

    /// What the callbacks fill while one transfer runs.
    private final class Exchange {
        var body = Data()
        var headers: [String: String] = [:]
        let cancelled: CancellationFlag
        /// `HTTPRequest.responseLimit`; `exceeded` once the answer went past it.
        let maximumBody: Int
        var exceeded = false
        /// A streamed transfer's decision and sink; nil when the answer is read whole.
        let streaming: Streaming?

        init(cancelled: CancellationFlag, maximumBody: Int, streaming: Streaming?) {
            self.cancelled = cancelled
            self.maximumBody = maximumBody
            self.streaming = streaming
        }

        /// Asks for the decision once, when the last head is in (at the end of its headers, or
        /// at the first body byte). False: the transfer is to stop (`streaming.failure` says why).
        func decideIfNeeded() -> Bool {
            guard let streaming, streaming.decision == nil else { return true }
            guard let status = streaming.status else {
                streaming.failure = AuthError.network("the answer came without an HTTP status line, so authctl stopped reading it")
                return false
            }
            let head = HTTPResponseHead(status: status, headers: headers)
            streaming.head = head
            do {
                streaming.decision = try streaming.decide(head)
                return true
            } catch {
                streaming.failure = error
                return false
            }
        }
    }

    /// A streamed transfer (`HTTPTransport.stream`): its head, what was decided, how far it got.
    final class Streaming {
        let decide: @Sendable (HTTPResponseHead) throws -> StreamDecision
        let sink: @Sendable (Data) throws -> Void
        /// When the head must have come by.
        let headDeadline: ContinuousClock.Instant
        /// The status of the last status line (a `100 Continue` is followed by another).
        var status: Int?
        var head: HTTPResponseHead?
        var decision: StreamDecision?
        /// The error a callback threw (the sink's: stdout closed), to throw as it is.
        var failure: (any Error)?
        var discarded = 0
        /// The discarded body went past `StreamDecision.discardLimit`: stopped on purpose.
        var stoppedDiscarding = false
        var headLate = false
        var streamed = 0

        init(
            decide: @escaping @Sendable (HTTPResponseHead) throws -> StreamDecision, sink: @escaping @Sendable (Data) throws -> Void,
            headDeadline: ContinuousClock.Instant
        ) {
            self.decide = decide
            self.sink = sink
            self.headDeadline = headDeadline
        }
    }

    /// A `curl_easy_setopt` that libcurl refused (an option this libcurl lacks, or out of
    /// memory): an error naming the option, never a silent continue.
    struct OptionRefused: Error {
        var option: Option
        var code: Int32
    }

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
    private func transfer(_ request: HTTPRequest, settings: Settings, exchange: Exchange) throws -> Int {
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
                    switch request.method {
                    case "GET": break
                    case "POST":
                        try check(.post, setoptLong(easy, Option.post.rawValue, 1))
                        try check(
                            .postFieldSizeLarge, setoptOffset(easy, Option.postFieldSizeLarge.rawValue, Int64(request.body?.count ?? 0)))
                        try check(.postFields, setoptPointer(easy, Option.postFields.rawValue, bodyBytes.baseAddress))
                    default:
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
                throw AuthError.network(
                    "\(host) did not answer within \(Int(settings.timeout)) seconds, so authctl stopped waiting. Check the address and try again"
                )
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
                    "the answer from \(host) was cut short after \(streamed) bytes: \(Sanitize.text(reason, limit: 160)). Try again")
            }
            throw AuthError.network(
                "could not reach \(host): \(Sanitize.text(reason, limit: 160)). Check the provider's address and your network, then try again"
            )
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
