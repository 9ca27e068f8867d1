import Wire

/// One message of the remote protocol on port 6466 (`RemoteMessage` of `remotemessage.proto`),
/// in either direction: the bridge and the simulator share this codec. A message holds one
/// body; a body the bridge does not act on reads as `other` with its field number.
enum AndroidTVRemoteMessage: Equatable, Sendable {
    /// The TV's device, as `RemoteConfigure` carries it.
    struct Device: Equatable, Sendable {
        var model: String
        var vendor: String
        var packageName: String
        var appVersion: String
    }

    /// `RemoteDirection`: a press, or the two halves of a hold.
    enum Direction: UInt64, Sendable {
        case startLong = 1
        case endLong = 2
        case short = 3
    }

    case configure(AndroidTVFeatures, Device)
    case setActive(AndroidTVFeatures)
    /// The TV refused a message: the one it echoes, read one level deep.
    indirect case error(AndroidTVRemoteMessage?)
    case pingRequest(Int32)
    case pingResponse(Int32)
    case key(code: UInt64, Direction)
    /// The input method's report of the app in front (`RemoteImeKeyInject.app_info`).
    case appInFront(package: String)
    /// A batch edit: from the TV, its two counters; from the client, text to insert.
    case imeBatchEdit(imeCounter: Int32, fieldCounter: Int32, text: String?)
    /// The TV is ready for commands; `started` means it is on.
    case start(started: Bool)
    case volume(level: UInt64, maximum: UInt64, muted: Bool)
    case appLink(String)
    case other(field: UInt32)

    static let proto = "Android TV remote"

    /// `RemoteMessage`'s field numbers.
    private enum Field {
        static let configure: UInt32 = 1
        static let setActive: UInt32 = 2
        static let error: UInt32 = 3
        static let pingRequest: UInt32 = 8
        static let pingResponse: UInt32 = 9
        static let keyInject: UInt32 = 10
        static let imeKeyInject: UInt32 = 20
        static let imeBatchEdit: UInt32 = 21
        static let start: UInt32 = 40
        static let setVolumeLevel: UInt32 = 50
        static let appLinkLaunch: UInt32 = 90
    }

    // MARK: Decoding

    /// - Throws: what the protobuf decoder throws for the message or the body it reads.
    init(decoding bytes: ArraySlice<UInt8>) throws(WireError) {
        self = try Self.read(ProtobufMessage(decoding: bytes), echoDepth: 1)
    }

    private static func read(_ message: ProtobufMessage, echoDepth: Int) throws(WireError) -> Self {
        guard let first = message.fields.first(where: { if case .bytes = $0.value { true } else { false } }),
            case .bytes(let bytes) = first.value
        else { return .other(field: message.fields.first?.number ?? 0) }
        let body = try ProtobufMessage(decoding: bytes)
        switch first.number {
        case Field.configure:
            let device = try body.message(2) ?? ProtobufMessage()
            return .configure(
                AndroidTVFeatures(rawValue: body.uint(1) ?? 0),
                Device(
                    model: device.string(1) ?? "", vendor: device.string(2) ?? "",
                    packageName: device.string(5) ?? "", appVersion: device.string(6) ?? ""))
        case Field.setActive: return .setActive(AndroidTVFeatures(rawValue: body.uint(1) ?? 0))
        case Field.error:
            guard echoDepth > 0, let echoed = try body.message(2) else { return .error(nil) }
            return .error(try read(echoed, echoDepth: echoDepth - 1))
        case Field.pingRequest: return .pingRequest(body.int32(1) ?? 0)
        case Field.pingResponse: return .pingResponse(body.int32(1) ?? 0)
        case Field.keyInject:
            return .key(code: body.uint(1) ?? 0, Direction(rawValue: body.uint(2) ?? 0) ?? .short)
        case Field.imeKeyInject:
            guard let package = try body.message(1)?.string(12) else { return .other(field: first.number) }
            return .appInFront(package: package)
        case Field.imeBatchEdit:
            let inserted = try body.message(3)?.message(2)?.string(3)
            return .imeBatchEdit(imeCounter: body.int32(1) ?? 0, fieldCounter: body.int32(2) ?? 0, text: inserted)
        case Field.start: return .start(started: body.bool(1) ?? false)
        case Field.setVolumeLevel:
            return .volume(level: body.uint(7) ?? 0, maximum: body.uint(6) ?? 0, muted: body.bool(8) ?? false)
        case Field.appLinkLaunch: return .appLink(body.string(1) ?? "")
        default: return .other(field: first.number)
        }
    }

