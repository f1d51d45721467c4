import WaymarkSystem

/// `state_dir/odometer-set`: the odometer `waymark odometer set` asks for, in metres, until the agent takes it (at
/// its start, or at the reload the command signals). Written atomically and synced, so a power cut leaves the
/// request whole or absent; taken once, with the next commit saving the value in the spool.
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

    /// The metres asked for, removing the request; nil when there is none (or it holds no number of metres, which
    /// is removed too: it could never be applied).
    func take() -> Double? {
        guard let bytes = try? Files.contents(path) else { return nil }
        _ = Files.remove(path)
        guard let metres = Double(String(decoding: bytes, as: UTF8.self).trimmingTrailingNewline), metres.isFinite,
            metres >= 0
        else { return nil }
        return metres
    }
}
