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

    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
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
        case protocols = 181

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

        init(cancelled: CancellationFlag, maximumBody: Int) {
            self.cancelled = cancelled
            self.maximumBody = maximumBody
        }
    }

    /// A `curl_easy_setopt` that libcurl refused (an option this libcurl lacks, or out of
    /// memory): an error naming the option, never a silent continue.
    struct OptionRefused: Error {
        var option: Option
        var code: Int32
    }

    /// One blocking transfer (run on its own thread).
    func perform(_ request: HTTPRequest, settings: Settings, cancelled: CancellationFlag) throws -> HTTPResponse {
        let host = request.url.host ?? "?"
        guard let easy = easyInit() else { throw AuthError.network("libcurl could not start a request to \(host). Try again") }
        defer { easyCleanup(easy) }
        let exchange = Exchange(cancelled: cancelled, maximumBody: max(request.responseLimit, 0))
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
                    try check(.noSignal, setoptLong(easy, Option.noSignal.rawValue, 1))
                    try check(.timeoutMS, setoptLong(easy, Option.timeoutMS.rawValue, Int(settings.timeout * 1000)))
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
                    // A Content-Length over the limit fails before the body comes; the write
                    // callback enforces it for answers without one.
                    try check(.maxFileSizeLarge, setoptOffset(easy, Option.maxFileSizeLarge.rawValue, Int64(exchange.maximumBody)))
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
        guard status == 0 else {
            let detail = errorBuffer.withUnsafeBufferPointer { buffer in buffer.baseAddress.map { String(cString: $0) } ?? "" }
            let reason = detail.isEmpty ? easyStrerror(status).map { String(cString: $0) } ?? "error \(status)" : detail
            if let proxy = route.shownProxy {
                throw AuthError.network(
                    "could not reach \(host) through the proxy \(proxy) (from \(route.variable ?? "the environment")): \(Sanitize.text(route.scrub(reason), limit: 160)). Check that the proxy works, or list \(host) in NO_PROXY, then try again"
                )
            }
            throw AuthError.network(
                "could not reach \(host): \(Sanitize.text(reason, limit: 160)). Check the provider's address and your network, then try again"
            )
        }
        var code = 0
        guard getinfoLong(easy, Self.responseCode, &code) == 0 else {
            throw AuthError.network("libcurl could not report the HTTP status of the answer from \(host). Try again")
        }
        return HTTPResponse(status: code, headers: exchange.headers, body: exchange.body)
    }

    private static let receiveBody: Callback = { data, size, count, context in
        guard let data, let context else { return 0 }
        let exchange = Unmanaged<Exchange>.fromOpaque(context).takeUnretainedValue()
        let length = size * count
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
        let line = String(decoding: UnsafeRawBufferPointer(start: data, count: length), as: UTF8.self)
            .trimming(.whitespacesAndNewlines)
        if line.hasPrefix("HTTP/") {
            exchange.headers = [:]
        } else if let colon = line.firstIndex(of: ":") {
            let name = String(line[..<colon]).trimming(.whitespaces)
            exchange.headers[name] = String(line[line.index(after: colon)...]).trimming(.whitespaces)
        }
        return length
    }

    /// Aborts the transfer when the task was cancelled (Ctrl-C).
    private static let progress: ProgressCallback = { context, _, _, _, _ in
        guard let context else { return 0 }
        return Unmanaged<Exchange>.fromOpaque(context).takeUnretainedValue().cancelled.isSet ? 1 : 0
    }
}
