import WaymarkCore

/// A point of a GPX file that did not become a location, and why.
public struct GPXRejection: Hashable, Sendable, CustomStringConvertible {
    /// The 1-based line of the point's start tag.
    public var line: Int
    /// The kind of problem, as replay counts it: ``Rejection/noTime``, ``Rejection/badTime``,
    /// ``Rejection/noFix``, ``Rejection/badFix``, ``Rejection/invalidPosition``, ``Rejection/badValue`` or
    /// ``Rejection/misplacedPoint``.
    public var code: Rejection
    /// What is wrong, for a person: `no time`, `no fix`, `lat 91 is outside -90...90`, `ele "abc" is not a number`.
    public var reason: String

    public init(line: Int, code: Rejection, reason: String) {
        self.line = line
        self.code = code
        self.reason = reason
    }

    /// `line 57: no time`.
    public var description: String { "line \(line): \(reason)" }
}
