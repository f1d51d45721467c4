/// The nodes and ways of one data block of an OSM PBF file, with the block's string table; relations are
/// skipped. Coordinates are in units of 1e-7 degree, as OpenStreetMap stores them.
public struct PBFBlock {
    /// The block's strings; tags are indices into it.
    public var strings: [ArraySlice<UInt8>] = []
    public var nodes: [PBFNode] = []
    public var ways: [PBFWay] = []
    /// The newest `timestamp` of the block's elements, seconds since 1970; nil when they carry none.
    public var newestTimestamp: Int64?

    /// The value of `key` among `tags` (key, value, key, value… string indices), nil when absent.
    public func value(of key: [UInt8], in tags: ArraySlice<UInt32>) -> ArraySlice<UInt8>? {
        var index = tags.startIndex
        while index + 1 < tags.endIndex {
            let keyIndex = Int(tags[index])
            if keyIndex < strings.count, strings[keyIndex].elementsEqual(key) {
                let valueIndex = Int(tags[index + 1])
                return valueIndex < strings.count ? strings[valueIndex] : nil
            }
            index += 2
        }
        return nil
    }
}
