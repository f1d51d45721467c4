/// The strings of an address file, each stored once, numbered in the order first met after the four reserved
/// ones (``AddressLayout``: empty, the extract's name, its date, the licence).
struct StringNumbering {
    private(set) var strings: [[UInt8]] = [[], [], [], []]
    private var indices: [[UInt8]: UInt32] = [[]: 0]
    private(set) var byteCount = 0

    mutating func index(of bytes: ArraySlice<UInt8>) -> UInt32 {
        let key = Array(bytes)
        if let index = indices[key] { return index }
        let index = UInt32(strings.count)
        strings.append(key)
        indices[key] = index
        byteCount += key.count
        return index
    }

    /// Sets the reserved strings 1 to 3.
    mutating func setReserved(name: String, date: String, licence: String) {
        for (index, text) in [(1, name), (2, date), (3, licence)] {
            byteCount += text.utf8.count - strings[index].count
            strings[index] = Array(text.utf8)
        }
    }
}
