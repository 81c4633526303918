import RawC
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The documents and queries of the full-text workloads, generated from a real word list: the words of
/// `/usr/share/dict/words` (Debian's `wamerican` package; `.ci/run` installs it) made only of lower-case ASCII
/// letters, in an order shuffled with a fixed seed, drawn with Zipf's law (the word of rank r with probability
/// proportional to 1/r), as words are in real text; the most common English words lead the list so that every
/// document has some. Each document has a title of 3 to 8 words and a body of 20 to 100 words in sentences.
///
/// The 1,000 queries are what people type into a search box: one to three words (70%), a word and the first
/// letters of another as they type (20%, prefixes), and hostile text with quotes, operators, parentheses, `-` and
/// `:` (10%). The same seed gives the same corpus on every machine with the same word list.
final class FullTextCorpus: Sendable {
    struct Query: Sendable {
        var text: String
        var prefixes: Bool
    }

    let documents: [FTSDoc]
    let queries: [Query]
    /// The documents as C structs pointing into `storage`.
    nonisolated(unsafe) let raw: [rawc_doc]
    nonisolated(unsafe) let rawQueries: [rawc_query]
    /// The texts' bytes, for `raw` and `rawQueries`; never freed (the corpus lives as long as the process).
    private nonisolated(unsafe) let storage: UnsafeMutableBufferPointer<CChar>

    var grdbDocuments: [GRDBDoc] { documents.map { GRDBDoc(id: $0.id, title: $0.title, body: $0.body) } }

    static let wordList = "/usr/share/dict/words"
    static let common = [
        "the", "of", "and", "to", "in", "is", "was", "for", "that", "with", "on", "as", "by", "at", "from", "it", "an",
        "be", "this", "which", "or", "are", "his", "her", "but", "not", "have", "had", "they", "one", "all", "were",
    ]
    private static let cache = Mutex<[Int: FullTextCorpus]>([:])

    /// The corpus of `count` documents, made once per count.
    static func shared(_ count: Int) throws -> FullTextCorpus {
        if let made = cache.withLock({ $0[count] }) { return made }
        let made = try FullTextCorpus(count: count)
        cache.withLock { $0[count] = made }
        return made
    }

    private init(count: Int) throws {
        guard let file = fopen(Self.wordList, "r") else {
            throw BenchError("\(Self.wordList) is missing: install Debian's wamerican package")
        }
        var words: [String] = []
        var line: UnsafeMutablePointer<CChar>?
        var capacity = 0
        while getline(&line, &capacity, file) > 0, let line {
            let word = String(cString: line).trimmingSpaces
            if !word.isEmpty && word.utf8.allSatisfy({ $0 >= 0x61 && $0 <= 0x7A }) { words.append(word) }
        }
        free(line)
        fclose(file)
        var random = SplitMix(seed: 28)
        words.shuffle(using: &random)
        let vocabulary = Self.common + words.filter { !Self.common.contains($0) }
        var cumulative: [Double] = []
        cumulative.reserveCapacity(vocabulary.count)
        var total = 0.0
        for rank in vocabulary.indices {
            total += 1 / Double(rank + 1)
            cumulative.append(total)
        }
        func word(from lowest: Int = 0) -> String {
            while true {
                let target = Double.random(in: 0..<total, using: &random)
                var low = 0
                var high = cumulative.count - 1
                while low < high {
                    let middle = (low + high) / 2
                    if cumulative[middle] < target { low = middle + 1 } else { high = middle }
                }
                if low >= lowest { return vocabulary[low] }
            }
        }
        func sentence(_ count: Int) -> String {
            var text = (0..<count).map { _ in word() }.joined(separator: " ")
            text = text.prefix(1).uppercased() + text.dropFirst()
            return text
        }
        documents = (0..<count).map { index in
            let title = sentence(Int.random(in: 3...8, using: &random))
            var body: [String] = []
            var remaining = Int.random(in: 20...100, using: &random)
            while remaining > 0 {
                let length = min(remaining, Int.random(in: 6...16, using: &random))
                body.append(sentence(length) + ".")
                remaining -= length
            }
            return FTSDoc(id: index + 1, title: title, body: body.joined(separator: " "))
        }
        // Marks that join no two words, so that GRDB's patterns (which search each token) find what the others do.
        let hostile = ["\"", "AND (", "-", ":", "OR ", "NOT ", "*", ")", "NEAR ", "^"]
        queries = (0..<1_000).map { number in
            switch number % 10 {
            case 0..<7:
                let count = number % 10 < 4 ? 1 + number % 2 : 3
                return Query(text: (0..<count).map { _ in word(from: 20) }.joined(separator: " "), prefixes: false)
            case 7, 8:
                let typed = word(from: 20)
                let prefix = String(typed.prefix(Int.random(in: 2...5, using: &random)))
                return Query(text: word(from: 20) + " " + prefix, prefixes: true)
            default:
                let mark = hostile[(number / 10) % hostile.count]
                return Query(
                    text: "\(word(from: 20)) \(mark)\(word(from: 20))\(mark == "\"" ? "" : " ")", prefixes: false)
            }
        }
        // Every text's bytes, one after the other, for the C structs.
        let texts = documents.flatMap { [$0.title, $0.body] } + queries.map(\.text)
        storage = .allocate(capacity: texts.reduce(0) { $0 + $1.utf8.count })
        var offsets: [(start: Int, length: Int)] = []
        var next = 0
        for text in texts {
            for byte in text.utf8 {
                storage[next] = CChar(bitPattern: byte)
                next += 1
            }
            offsets.append((next - text.utf8.count, text.utf8.count))
        }
        let base = storage.baseAddress
        let (documents, queries) = (self.documents, self.queries)
        raw = documents.indices.map { index in
            let (title, body) = (offsets[2 * index], offsets[2 * index + 1])
            return rawc_doc(
                id: Int64(documents[index].id), title: base.map { $0 + title.start }, title_length: Int32(title.length),
                body: base.map { $0 + body.start }, body_length: Int32(body.length))
        }
        rawQueries = queries.indices.map { index in
            let text = offsets[2 * documents.count + index]
            return rawc_query(
                text: base.map { $0 + text.start }, length: Int32(text.length),
                prefixes: queries[index].prefixes ? 1 : 0)
        }
    }
}

/// A seeded random number generator (SplitMix64), so that every machine builds the same corpus.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
