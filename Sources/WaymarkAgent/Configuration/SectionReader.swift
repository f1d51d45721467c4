import WaymarkFormats

/// Reads the keys of one section of the configuration file into settings, and records an issue for every
/// value that a key does not accept and every key that the section does not have.
///
/// A section is read by one `read(_:_:into:)` call per key; the keys read are the
/// allowed keys that a message about an unknown key lists, in the same order.
struct SectionReader {
    /// The file name that issues start with.
    let file: String
    /// The section's name, dotted for a sub-section: `gpsd`, `sinks.file`.
    let section: String
    /// The problems found so far, in the order the keys were read.
    private(set) var issues: [ConfigurationIssue] = []
    /// The keys read so far: the keys the section allows.
    private(set) var allowedKeys: [String] = []
    private let table: TOMLTable
    private var rejectedKeys: Set<String> = []
    /// Whether ``recorded`` takes each key's value in effect after its read (the fleet's configuration digest).
    private let recording: Bool
    /// The keys read and their values in effect, canonical (``FleetDigests/canonicalText(of:)``), when recording.
    private(set) var recorded: [(key: String, value: String)] = []

    init(file: String, section: String, table: TOMLTable, recording: Bool = false) {
        self.file = file
        self.section = section
        self.table = table
        self.recording = recording
    }

    /// Sets `setting` to the value of `key` if the file has the key and `rule` accepts its value; otherwise
    /// leaves the default.
    mutating func read<Value>(_ key: String, _ rule: ValueRule<Value>, into setting: inout Value) {
        if let value = value(of: key, rule) {
            setting = value
        }
        if recording { recorded.append((key, Self.canonical(setting))) }
    }

    /// Sets an optional `setting` to the value of `key` if the file has the key and `rule` accepts its value;
    /// otherwise leaves the default.
    mutating func read<Value>(_ key: String, _ rule: ValueRule<Value>, into setting: inout Value?) {
        if let value = value(of: key, rule) {
            setting = value
        }
        if recording, let setting { recorded.append((key, Self.canonical(setting))) }
    }

    /// A value in effect as the configuration digest writes it.
    private static func canonical(_ value: Any) -> String {
        switch value {
        case let duration as Duration: "\"\(duration.configText)\""
        case let text as String: text.debugDescription
        case let flag as Bool: flag ? "true" : "false"
        case let number as Int: String(number)
        case let number as Double: String(number)
        case let texts as [String]: "[" + texts.map(\.debugDescription).joined(separator: ",") + "]"
        default: String(describing: value)
        }
    }

    /// Checks that the setting of `lowerKey` is not above that of `upperKey` when both were accepted, and
    /// records the issue on the key the file sets: `reconnect_max = "500ms": must be at least reconnect_min (1s)`.
    mutating func requireOrder<Value: Comparable>(
        _ lowerKey: String,
        _ lower: Value,
        notAbove upperKey: String,
        _ upper: Value,
        describe: (Value) -> String
    ) {
        guard lower > upper, !rejectedKeys.contains(lowerKey), !rejectedKeys.contains(upperKey) else { return }
        if table[upperKey] == nil && table[lowerKey] != nil {
            reject(lowerKey, "must be at most \(upperKey) (\(describe(upper)), its default)")
        } else {
            reject(upperKey, "must be at least \(lowerKey) (\(describe(lower)))")
        }
    }

    /// Whether the file sets `key`, whatever its value.
    func has(_ key: String) -> Bool { table[key] != nil }

    /// Whether the file sets `key` and its value was accepted.
    func accepted(_ key: String) -> Bool { has(key) && !rejectedKeys.contains(key) }

    /// Records `message` as an issue on `key` when the file sets it, it was accepted, and `holds` is false: a rule
    /// between keys, such as a level the chosen coding does not have.
    mutating func require(_ key: String, _ holds: Bool, else message: String) {
        guard !holds, table[key] != nil, !rejectedKeys.contains(key) else { return }
        reject(key, message)
    }

    /// Records an issue when the section lacks `key`, which `reason` needs: on the line of `reasonKey`, or of the
    /// section's first key.
    mutating func requirePresent(_ key: String, because reason: String, at reasonKey: String) {
        guard table[key] == nil, !rejectedKeys.contains(key) else { return }
        rejectedKeys.insert(key)
        issues.append(
            ConfigurationIssue(
                file: file,
                line: table[reasonKey]?.line ?? table.entries.first?.line,
                section: section,
                key: TOMLValue.key(key),
                message: "missing: \(reason)"
            )
        )
    }

    /// Records an issue for each key of the section that was not read, other than `subsections`, which hold
    /// sections of their own.
    mutating func rejectUnknownKeys(except subsections: Set<String> = []) {
        let allowed =
            allowedKeys.isEmpty
            ? "this section has no keys" : "allowed keys are " + allowedKeys.joined(separator: ", ")
        for entry in table.entries where !allowedKeys.contains(entry.key) && !subsections.contains(entry.key) {
            issues.append(
                ConfigurationIssue(
                    file: file,
                    line: entry.line,
                    section: section,
                    key: TOMLValue.key(entry.key),
                    message: "unknown key; \(allowed)"
                )
            )
        }
    }

    private mutating func value<Value>(of key: String, _ rule: ValueRule<Value>) -> Value? {
        allowedKeys.append(key)
        guard let entry = table[key] else { return nil }
        switch rule.check(entry.value) {
        case .accepted(let value):
            return value
        case .rejected(let message):
            reject(key, message)
            return nil
        }
    }

    private mutating func reject(_ key: String, _ message: String) {
        rejectedKeys.insert(key)
        let entry = table[key]
        issues.append(
            ConfigurationIssue(
                file: file,
                line: entry?.line,
                section: section,
                key: TOMLValue.key(key),
                value: entry?.value.description,
                message: message
            )
        )
    }
}
