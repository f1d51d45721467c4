/// The bounds ``JSONReader`` holds a text to, so that hostile input can exhaust neither memory nor the stack.
public struct JSONLimits: Hashable, Sendable {
    /// The largest text read, in bytes. The default, 256 MiB, is several times a file of 110,000 regions.
    public var maximumBytes: Int
    /// The deepest nesting of arrays and objects: `[[1]]` is 2 deep. Reading recurses once per level.
    public var maximumDepth: Int

    public init(maximumBytes: Int = 256 << 20, maximumDepth: Int = 64) {
        self.maximumBytes = maximumBytes
        self.maximumDepth = maximumDepth
    }
}
