/// A DEFLATE stream or a zlib blob that cannot be decompressed.
public struct InflateError: Error, Hashable, Sendable, CustomStringConvertible {
    public var message: String

    public init(_ message: String) { self.message = message }

    public var description: String { message }
}
