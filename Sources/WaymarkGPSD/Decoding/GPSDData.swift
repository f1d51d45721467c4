import CLibGPS
import WaymarkCore

/// libgps's `gps_data_t` for one connection or one replay, with the buffer `gps_read` copies each raw
/// message into. Owned by one thread at a time.
final class GPSDData {
    let pointer: UnsafeMutablePointer<gps_data_t>
    /// The raw JSON line of the last message read (NUL-terminated).
    let message: UnsafeMutableBufferPointer<CChar>

    init() {
        guard let pointer = waymark_gps_data_new() else {
            preconditionFailure("cannot allocate gps_data_t")
        }
        self.pointer = pointer
        message = .allocate(capacity: Int(WAYMARK_MESSAGE_CAPACITY) + 1)
        message.initialize(repeating: 0)
    }

    deinit {
        waymark_gps_data_free(pointer)
        message.deallocate()
    }

    /// Decodes one line of a capture (what `gpspipe -w` writes) with libgps's own `gps_unpack`,
    /// so that replay maps exactly what a live connection maps.
    func unpack(line: UnsafeBufferPointer<UInt8>) -> GPSDMessage {
        guard let first = line.first(where: { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") }) else {
            return .echo
        }
        guard first == UInt8(ascii: "{") else {
            // NMEA sentences echoed by gpsd (`$…`, `!AIVDM…`) and comments are part of a capture.
            switch first {
            case UInt8(ascii: "$"), UInt8(ascii: "!"), UInt8(ascii: "#"): return .echo
            default: return .unparsable
            }
        }
        guard line.count <= Int(WAYMARK_MESSAGE_CAPACITY), JSONLine.isComplete(line) else { return .unparsable }
        let raw = UnsafeMutableRawBufferPointer(message)
        raw.copyMemory(from: UnsafeRawBufferPointer(line))
        raw[line.count] = 0
        _ = waymark_unpack(message.baseAddress, pointer)
        return decode(line)
    }

    /// Decodes the message `gps_read` just read (and libgps unpacked) into ``message``: its braces are checked
    /// for balance only (``JSONLine/isBalanced(_:)``), the text being gpsd's own.
    func decodeLastRead() -> GPSDMessage {
        let raw = UnsafeRawBufferPointer(message)
        let length = strnlen(message.baseAddress!, message.count)
        let line = UnsafeBufferPointer(rebasing: raw.bindMemory(to: UInt8.self)[..<length])
        guard JSONLine.isBalanced(line) else { return .unparsable }
        return decode(line)
    }

    private func decode(_ line: UnsafeBufferPointer<UInt8>) -> GPSDMessage {
        guard let messageClass = JSONLine.messageClass(line) else { return .unparsable }
        switch messageClass {
        case "TPV": return .fix(fixReport())
        case "ATT": return .attitude(attitude())
        case "SKY": return .sky(skyReport())
        case "DEVICE":
            let path = cString(pointer.pointee.dev.path)
            return JSONLine.reportsDeactivation(line) ? .deviceGone(path: path) : .deviceActive(path: path)
        case "DEVICES": return .devices(paths: devicePaths())
        case "VERSION": return .version(release: cString(pointer.pointee.version.release))
        case "ERROR": return .error(message: cString(pointer.pointee.error))
        default: return .ignored(messageClass: String(messageClass))
        }
    }
}

/// The text of a C `char[N]` array (imported as a tuple), up to its first NUL or its end.
func cString<T>(_ tuple: T) -> String {
    withUnsafeBytes(of: tuple) { bytes in
        let length = bytes.firstIndex(of: 0) ?? bytes.count
        return String(decoding: bytes[..<length], as: UTF8.self)
    }
}
