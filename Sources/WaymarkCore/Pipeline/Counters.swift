/// Counts by name: what was delivered, and every reason input was rejected. A fix's verdict comes with every fix:
/// it is counted in place (`location`, then each ``HoldReason``), without hashing its name.
public struct Counters: Hashable, Sendable {
    /// The verdicts' names, in the order of ``verdicts``, and where each is: a count by name looks there with one
    /// hash, not a comparison with each name.
    private static let verdictNames = ["location"] + holdReasons.map(\.rawValue)
    private static let verdictPositions = Dictionary(uniqueKeysWithValues: verdictNames.enumerated().map { ($1, $0) })
    private static let holdReasons = HoldReason.allCases
    /// Fixes delivered, then held for each of ``holdReasons``.
    private var verdicts = [Int](repeating: 0, count: verdictNames.count)
    /// Everything else.
    private var named: [String: Int] = [:]

    public init() {}

    /// Every count by name (a verdict's once it is above zero).
    public var values: [String: Int] {
        var values = named
        for (name, count) in zip(Self.verdictNames, verdicts) where count > 0 { values[name] = count }
        return values
    }

    public subscript(name: String) -> Int {
        Self.verdictPositions[name].map { verdicts[$0] } ?? named[name, default: 0]
    }

    /// Fixes delivered as `location` events.
    public var delivered: Int { verdicts[0] }

    /// Fixes held for `reason`.
    public subscript(reason: HoldReason) -> Int { verdicts[Self.position(of: reason)] }

    public mutating func count(_ name: String, by amount: Int = 1) {
        if let position = Self.verdictPositions[name] {
            verdicts[position] += amount
        } else {
            named[name, default: 0] += amount
        }
    }

    /// One fix's verdict.
    public mutating func count(_ verdict: LocationVerdict) {
        switch verdict {
        case .deliver: verdicts[0] += 1
        case .hold(let reason): verdicts[Self.position(of: reason)] += 1
        }
    }

    /// `name=count` pairs, sorted by name: for a summary log line.
    public var summary: String {
        values.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
    }

    private static func position(of reason: HoldReason) -> Int {
        guard let index = holdReasons.firstIndex(of: reason) else { preconditionFailure("\(reason) is not a case") }
        return 1 + index
    }
}
