import WaymarkCore

extension AgentCore {
    /// Takes what the region file service learnt: a file rejected raises `region_file_rejected` (its path as
    /// `id`), whether the agent then monitors nothing or keeps the regions of an earlier version, since the
    /// board does not monitor the regions it was given; the file loading, or the configuration no longer
    /// naming it, clears it.
    mutating func regionFile(_ verdict: RegionFileVerdict, now: MonotonicInstant, wallClock: Timestamp) {
        guard var health else { return }
        let changes: [AlarmChange]
        switch verdict {
        case .named(let path):
            changes = health.regionFile(named: path, now: now)
        case .loaded(let path):
            changes = health.regionFile(path, rejection: nil, now: now)
        case .rejected(let path, let problems):
            changes = health.regionFile(path, rejection: rejection(of: path, problems), now: now)
        }
        self.health = health
        var events = alarmEvents(changes, now: now, wallClock: wallClock)
        deliver(&events, now: now)
    }

    /// The alarm's message: the first problem, how many there are, and what is monitored meanwhile.
    private func rejection(of path: String, _ problems: [String]) -> String {
        let monitored = pipeline.regions.lookup.count + (beacons?.regions.count ?? 0)
        let first = problems.first ?? "\(path): rejected"
        let more = problems.count > 1 ? " (and \(problems.count - 1) more)" : ""
        let meanwhile =
            monitored == 0
            ? "no region is monitored"
            : "the \(monitored) regions loaded before are monitored, not those of this version"
        return "[regions] file \(path) rejected: \(first)\(more); \(meanwhile): fix the file "
            + "(waymark check-config lists every problem)"
    }
}