    // MARK: Encoding

    /// The message with its length prefix, as it goes on the wire.
    func framed() -> [UInt8] { ProtobufDelimited.encode(encoded()) }

    func encoded() -> ProtobufMessage {
        var outer = ProtobufMessage()
        var body = ProtobufMessage()
        let field: UInt32
        switch self {
        case .configure(let features, let device):
            body.append(1, uint: features.rawValue)
            var info = ProtobufMessage()
            info.append(1, string: device.model)
            info.append(2, string: device.vendor)
            // What androidtvremote2 sends in the two fields nobody has named.
            info.append(3, int32: 1)
            info.append(4, string: "1")
            info.append(5, string: device.packageName)
            info.append(6, string: device.appVersion)
            body.append(2, message: info.withoutDefaults())
            field = Field.configure
        case .setActive(let features):
            body.append(1, uint: features.rawValue)
            field = Field.setActive
        case .error(let echoed):
            body.append(1, bool: true)
            if let echoed { body.append(2, message: echoed.encoded()) }
            field = Field.error
        case .pingRequest(let value):
            body.append(1, int32: value)
            field = Field.pingRequest
        case .pingResponse(let value):
            body.append(1, int32: value)
            field = Field.pingResponse
        case .key(let code, let direction):
            body.append(1, uint: code)
            body.append(2, uint: direction.rawValue)
            field = Field.keyInject
        case .appInFront(let package):
            var app = ProtobufMessage()
            app.append(12, string: package)
            body.append(1, message: app.withoutDefaults())
            field = Field.imeKeyInject
        case .imeBatchEdit(let imeCounter, let fieldCounter, let text):
            body.append(1, int32: imeCounter)
            body.append(2, int32: fieldCounter)
            if let text { body.append(3, message: Self.insertion(text)) }
            field = Field.imeBatchEdit
        case .start(let started):
            body.append(1, bool: started)
            field = Field.start
        case .volume(let level, let maximum, let muted):
            body.append(6, uint: maximum)
            body.append(7, uint: level)
            body.append(8, bool: muted)
            field = Field.setVolumeLevel
        case .appLink(let link):
            body.append(1, string: link)
            field = Field.appLinkLaunch
        case .other(let number):
            field = number
        }
        outer.append(field, message: body.withoutDefaults())
        return outer
    }

    /// `RemoteEditInfo`: insert `text`, the cursor after its last character (the TV counts
    /// characters, not bytes).
    private static func insertion(_ text: String) -> ProtobufMessage {
        let cursor = Int32(max(text.unicodeScalars.count - 1, 0))
        var object = ProtobufMessage()
        object.append(1, int32: cursor)
        object.append(2, int32: cursor)
        object.append(3, string: text)
        var edit = ProtobufMessage()
        edit.append(1, int32: 1)
        edit.append(2, message: object.withoutDefaults())
        return edit.withoutDefaults()
    }
}

extension ProtobufMessage {
    /// proto3 leaves out a scalar that holds its default (0, false, the empty string), as the
    /// TV's and the official app's encoders do.
    fileprivate func withoutDefaults() -> ProtobufMessage {
        ProtobufMessage(fields.filter { $0.value != .varint(0) && $0.value != .bytes([]) })
    }
}
