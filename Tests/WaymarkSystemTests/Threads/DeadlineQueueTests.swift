import Testing

@testable import WaymarkSystem

/// ``DeadlineQueue``: what is due at a time comes out earliest first, and in the order it went in when deadlines
/// are equal.
@Suite struct DeadlineQueueTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let label: String
        /// Elements (their names) with their deadlines, in the order they are inserted.
        let inserted: [(String, Int64)]
        /// The times asked, each with what comes out at it.
        let asked: [(now: Int64, due: [String])]
        var testDescription: String { label }
    }

    static let cases: [Case] = [
        Case(label: "empty", inserted: [], asked: [(0, []), (.max, [])]),
        Case(label: "nothing before its deadline", inserted: [("a", 10)], asked: [(9, []), (10, ["a"]), (11, [])]),
        Case(
            label: "earliest first, whatever the order they came in",
            inserted: [("c", 30), ("a", 10), ("e", 50), ("b", 20), ("d", 40)],
            asked: [(25, ["a", "b"]), (25, []), (100, ["c", "d", "e"])]
        ),
        Case(
            label: "equal deadlines in the order they came in",
            inserted: [("first", 5), ("early", 1), ("second", 5), ("third", 5)],
            asked: [(5, ["early", "first", "second", "third"])]
        ),
        Case(
            label: "deadlines passed long ago and far ahead",
            inserted: [("never", .max), ("past", .min), ("zero", 0)],
            asked: [(0, ["past", "zero"]), (.max - 1, []), (.max, ["never"])]
        ),
    ]

    @Test(arguments: cases)
    func due(_ example: Case) {
        var queue = DeadlineQueue<String>()
        for (element, deadline) in example.inserted { queue.insert(element, at: deadline) }
        #expect(queue.count == example.inserted.count)
        #expect(queue.earliest == example.inserted.map(\.1).min())
        for (now, expected) in example.asked {
            var due: [String] = []
            while let element = queue.popDue(at: now) { due.append(element) }
            #expect(due == expected, "at \(now)")
        }
        #expect(queue.isEmpty == (queue.earliest == nil))
    }

    @Test("a thousand deadlines in a scrambled order come out sorted, ties in insertion order")
    func many() {
        var queue = DeadlineQueue<Int>()
        // 7919 is prime: index * 7919 % 1000 visits every residue once; deadlines repeat every 250.
        let deadlines = (0..<1000).map { Int64($0 * 7919 % 1000 % 250) }
        for (index, deadline) in deadlines.enumerated() { queue.insert(index, at: deadline) }
        var out: [Int] = []
        while let index = queue.popDue(at: .max) { out.append(index) }
        let expected = deadlines.indices.sorted { (deadlines[$0], $0) < (deadlines[$1], $1) }
        #expect(out == expected)
    }
}
