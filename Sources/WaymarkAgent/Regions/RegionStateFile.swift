import WaymarkSystem

/// The regions the vehicle is inside, saved in the state directory (`regions.state`) so that a crossing
/// missed while the agent was down is reported after a start (`"offline": true`).
///
/// Text, one line per region id after a header line; rewritten atomically whenever the set changes. The
/// spool keeps the set now: this file is read once when the spool has none, and written only by an agent
/// running without a spool.
struct RegionStateFile {
    static let header = "waymark region states 1"

    let path: String

    init(stateDirectory: String) {
        path = stateDirectory.hasSuffix("/") ? stateDirectory + "regions.state" : stateDirectory + "/regions.state"
    }

    /// The saved set; nil when there is no file (a first start) or it is not one of ours.
    func load() -> Set<String>? {
        guard let bytes = try? Files.contents(path) else { return nil }
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: true)
        guard lines.first == Substring(Self.header) else { return nil }
        return Set(lines.dropFirst().map(String.init))
    }

    func save(_ inside: [String]) throws(SystemError) {
        let text = ([Self.header] + inside.filter { !$0.contains("\n") }).joined(separator: "\n") + "\n"
        try AtomicFile.write(Array(text.utf8), to: path)
    }
}
