/// `--listen-address HOST:PORT` (a loopback address; port 0 for an ephemeral one).
public struct ListenAddress: Sendable, Equatable {
    public var host: String
    public var port: UInt16

    public init(host: String, port: UInt16) {
        self.host = host
        self.port = port
    }

    public init(parsing text: String) throws {
        let usage: Message =
            "\(input: .listenAddress) '\(Sanitize.text(text, limit: 60))' is not HOST:PORT on a loopback address. Use for example 127.0.0.1:8400 or [::1]:8400"
        guard let colon = text.lastIndex(of: ":"), let port = UInt16(text[text.index(after: colon)...]) else {
            throw AuthError.invalidArgument(usage)
        }
        let host = String(text[..<colon]).trimming(ScalarSet(charactersIn: "[]"))
        guard EndpointPolicy.isLoopback(host: host) else { throw AuthError.invalidArgument(usage) }
        self.init(host: host, port: port)
    }
}
