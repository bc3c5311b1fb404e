/// One HTTP/1.1 request as the loopback listener received it.
public struct ReceivedRequest: Sendable, Equatable {
    public var method: String
    /// The request target: path and query, as sent (`/callback?code=…`).
    public var target: String
    /// Header names lower-cased.
    public var headers: [String: String]
    public var body: Data

    public init(method: String, target: String, headers: [String: String] = [:], body: Data = Data()) {
        self.method = method
        self.target = target
        self.headers = headers
        self.body = body
    }

    public var path: String { String(target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)[0]) }
    public var query: String? {
        let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        return parts.count > 1 ? String(parts[1]) : nil
    }
}

/// Incremental, bounded HTTP/1.1 request parser: bytes in, a request (or a refusal) out.
/// No I/O; the listener feeds it whatever a socket read returned.
public struct HTTPRequestParser: Sendable {
    public enum Result: Sendable, Equatable {
        case needMore
        case complete(ReceivedRequest)
        /// The request is refused with this HTTP status (400, 413, 431, 501).
        case invalid(status: Int)
    }

    public static let maximumHeaderBytes = 8 * 1024
    public static let maximumBodyBytes = 64 * 1024

    private var buffer: [UInt8] = []

    public init() {}

    public mutating func append(_ bytes: some Sequence<UInt8>) -> Result {
        buffer.append(contentsOf: bytes)
        guard let headerEnd = Self.find([13, 10, 13, 10], in: buffer) else {
            return buffer.count > Self.maximumHeaderBytes ? .invalid(status: 431) : .needMore
        }
        guard headerEnd <= Self.maximumHeaderBytes,
            let head = String(bytes: buffer[0..<headerEnd], encoding: .utf8)
        else {
            return .invalid(status: 431)
        }
        var lines = head.components(separatedBy: "\r\n")
        let requestLine = lines.removeFirst().split(separator: " ", omittingEmptySubsequences: false)
        guard requestLine.count == 3, requestLine[2].hasPrefix("HTTP/1."), requestLine[1].hasPrefix("/") else {
            return .invalid(status: 400)
        }
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { return .invalid(status: 400) }
            let name = line[..<colon].trimming(.whitespaces).lowercased()
            let value = line[line.index(after: colon)...].trimming(.whitespaces)
            guard !name.isEmpty, headers[name] == nil else { return .invalid(status: 400) }
            headers[name] = value
        }
        if headers["transfer-encoding"] != nil { return .invalid(status: 501) }
        var bodyLength = 0
        if let length = headers["content-length"] {
            guard let value = Int(length), value >= 0 else { return .invalid(status: 400) }
            guard value <= Self.maximumBodyBytes else { return .invalid(status: 413) }
            bodyLength = value
        }
        let bodyStart = headerEnd + 4
        guard buffer.count >= bodyStart + bodyLength else { return .needMore }
        let body = Data(buffer[bodyStart..<(bodyStart + bodyLength)])
        return .complete(ReceivedRequest(method: String(requestLine[0]), target: String(requestLine[1]), headers: headers, body: body))
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for start in 0...(haystack.count - needle.count) where haystack[start] == needle[0] {
            if Array(haystack[start..<(start + needle.count)]) == needle { return start }
        }
        return nil
    }
}
