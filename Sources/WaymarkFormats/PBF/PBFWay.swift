/// A way of a data block: its id, the ids of its nodes and its tags.
public struct PBFWay {
    public var id: Int64
    /// The ids of its nodes, in order.
    public var refs: [Int64]
    /// String indices of the block: key, value, key, value…
    public var tags: ArraySlice<UInt32>
}
