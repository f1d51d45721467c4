import WaymarkCore

/// One message from gpsd, decoded: what Waymark uses of gpsd's JSON protocol.
public enum GPSDMessage: Hashable, Sendable {
    case fix(FixReport)
    case attitude(Attitude)
    case sky(SkyReport)
    /// `VERSION`: gpsd's release.
    case version(release: String)
    /// `DEVICE` with a time in `activated`: the receiver is open.
    case deviceActive(path: String)
    /// `DEVICE` with `"activated":0`: the receiver was closed (libgps 3.22 does not parse this itself).
    case deviceGone(path: String)
    /// `DEVICES`: the receivers gpsd knows; empty when it has none.
    case devices(paths: [String])
    /// `ERROR`: gpsd's own error message.
    case error(message: String)
    /// A JSON message of a class Waymark does not use (`WATCH`, `PPS`, `TOFF`, `GST`, …).
    case ignored(messageClass: String)
    /// An NMEA sentence echoed into the capture, or a comment: expected, not an error.
    case echo
    /// A line that is not a complete JSON object gpsd could have written.
    case unparsable
}
