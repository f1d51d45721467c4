import WaymarkSystem

/// A file in `state_dir` that holds an odometer reading, metres, as one line of text: written atomically and
/// synced, so a power cut leaves it whole or absent.
///
/// Two of them: `odometer-set`, what `waymark odometer set` asks for (``OdometerRequest``), and `odometer`, the
/// odometer at the last trip's end, kept outside the spool so that a spool set aside (corrupt) does not take the
/// odometer with it.
public struct OdometerFile: Sendable {
    public let path: String

    public init(stateDirectory: String, name: String) {
        path = (stateDirectory.hasSuffix("/") ? stateDirectory : stateDirectory + "/") + name
    }

    /// Replaces the reading with `metres`, creating `state_dir` if it is not there.
    public func write(metres: Double) throws(SystemError) {
        try Files.makeDirectory(String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)]))
        try AtomicFile.write(Array("\(metres)\n".utf8), to: path)
    }

    /// The metres the file holds; nil when there is no file, or it holds no number of metres (then it is removed:
    /// it could never be used).
    func read() -> Double? {
        guard let bytes = try? Files.contents(path) else { return nil }
        guard let metres = Double(String(decoding: bytes, as: UTF8.self).trimmingTrailingNewline), metres.isFinite,
            metres >= 0
        else {
            remove()
            return nil
        }
        return metres
    }

    func remove() { _ = Files.remove(path) }
}
