extension EventPipeline {
    /// What the pipeline has reported of the source's availability, so that each outage of gpsd, each missing
    /// receiver and each loss of the fix gives one error (Core Location's model), and the first update a `status`.
    ///
    /// gpsd is up or down, one phase at a time. While it is up, a missing receiver and a lost fix are independent
    /// (a receiver can go while its fix is already lost, and come back without one): two reports of that phase, not
    /// phases of their own. An outage forgets both: the sources report nothing of the receiver between an outage
    /// and the next connection.
    enum Phase: Sendable {
        /// No update yet: the first one reports a `status`, whatever it says.
        case starting
        /// gpsd is connected, or was never reported unavailable; with the receiver's errors reported meanwhile.
        case up(ReceiverReports)
        /// gpsd was reported unavailable (one `gpsd_unavailable`): no more until it connects again.
        case down

        /// An update begins; true for the first one.
        mutating func begin() -> Bool {
            guard case .starting = self else { return false }
            self = .up([])
            return true
        }

        /// gpsd connected: an outage ends; a reconnection without one keeps what was reported.
        mutating func connected() {
            if case .down = self { self = .up([]) }
        }

        /// gpsd is unavailable; true when that is news (the outage's `gpsd_unavailable`).
        mutating func unavailable() -> Bool {
            if case .down = self { return false }
            self = .down
            return true
        }

        /// The receiver's condition holds (no receiver, no fix); true when that is news, to report. While gpsd is
        /// down nothing is kept, and every such condition would be news.
        mutating func isNews(_ condition: ReceiverReports) -> Bool {
            guard case .up(var reports) = self else { return true }
            guard reports.insert(condition).inserted else { return false }
            self = .up(reports)
            return true
        }

        /// The receiver's condition ended (the receiver is active, a current fix came): the next time it holds is
        /// news again.
        mutating func ended(_ condition: ReceiverReports) {
            guard case .up(var reports) = self, reports.remove(condition) != nil else { return }
            self = .up(reports)
        }
    }

    /// The receiver's errors reported while gpsd is up, each until its condition ends.
    struct ReceiverReports: OptionSet, Sendable {
        let rawValue: UInt8

        /// `no_device`: until the receiver is active again.
        static let noDevice = ReceiverReports(rawValue: 1 << 0)
        /// `location_unknown`: until a current fix.
        static let locationUnknown = ReceiverReports(rawValue: 1 << 1)
    }
}
