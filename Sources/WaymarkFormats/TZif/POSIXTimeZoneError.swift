/// A TZ string that ``POSIXTimeZone`` cannot parse: what is wrong, at which byte (from 1).
public struct POSIXTimeZoneError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong, for a person, with the byte it is at.
    public var message: String

    public init(_ message: String) { self.message = message }

    public var description: String { message }
}
