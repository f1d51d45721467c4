import WaymarkSystem

/// `state_dir/odometer-set`: the odometer `waymark odometer set` asks for, in metres, until the agent takes it (at
/// its start, or at the reload the command signals). Written atomically and synced, so a power cut leaves the
/// request whole or absent; removed by the commit that saves the value in the spool, so a crash before that commit
/// leaves it to be taken again at the next start.
public struct OdometerRequest: Sendable {
    private let file: OdometerFile

    public init(stateDirectory: String) { file = OdometerFile(stateDirectory: stateDirectory, name: "odometer-set") }

    public var path: String { file.path }

    /// Asks for the odometer to read `metres`.
    public func write(metres: Double) throws(SystemError) { try file.write(metres: metres) }

    /// The metres asked for; nil when there is none (or it holds no number of metres, which is removed: it could
    /// never be applied). The request stays until ``remove()``: the commit that saves the value removes it.
    func read() -> Double? { file.read() }

    /// The request was saved in the spool: it is done.
    func remove() { file.remove() }
}
