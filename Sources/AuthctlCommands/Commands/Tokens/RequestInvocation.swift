import AuthCore

/// `authctl request` as plain values: what `RequestCommand` (ArgumentParser) parses, and what
/// the hand parser (`parseFast`) makes of the common forms without ArgumentParser, whose first
/// parse costs a request more than libcurl's load (issue 37, bench/README.md: 17.6 M of its
/// 46.5 M instructions). RequestParserAgreementTests holds the two parsers to each other.
struct RequestInvocation: WiredCommand, Equatable {
    var url: String
    var method: String?
    var headers: [String] = []
    var data: String?
    var include = false
    var browserCommand: String?
    var timeout = 300
    var settings: Wiring.Settings

    var signsIn: Bool { true }
    var takesUser: Bool { true }

    /// The arguments after `request`, in the forms `request URL [-X M] [-H 'N: v']… [--data D]
    /// [--include] [--browser-command C] [--timeout N]` and the global options (`HandParser`:
    /// each at most once, a header any number of times); nil for anything else, which
    /// ArgumentParser reads. It applies `RequestCommand.validate`'s rules itself.
    static func parseFast(_ arguments: [String]) -> RequestInvocation? {
        var url: String?, method: String?, data: String?, browserCommand: String?, timeout: Int?
        var headers: [String] = []
        var include = false
        let settings = HandParser.parse(arguments) { parser in
            switch parser.name {
            case "-X", "--method": return parser.once(&method)
            case "-H", "--header":
                guard let header = parser.value(), parseHeader(header) != nil else { return false }
                headers.append(header)
                return true
            case "--data": return parser.once(&data, dashAllowed: true)
            case "--include": return parser.flag(&include)
            case "--browser-command": return parser.once(&browserCommand)
            case "--timeout":
                var text: String?
                guard timeout == nil, parser.once(&text, { $0.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 } }),
                    let seconds = text.flatMap({ Int($0) }), FlowArguments.timeoutRange.contains(seconds)
                else { return false }
                timeout = seconds
                return true
            default:
                guard url == nil, parser.isPositional else { return false }
                url = parser.argument
                return true
            }
        }
        guard let settings, let url else { return nil }
        return RequestInvocation(
            url: url, method: method, headers: headers, data: data, include: include, browserCommand: browserCommand,
            timeout: timeout ?? 300, settings: settings)
    }
}
