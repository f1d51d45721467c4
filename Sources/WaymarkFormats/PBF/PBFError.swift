/// An OSM PBF file that cannot be read: its message says what is wrong and where (the byte offset of the blob).
public struct PBFError: Error, Hashable, Sendable, CustomStringConvertible {
    public var message: String

    public init(_ message: String) { self.message = message }

    public var description: String { message }
}
