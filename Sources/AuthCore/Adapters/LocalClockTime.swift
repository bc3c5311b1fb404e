#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A time of day in this machine's time zone, `HH:mm:ss` (what `DateFormatter` gave):
/// FoundationEssentials knows no time zone but UTC, so the C library's `localtime_r`
/// (TZ, /etc/localtime) converts it.
package enum LocalClockTime {
    package static func string(_ date: Date) -> String {
        var parts = tm()
        guard var seconds = time_t(exactly: date.timeIntervalSince1970.rounded(.down)), localtime_r(&seconds, &parts) != nil
        else { return date.formatted(Date.ISO8601FormatStyle()) }
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))"
    }
}
