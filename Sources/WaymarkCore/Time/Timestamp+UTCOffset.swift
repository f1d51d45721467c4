extension Timestamp {
    /// `YYYY-MM-DDTHH:MM:SS.mmm+HH:MM`: the local time `utcOffsetSeconds` east of UTC, milliseconds truncated,
    /// as ``iso8601`` writes UTC (`2010-04-11T18:57:44.000+02:00` for `2010-04-11T16:57:44.000Z` in CEST).
    ///
    /// An offset of whole minutes is written `+HH:MM` (RFC 3339); one with seconds, as local mean times before
    /// 1900 have, `+HH:MM:SS`. An offset of 0 is `+00:00`.
    public func iso8601(utcOffsetSeconds offset: Int) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(32)
        Timestamp(seconds: seconds + Int64(offset), nanoseconds: nanoseconds).appendISO8601(to: &bytes)
        bytes.removeLast()
        bytes.append(UInt8(ascii: offset < 0 ? "-" : "+"))
        let magnitude = offset.magnitude
        var fields = [magnitude / 3600, magnitude / 60 % 60]
        if magnitude % 60 != 0 { fields.append(magnitude % 60) }
        for (number, field) in fields.enumerated() {
            if number > 0 { bytes.append(UInt8(ascii: ":")) }
            bytes.append(UInt8(ascii: "0") + UInt8(field / 10 % 10))
            bytes.append(UInt8(ascii: "0") + UInt8(field % 10))
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
