/// A point of a GPX file that did not become a location, and why.
public struct GPXRejection: Hashable, Sendable, CustomStringConvertible {
    /// The 1-based line of the point's start tag.
    public var line: Int
    /// What is wrong, for a person: `no time`, `no fix`, `lat 91 is outside -90...90`, `ele "abc" is not a number`.
    public var reason: String

    public init(line: Int, reason: String) {
        self.line = line
        self.reason = reason
    }

    /// `line 57: no time`.
    public var description: String { "line \(line): \(reason)" }
}
