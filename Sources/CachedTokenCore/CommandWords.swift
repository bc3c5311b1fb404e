/// A command line's words as the hand parsers read them, ArgumentParser's forms: an option as
/// `--name=value` or its value as the next word, which does not start with a dash (a dash starts
/// an option). `TokenForm` (`token`, `status`) and `CachedRequest` (`request`) step through them.
struct CommandWords {
    private let arguments: [String]
    private var index: Int
    /// The current word, or its name when it is `--name=value`.
    private(set) var name = ""
    /// The value of `--name=value` (empty for `--name=`); nil for any other word.
    private(set) var inline: String?

    /// The words of `arguments` from `start` on.
    init(_ arguments: [String], from start: Int = 0) {
        self.arguments = arguments
        index = start - 1
    }

    /// The current word as it was written.
    var argument: String { arguments[index] }

    /// Steps to the next word; false after the last.
    mutating func next() -> Bool {
        index += 1
        guard index < arguments.count else { return false }
        let argument = arguments[index]
        name = argument
        inline = nil
        if argument.hasPrefix("--"), let equals = argument.utf8.firstIndex(of: UInt8(ascii: "=")) {
            name = String(decoding: argument.utf8[..<equals], as: UTF8.self)
            inline = String(decoding: argument.utf8[argument.utf8.index(after: equals)...], as: UTF8.self)
        }
        return true
    }

    /// The current option's value: the inline one, else the next word (taken) unless it starts
    /// with a dash or there is none.
    mutating func value() -> String? {
        if let inline { return inline }
        index += 1
        guard index < arguments.count, !arguments[index].hasPrefix("-") else { return nil }
        return arguments[index]
    }
}
