/// How replay decodes the JSON lines of a capture.
public enum CaptureDecoder: String, Sendable, CaseIterable {
    /// libgps's own `gps_unpack` for every line: what a live connection maps, by construction.
    case libgps
    /// Waymark's decoder for TPV and SKY lines in the plain shape gpsd writes, `gps_unpack` for all else:
    /// the same values, held to `gps_unpack` line by line by the tests, at about three times the replay speed.
    case builtin
}
