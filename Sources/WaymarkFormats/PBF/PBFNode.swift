/// A node of a data block: its id, position and tags.
public struct PBFNode {
    public var id: Int64
    /// 1e-7 degree.
    public var latitude: Int32
    public var longitude: Int32
    /// String indices of the block: key, value, key, value…
    public var tags: ArraySlice<UInt32>
}
