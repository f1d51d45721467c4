import Logging
import WaymarkCore
import WaymarkGPSD
import WaymarkStore
import WaymarkUplink

extension Storage {
    /// Opens the spool in `[agent] state_dir` and the sinks the configuration enables. Nothing here stops the
    /// agent: a spool that cannot be opened is moved aside and a fresh one started; one that cannot even be
    /// created leaves the agent running without (nil); each is reported, as an error to emit and a log line.
    static func open(_ configuration: Configuration, logger: Logger) -> (Storage?, [ErrorReport]) {
        var reports: [ErrorReport] = []
        let directory = configuration.agent.stateDirectory
        let spool: Spool
        do {
            let (opened, movedAside) = try Spool.open(inDirectory: directory, now: SystemClocks.wall())
            spool = opened
            if let movedAside {
                let message =
                    "the spool \(opened.path) could not be opened (\(movedAside.reason)); it was moved to "
                    + "\(movedAside.path) and a fresh spool started"
                logger.critical("\(message)")
                reports.append(ErrorReport(code: .spoolCorrupt, message: message))
            }
        } catch {
            let message = "no spool: \(error); events are not kept on disk and reach no sink"
            logger.critical("\(message)")
            return (nil, [ErrorReport(code: .spoolUnavailable, message: message)])
        }
        var sinks: [any Sink] = []
        if configuration.fileSink.enabled {
            let retention = FileSink.Retention(
                maxAgeDays: configuration.fileSink.maxAgeDays,
                maxTotalBytes: configuration.fileSink.maxTotalBytes.bytes
            )
            do {
                sinks.append(
                    try FileSink(directory: configuration.agent.logDirectory, retention: retention, tracks: spool)
                )
            } catch {
                let message = "the file sink cannot write its logs: \(error); events stay in the spool"
                logger.error("\(message)")
                reports.append(ErrorReport(code: .sinkFailure, message: message, subject: "file"))
            }
        }
        do {
            let storage = try Storage(
                spool: spool,
                sinks: sinks,
                settings: configuration.spool,
                clock: SystemClocks.monotonic,
                logger: logger
            )
            logger.info(
                "spool open",
                metadata: [
                    "path": "\(spool.path)", "last_seq": "\(storage.recovered.lastSeq)",
                    "sinks": "\(sinks.map(\.name))",
                ]
            )
            return (storage, reports)
        } catch {
            let message = "the spool \(spool.path) cannot be read: \(error); events are not kept on disk"
            logger.critical("\(message)")
            return (nil, reports + [ErrorReport(code: .spoolUnavailable, message: message)])
        }
    }
}
