/// What a pre-2016 Samsung TV's reply payload means (samsungctl `remote_legacy.py`
/// `_read_response`; openHAB `RemoteControllerLegacy.java`).
public enum SamsungLegacyReply: Equatable, Sendable {
    /// `64 00 01 00`: the user allowed this client (or allowed it before).
    case granted
    /// `64 00 00 00`: the user chose Deny (or denied it before).
    case denied
    /// `0A 00 …` (`0A 00 02 00 00 00`): the TV shows its allow prompt; the answer follows.
    case waiting
    /// `65 …` (`65 00`): nobody answered the prompt, or it was cancelled.
    case timedOut
    /// `00 00 00 00`: a key was taken.
    case keyAccepted
    /// Anything else (kept, for the log).
    case other([UInt8])

    public init(payload: some Collection<UInt8>) {
        let bytes = Array(payload)
        if bytes == [0x64, 0x00, 0x01, 0x00] {
            self = .granted
        } else if bytes == [0x64, 0x00, 0x00, 0x00] {
            self = .denied
        } else if bytes == [0x00, 0x00, 0x00, 0x00] {
            self = .keyAccepted
        } else if bytes.first == 0x0A {
            self = .waiting
        } else if bytes.first == 0x65 {
            self = .timedOut
        } else {
            self = .other(Array(bytes.prefix(16)))
        }
    }

    /// The payload a TV sends for it (the simulator's side).
    public var payload: [UInt8] {
        switch self {
        case .granted: [0x64, 0x00, 0x01, 0x00]
        case .denied: [0x64, 0x00, 0x00, 0x00]
        case .waiting: [0x0A, 0x00, 0x02, 0x00, 0x00, 0x00]
        case .timedOut: [0x65, 0x00]
        case .keyAccepted: [0x00, 0x00, 0x00, 0x00]
        case .other(let bytes): bytes
        }
    }

    /// The app string a TV answers with.
    public static let tvApp = Array("iapp.samsung".utf8)
}

/// What a client asks of a pre-2016 Samsung TV: the payload of its packets.
///
/// Authentication: `64 00`, then three length-prefixed (UInt16 LE) base64 strings: the
/// client's IP address, its id (the TV remembers its answer per id), its name (shown in the
/// prompt). A key: `00 00 00`, then the length-prefixed base64 of `KEY_…`.
public enum SamsungLegacyRequest: Equatable, Sendable {
    case authenticate(ip: String, id: String, name: String)
    case key(String)

    /// Longest decoded string we accept (a name, an id, a key code).
    public static let maxStringLength = 128

    public var payload: [UInt8] {
        var bytes: [UInt8]
        switch self {
        case .authenticate(let ip, let id, let name):
            bytes = [0x64, 0x00]
            for text in [ip, id, name] { Self.appendBase64(text, to: &bytes) }
        case .key(let code):
            bytes = [0x00, 0x00, 0x00]
            Self.appendBase64(code, to: &bytes)
        }
        return bytes
    }

    /// The packet a client sends.
    public var packet: SamsungLegacyPacket { SamsungLegacyPacket(payload: payload) }

    /// Reads a client's payload (the simulator's side); throws on anything else.
    public init(payload: some Collection<UInt8>) throws(WireError) {
        let bytes = Array(payload)
        var reader = LittleEndianReader(bytes[...])
        if bytes.starts(with: [0x64, 0x00]) {
            _ = reader.bytes(2)
            let ip = try Self.readBase64(&reader)
            let id = try Self.readBase64(&reader)
            let name = try Self.readBase64(&reader)
            self = .authenticate(ip: ip, id: id, name: name)
        } else if bytes.starts(with: [0x00, 0x00, 0x00]) {
            _ = reader.bytes(3)
            self = .key(try Self.readBase64(&reader))
        } else {
            throw .unsupported(SamsungLegacyPacket.proto, "unknown request payload starting \(bytes.prefix(3))")
        }
        guard reader.isAtEnd else {
            throw .malformed(SamsungLegacyPacket.proto, "bytes after the last field of a request")
        }
    }

    static func appendBase64(_ text: String, to bytes: inout [UInt8]) {
        SamsungLegacyPacket.appendField(Base64.encodeToBytes(Array(text.utf8.prefix(maxStringLength))), to: &bytes)
    }

    static func readBase64(_ reader: inout LittleEndianReader) throws(WireError) -> String {
        guard let length = reader.uint16(), let field = reader.bytes(Int(length)) else {
            throw .malformed(SamsungLegacyPacket.proto, "a string field runs past the payload")
        }
        guard length <= (maxStringLength + 2) / 3 * 4 else {
            throw .tooLarge(SamsungLegacyPacket.proto, "a string field of \(length) bytes")
        }
        let decoded = try Base64.decode(bytes: field)
        guard let text = String(validating: decoded, as: UTF8.self) else {
            throw .malformed(SamsungLegacyPacket.proto, "a string field is not UTF-8")
        }
        return text
    }
}
