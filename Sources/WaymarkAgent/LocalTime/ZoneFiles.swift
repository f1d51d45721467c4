import Glibc
import WaymarkFormats
import WaymarkSystem

/// The time zones of the system's tz database, read from its TZif files: `/usr/share/zoneinfo` (Debian's
/// `tzdata`), or the directory `TZDIR` names, as for the C library.
public struct ZoneFiles: Sendable {
    /// The directory of the zone files, `/usr/share/zoneinfo`.
    public var directory: String

    public init(directory: String) { self.directory = directory }

    /// The directory of `TZDIR` when it is set and not empty, else `/usr/share/zoneinfo`.
    public static var system: ZoneFiles {
        let tzdir = getenv("TZDIR").map { String(cString: $0) } ?? ""
        return ZoneFiles(directory: tzdir.isEmpty ? "/usr/share/zoneinfo" : tzdir)
    }

    /// The zone `name` (`Europe/Berlin`), read from its file.
    ///
    /// - Throws: ``ZoneInfoError``: a name that is not a relative path inside the directory (`..`, `/etc/x`),
    ///   a file that cannot be read (with the system's reason), or data that is not a valid TZif file.
    public func zone(named name: String) throws(ZoneInfoError) -> ZoneInfo {
        guard Self.isZoneName(name) else {
            throw ZoneInfoError(.invalidName, zone: name, "not a zone name such as Europe/Berlin")
        }
        let bytes: [UInt8]
        do {
            bytes = try Files.contents(directory + "/" + name)
        } catch {
            throw ZoneInfoError(.unreadable, zone: name, error.description)
        }
        return try ZoneInfo(tzif: bytes, name: name)
    }

    /// A relative path of letters, digits, `_`, `+`, `-` and `.`, with no empty, `.` or `..` component.
    static func isZoneName(_ name: String) -> Bool {
        let components = name.split(separator: "/", omittingEmptySubsequences: false)
        return !name.isEmpty
            && components.allSatisfy { component in
                !component.isEmpty && component != "." && component != ".."
                    && component.utf8.allSatisfy { byte in
                        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                            || [UInt8(ascii: "_"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: ".")]
                                .contains(byte)
                    }
            }
    }
}
