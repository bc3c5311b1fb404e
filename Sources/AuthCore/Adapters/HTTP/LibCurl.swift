import CLibCurlShim
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

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

    let easyInit: @convention(c) () -> OpaquePointer?
    let easyCleanup: @convention(c) (OpaquePointer?) -> Void
    let easyPerform: @convention(c) (OpaquePointer?) -> Int32
    let easyStrerror: @convention(c) (Int32) -> UnsafePointer<CChar>?
    // `curl_easy_setopt` and `curl_easy_getinfo` are variadic: they are called as such by
    // the wrappers of CLibCurlShim (Swift can call a variadic C function through no pointer).
    let setopt: UnsafeMutableRawPointer
    let getinfo: UnsafeMutableRawPointer
    let slistAppend: @convention(c) (OpaquePointer?, UnsafePointer<CChar>) -> OpaquePointer?
    let slistFreeAll: @convention(c) (OpaquePointer?) -> Void

    private static let loaded = Mutex<LibCurl?>(nil)

    static func shared() throws -> LibCurl {
        try loaded.withLock { loaded in
            if let loaded { return loaded }
            let library = try LibCurl()
            loaded = library
            return library
        }
    }

    /// Lazy binding, as the `curl` program itself gets (2.6 M fewer instructions per `request`,
    /// issue 37): libcurl, libssl and libcrypto are linked BIND_NOW and bound at once anyway;
    /// of the rest (nghttp2, rtmp, krb5, zlib…) only the functions called are looked up. It
    /// leaves nothing writable that `RTLD_NOW` would protect: a library linked without
    /// `-z now` keeps its `.got.plt` outside its RELRO segment, writable for the process's life
    /// whichever mode loads it (docs/security.md, "Loading libcurl").
    static let loadMode = RTLD_LAZY | RTLD_LOCAL

    private init() throws {
        guard let handle = dlopen("libcurl.so.4", Self.loadMode) ?? dlopen("libcurl.so", Self.loadMode) else {
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
    func setoptPointer(_ easy: OpaquePointer, _ option: Int32, _ value: UnsafeRawPointer?) -> Int32 {
        authctl_curl_setopt_pointer(setopt, easy, option, value)
    }
    func setoptLong(_ easy: OpaquePointer, _ option: Int32, _ value: Int) -> Int32 {
        authctl_curl_setopt_long(setopt, easy, option, value)
    }
    func setoptOffset(_ easy: OpaquePointer, _ option: Int32, _ value: Int64) -> Int32 {
        authctl_curl_setopt_off_t(setopt, easy, option, value)
    }
    func setoptCallback(_ easy: OpaquePointer, _ option: Int32, _ value: Callback) -> Int32 {
        authctl_curl_setopt_data_callback(setopt, easy, option, value)
    }
    func setoptProgress(_ easy: OpaquePointer, _ option: Int32, _ value: ProgressCallback) -> Int32 {
        authctl_curl_setopt_xferinfo_callback(setopt, easy, option, value)
    }
    func getinfoLong(_ easy: OpaquePointer, _ info: Int32, _ value: UnsafeMutablePointer<Int>) -> Int32 {
        authctl_curl_getinfo_long(getinfo, easy, info, value)
    }

    /// What the callbacks fill while one transfer runs.
    final class Exchange {
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
                streaming.failure = AuthError.network(Message(verbatim: CachedRequestWords.noStatusLine))
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
}
