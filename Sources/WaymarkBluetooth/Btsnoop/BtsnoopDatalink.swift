/// The datalink of a btsnoop file: how each record's bytes and flags are to be read.
public enum BtsnoopDatalink: UInt32, Hashable, Sendable, CustomStringConvertible {
    /// HCI packets without their H4 type byte; the record's flags say what each is: bit 1 set for a command or
    /// an event, bit 0 set for a packet received by the host. An HCI event is both.
    case hciUnencapsulated = 1001
    /// HCI over UART (H4): each packet starts with its type byte, `0x04` for an event.
    case hciUART = 1002
    /// Linux's monitor channel, what BlueZ's `btmon -w FILE` writes: the record's flags are the adapter index
    /// shifted left 16 bits, or'ed with the opcode; opcode 3 is an HCI event, the packet without a type byte.
    case linuxMonitor = 2001

    public var description: String {
        switch self {
        case .hciUnencapsulated: "1001 (un-encapsulated HCI)"
        case .hciUART: "1002 (HCI UART, H4)"
        case .linuxMonitor: "2001 (Linux monitor, btmon)"
        }
    }
}
