import Testing

/// A hand parser held to ArgumentParser on generated argument lists (`token`'s and
/// `request`'s, issues 24 and 37): whatever the hand parser accepts, ArgumentParser accepts
/// with the same values; whatever ArgumentParser refuses, the hand parser hands over (nil).
enum ParserAgreement {
    /// A small seeded generator (SplitMix64), so a failure is reproducible from its seed.
    struct SplitMix: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    /// Runs `count` lists from `generate` through both parsers and records every disagreement;
    /// returns how many both accepted and how many ArgumentParser refused (a generator that
    /// reaches only one side proves nothing).
    static func check<Value: Equatable>(
        seed: UInt64, count: Int, generate: (inout SplitMix) -> [String], fast: ([String]) -> Value?,
        full: ([String]) throws -> Value, message: (any Error) -> String
    ) -> (accepted: Int, refused: Int) {
        var random = SplitMix(state: seed)
        var accepted = 0, refused = 0
        for _ in 0..<count {
            let arguments = generate(&random)
            switch (fast(arguments), Result { try full(arguments) }) {
            case (let fast?, .success(let parsed)):
                #expect(fast == parsed, "\(arguments.debugDescription)")
                accepted += 1
            case (.some, .failure(let error)):
                Issue.record("the fast parser accepts \(arguments.debugDescription); ArgumentParser refuses: \(message(error))")
            case (nil, .failure): refused += 1
            case (nil, .success): break  // handed over: ArgumentParser parses it
            }
        }
        return (accepted, refused)
    }
}
