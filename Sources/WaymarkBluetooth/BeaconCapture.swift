import Glibc
import WaymarkCore
import WaymarkSystem

/// A Bluetooth capture for `waymark replay`: the LE advertising reports of a btsnoop file (``BtsnoopReader``),
/// each with Apple manufacturer data turned into what the live source would have said of it, in time order.
public struct BeaconCapture: Sendable {
    /// One advertisement of the capture: its time, and a sighting or a rejection.
    public struct Report: Hashable, Sendable {
        public var time: Timestamp
        public var event: BeaconSourceEvent
    }

    public let reports: [Report]
    /// The capture's own counts: records read, advertisements without Apple data, malformed records skipped.
    public let reader: BtsnoopReader

    /// Turns the reports of `reader` into the live source's events: an advertisement without Apple manufacturer
    /// data is skipped (BlueZ would report it, and the live source ignore it), one without an RSSI is
    /// ``BeaconRejection/badRSSI``.
    public init(_ reader: BtsnoopReader) {
        self.reader = reader
        var reports: [Report] = []
        for advertisement in reader.reports {
            guard
                let apple = AdvertisingData.manufacturerData(
                    companyID: AdvertisingData.appleCompanyID,
                    in: advertisement.data
                )
            else { continue }
            let event = BeaconSourceEvent.advertisement(appleData: apple, rssi: advertisement.rssi)
            reports.append(Report(time: advertisement.time, event: event))
        }
        // A capture is in the order of its records; adapters' clocks do not go backwards, but a spliced file may.
        self.reports = reports.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }
            .map(\.element)
    }

    /// Reads the btsnoop file at `path`.
    ///
    /// - Throws: ``BtsnoopError`` for a file that cannot be read or is no btsnoop capture.
    public static func open(_ path: String) throws(BtsnoopError) -> BeaconCapture {
        let bytes: [UInt8]
        do {
            bytes = try Files.contents(path)
        } catch {
            throw BtsnoopError(code: .cannotRead, file: path, offset: 0, message: error.reason)
        }
        return BeaconCapture(try BtsnoopReader(parsing: bytes, fileName: path))
    }

    /// Whether the file at `path` starts as a btsnoop capture does.
    public static func isBtsnoop(_ path: String) -> Bool {
        guard let file = fopen(path, "rb") else { return false }
        defer { fclose(file) }
        var magic = [UInt8](repeating: 0, count: 8)
        return fread(&magic, 1, 8, file) == 8 && magic == Array("btsnoop".utf8) + [0]
    }
}
