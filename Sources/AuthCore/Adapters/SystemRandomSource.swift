/// The operating system's CSPRNG (`getrandom(2)` on Linux, through `SystemRandomNumberGenerator`).
public struct SystemRandomSource: RandomSource {
    public init() {}
    public func bytes(count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }
}
