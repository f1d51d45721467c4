/// A fleet command the board ran or refused (`type` `command`, docs/events.md): what the fleet must know of a
/// change made to the board remotely, or of an attempt refused.
public struct CommandReport: Hashable, Sendable {
    /// The action as the command named it (`setWaypoints`); nil when it named none.
    public var action: String?
    /// The command's `id`, when it had one.
    public var id: String?
    public var ok: Bool
    /// What was done, or why not.
    public var message: String
    /// The configuration's digest after the command.
    public var configDigest: String?

    public init(action: String?, id: String?, ok: Bool, message: String, configDigest: String? = nil) {
        self.action = action
        self.id = id
        self.ok = ok
        self.message = message
        self.configDigest = configDigest
    }
}
