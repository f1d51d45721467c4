import WaymarkSystem

extension FileSink {
    /// One file of the logs that pruning may remove.
    struct LogFile {
        var path: String
        var day: Int64
        var bytes: Int64
    }

    /// Removes the files older than `maxAgeDays` before `today`, then the oldest files while all of them
    /// take more than `maxTotalBytes`; today's event log, the logs just written and `trips.jsonl` are never
    /// removed.
    func prune(today: Int64) {
        var files: [LogFile] = []
        for name in Files.names(in: directory + "/events") {
            guard let log = EventLogName(name) else { continue }
            let path = directory + "/events/" + name
            files.append(LogFile(path: path, day: log.day, bytes: Files.size(path) ?? 0))
        }
        for name in Files.names(in: directory + "/trips") {
            guard let day = TripTrack.day(ofFileName: name) else { continue }
            let path = directory + "/trips/" + name
            files.append(LogFile(path: path, day: day, bytes: Files.size(path) ?? 0))
        }
        files.sort { ($0.day, $0.path) < ($1.day, $1.path) }
        var total = files.reduce(Files.size(directory + "/trips.jsonl") ?? 0) { $0 + $1.bytes }
        let todaysLog = directory + "/events/" + EventLogName.fileName(day: today)
        for file in files where file.path != todaysLog && !writtenNow.contains(file.path) {
            let tooOld = retention.maxAgeDays > 0 && file.day < today - Int64(retention.maxAgeDays)
            guard tooOld || total > retention.maxTotalBytes else { continue }
            if Files.remove(file.path) { total -= file.bytes }
        }
    }
}
