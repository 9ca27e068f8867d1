/// One packet of the pre-2016 Samsung remote protocol (TCP port 55000; C/D/E/F series,
/// 2010–2013, and the non-encrypted 2014–2015 models), both directions:
///
///     type (1 byte) · app length (UInt16 LE) · app string · payload length (UInt16 LE) · payload
///
/// A client sends type 0x00 with the app string `iphone.iapp.samsung`; the TV answers with type
/// 0x00 or 0x02 and its own app string (`iapp.samsung`). There is no official specification;
/// the layout is the one samsungctl (`remote_legacy.py`) and openHAB's samsungtv binding
/// (`RemoteControllerLegacy.java`) send and read (sources in Tests/Fixtures/samsung/README.md).
/// Unlike the rest of `Wire`, the lengths are little-endian.
public struct SamsungLegacyPacket: Equatable, Sendable {
    public static let proto = "Samsung legacy"
    /// What every client sends as its app string (the TVs check nothing about it).
    public static let clientApp = "iphone.iapp.samsung"
    /// Limits we enforce before waiting for the bytes: a TV's app string is 12 bytes and its
    /// replies 2–6 bytes; a client's longest payload (authentication with base64 strings) is
    /// well under 1 KiB.
    public static let maxAppLength = 64
    public static let maxPayloadLength = 1024

    public var type: UInt8
    public var app: [UInt8]
    public var payload: [UInt8]

    public init(type: UInt8 = 0x00, app: [UInt8] = Array(Self.clientApp.utf8), payload: [UInt8]) {
        self.type = type
        self.app = app
        self.payload = payload
    }

    /// The bytes on the wire. Lengths over the limits are the caller's bug: they are cut, never
    /// sent wrong (nothing we build comes near them).
    public func encoded() -> [UInt8] {
        var bytes: [UInt8] = [type]
        Self.appendField(app.prefix(Self.maxAppLength), to: &bytes)
        Self.appendField(payload.prefix(Self.maxPayloadLength), to: &bytes)
        return bytes
    }

    /// The first packet in `bytes` and how many bytes it used; nil when more bytes are needed.
    /// Throws on a length over the limits (checked as soon as the length is in, so a peer
    /// cannot make us wait for or buffer more).
    public static func decode(from bytes: ArraySlice<UInt8>) throws(WireError) -> (
        packet: SamsungLegacyPacket, used: Int
    )? {
        var reader = LittleEndianReader(bytes)
        guard let type = reader.byte() else { return nil }
        guard let appLength = reader.uint16() else { return nil }
        guard appLength <= maxAppLength else {
            throw .tooLarge(proto, "app string of \(appLength) bytes (limit \(maxAppLength))")
        }
        guard let app = reader.bytes(Int(appLength)) else { return nil }
        guard let payloadLength = reader.uint16() else { return nil }
        guard payloadLength <= maxPayloadLength else {
            throw .tooLarge(proto, "payload of \(payloadLength) bytes (limit \(maxPayloadLength))")
        }
        guard let payload = reader.bytes(Int(payloadLength)) else { return nil }
        return (SamsungLegacyPacket(type: type, app: Array(app), payload: Array(payload)), reader.used)
    }

    static func appendField(_ field: some Collection<UInt8>, to bytes: inout [UInt8]) {
        let count = UInt16(field.count)
        bytes.append(UInt8(count & 0xFF))
        bytes.append(UInt8(count >> 8))
        bytes.append(contentsOf: field)
    }
}

/// A cursor reading the protocol's little-endian fields; nil when too few bytes remain.
struct LittleEndianReader {
    private let bytes: ArraySlice<UInt8>
    private var index: Int

    init(_ bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
        self.index = bytes.startIndex
    }

    var used: Int { index - bytes.startIndex }
    var isAtEnd: Bool { index >= bytes.endIndex }

    mutating func byte() -> UInt8? {
        guard index < bytes.endIndex else { return nil }
        defer { index += 1 }
        return bytes[index]
    }

    mutating func uint16() -> UInt16? {
        guard bytes.endIndex - index >= 2 else { return nil }
        defer { index += 2 }
        return UInt16(bytes[index]) | UInt16(bytes[index + 1]) << 8
    }

    mutating func bytes(_ count: Int) -> ArraySlice<UInt8>? {
        guard count >= 0, bytes.endIndex - index >= count else { return nil }
        defer { index += count }
        return bytes[index..<index + count]
    }
}
