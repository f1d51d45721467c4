/// A size in bytes, as the configuration file writes it: `"64KB"`, `"256MB"`, `"1GB"`.
///
/// The units are binary: `KB` is 1024 bytes, `MB` 1024 KB, `GB` 1024 MB and `TB` 1024 GB, as disk quotas and
/// most Linux tools count them; `KiB`, `MiB`, `GiB` and `TiB` are accepted as the same units, and `B` is bytes.
public struct ByteCount: Hashable, Comparable, Sendable {
    private static let units: [(name: String, size: Int64)] = [
        ("TB", 1 << 40), ("GB", 1 << 30), ("MB", 1 << 20), ("KB", 1 << 10), ("B", 1),
    ]
    private static let unitsByName: [String: Int64] = {
        var units = Dictionary(uniqueKeysWithValues: ByteCount.units.map { ($0.name, $0.size) })
        for (name, size) in ByteCount.units where name != "B" {
            units[name.prefix(1) + "iB"] = size
        }
        return units
    }()

    /// The number of bytes, 0 or more.
    public var bytes: Int64

    public init(bytes: Int64) {
        self.bytes = bytes
    }

    /// Reads a size: a number and a unit with no space, `"512B"`, `"64KB"`, `"1.5GB"`.
    ///
    /// Returns nil for anything else, including a bare number, a sign and a fraction that is not a whole
    /// number of bytes.
    public init?(configText text: String) {
        guard let bytes = ConfigQuantity.parse(text, units: Self.unitsByName) else { return nil }
        self.bytes = bytes
    }

    /// The size in the largest unit that holds it whole: `"64KB"`, `"1GB"`, `"1000B"`.
    public var configText: String { ConfigQuantity.format(bytes, units: Self.units) }

    public static func < (lhs: ByteCount, rhs: ByteCount) -> Bool { lhs.bytes < rhs.bytes }
}

extension ByteCount: CustomStringConvertible {
    public var description: String { configText }
}
