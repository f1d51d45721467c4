/// One `[section]` of the configuration file: its name, and how its keys are read into a ``Configuration``.
struct ConfigurationSection: Sendable {
    /// The parts of the name in the header: `["gpsd"]`, `["sinks", "file"]`.
    let path: [String]
    /// Reads the section's keys with the reader into the configuration.
    let read: @Sendable (inout SectionReader, inout Configuration) -> Void

    /// A section named as in its header, dotted for a sub-section: `"gpsd"`, `"sinks.file"`.
    init(_ name: String, read: @escaping @Sendable (inout SectionReader, inout Configuration) -> Void) {
        self.path = name.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        self.read = read
    }

    /// The name as in its header, without brackets.
    var name: String { path.joined(separator: ".") }
}
