/// "Did you mean …?": the known word nearest to what a person typed.
public enum Suggestion {
    /// The candidate closest to `typed` by edit distance (insertions, deletions,
    /// substitutions and swaps of neighbours count one each), if it is close enough to be a
    /// typo: at most 2 edits, and fewer than half the word's length.
    public static func closest(to typed: String, among candidates: [String]) -> String? {
        let word = Array(typed.lowercased())
        var best: (candidate: String, distance: Int)?
        for candidate in candidates {
            let distance = editDistance(word, Array(candidate.lowercased()))
            if distance < (best?.distance ?? Int.max) { best = (candidate, distance) }
        }
        guard let best, best.distance <= 2, best.distance * 2 < max(word.count, 2) else { return nil }
        return best.candidate
    }

    /// Optimal string alignment distance (Damerau–Levenshtein without repeated edits).
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous2 = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [Int](repeating: 0, count: b.count + 1)
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], previous2[j - 2] + 1)
                }
            }
            previous2 = previous
            previous = current
        }
        return previous[b.count]
    }
}
