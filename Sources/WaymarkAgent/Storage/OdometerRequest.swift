import WaymarkSystem

/// `state_dir/odometer-set`: the odometer `waymark odometer set` asks for, in metres, until the agent takes it (at
/// its start, or at the reload the command signals). Written atomically and synced, so a power cut leaves the
/// request whole or absent; removed by the commit that saves the value in the spool, so a crash before that commit
/// leaves it to be taken again at the next start.
public struct OdometerRequest: Sendable {
    public let path: String

    public init(stateDirectory: String) {
        path = (stateDirectory.hasSuffix("/") ? stateDirectory : stateDirectory + "/") + "odometer-set"
    }

    /// Asks for the odometer to read `metres`.
    public func write(metres: Double) throws(SystemError) {
        try Files.makeDirectory(String(path.dropLast("/odometer-set".count)))
        try AtomicFile.write(Array("\(metres)\n".utf8), to: path)
    }

    /// The metres asked for; nil when there is none (or it holds no number of metres, which is removed: it could
    /// never be applied). The request stays until ``remove()``: the commit that saves the value removes it.
    func read() -> Double? {
        guard let bytes = try? Files.contents(path) else { return nil }
        guard let metres = Double(String(decoding: bytes, as: UTF8.self).trimmingTrailingNewline), metres.isFinite,
            metres >= 0
        else {
            _ = Files.remove(path)
            return nil
        }
        return metres
    }

    /// The request was saved in the spool: it is done.
    func remove() { _ = Files.remove(path) }
}
