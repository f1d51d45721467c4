import CUplink

/// gzip (RFC 1952) through zlib, for request bodies: JSON Lines of events shrink to about a seventh on a metered link.
public enum Gzip {
    /// `bytes` compressed at `level` (1 fastest to 9 smallest; 6 is zlib's balance).
    ///
    /// - Throws: ``HTTPClient/UplinkFailure`` when zlib cannot be loaded or fails.
    public static func compress(_ bytes: [UInt8], level: Int32 = 6) throws(UplinkFailure) -> [UInt8] {
        if let failure = waymark_uplink_library_open() {
            throw UplinkFailure(code: -1, message: String(cString: failure), cancelled: false)
        }
        // zlib keeps the stream's address and checks it at every call: the stream must not move.
        let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        stream.initialize(to: z_stream())
        defer { stream.deallocate() }
        guard waymark_gzip_init(stream, level) == Z_OK else {
            throw UplinkFailure(code: -1, message: "zlib: deflateInit2 failed", cancelled: false)
        }
        defer { _ = waymark_gzip_end(stream) }
        // deflate's bound for one call, plus gzip's 18 bytes of header and trailer.
        var output = [UInt8](repeating: 0, count: bytes.count + bytes.count / 1000 + 64)
        let status = bytes.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { out in
                stream.pointee.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
                stream.pointee.avail_in = UInt32(input.count)
                stream.pointee.next_out = out.baseAddress
                stream.pointee.avail_out = UInt32(out.count)
                return waymark_gzip_deflate(stream, Z_FINISH)
            }
        }
        guard status == Z_STREAM_END else {
            throw UplinkFailure(code: Int(status), message: "zlib: deflate failed (\(status))", cancelled: false)
        }
        output.removeSubrange(Int(stream.pointee.total_out)...)
        return output
    }
}
