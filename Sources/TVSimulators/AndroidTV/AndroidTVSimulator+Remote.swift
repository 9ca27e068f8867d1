import Net
import Support
import Wire

/// The remote protocol on `remotePort` (`RemoteMessage` of `remotemessage.proto`), for paired
/// client certificates only: configure and set active, then the state (start, volume, the app in
/// front) pushed on every change, a ping every `pingInterval`, and keys, app links and text
/// carried out and logged. A message it does not know comes back as RemoteError echoing it.
extension AndroidTVSimulator {
    /// `RemoteMessage`'s fields, by number.
    enum Remote {
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
        static let appLink: UInt32 = 90
    }

    func serveRemote(_ tcp: TCPConnection) async {
        if refusedAsleep(tcp, "remote") { return }
        let paired = core.withLock { $0.paired }
        let tls: TLSConnection
        do {
            tls = try await TLSConnection.accept(
                over: tcp, context: context, deadline: .now + .seconds(30), clientCertificates: paired)
        } catch {
            record("remote", ["action": .string("refused")])
            return
        }
        defer { tls.close() }
        switch options.fault {
        case .garbage:
            _ = try? await tls.write([0x05, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF], deadline: .now + .seconds(30))
            return
        case .neverConfigure:
            while let bytes = try? await tls.read(maxBytes: 4096, deadline: nil), !bytes.isEmpty {}
            return
        case .pairingRefused, nil:
            break
        }
        let (outbox, continuation) = AsyncStream<[UInt8]>.makeStream()
        let id = core.withLock { core in
            core.nextSession += 1
            core.sessions[core.nextSession] = Session(outbox: continuation, close: { tls.close() })
            return core.nextSession
        }
        record("remote", ["action": .string("connected")])
        let writer = Task {
            for await bytes in outbox {
                guard (try? await tls.write(bytes, deadline: .now + .seconds(30))) != nil else { return }
            }
        }
        let pinger = Task { await self.ping(session: id) }
        push(to: id, configureMessage())
        var reader = AndroidTVFrameReader(tls)
        while let message = try? await reader.next() { received(message, session: id) }
        pinger.cancel()
        core.withLock { $0.sessions[id] = nil }
        continuation.finish()
        await writer.value
        record("remote", ["action": .string("closed")])
    }

    private func ping(session id: Int) async {
        while (try? await EventLoop.sleep(for: options.pingInterval, clock: .system)) != nil {
            let value = core.withLock { core -> Int32 in
                core.pings &+= 1
                return core.pings
            }
            guard core.withLock({ $0.sessions[id] != nil }) else { return }
            push(to: id, .wrapping(Remote.pingRequest, .proto3([(1, .varint(UInt64(value)))])))
        }
    }

    private func received(_ message: ProtobufMessage, session id: Int) {
        let body = message.kind.flatMap { try? message.message($0) } ?? ProtobufMessage()
        switch message.kind {
        case Remote.configure:
            record("remote", ["action": .string("configured"), "features": .integer(Int64(body.uint(1) ?? 0))])
            push(to: id, .wrapping(Remote.setActive))
        case Remote.setActive:
            let messages = core.withLock { core -> [ProtobufMessage] in
                core.sessions[id]?.active = true
                return Self.stateMessages(core.state, model: options.model)
            }
            for message in messages { push(to: id, message) }
        case Remote.pingResponse:
            break
        case Remote.keyInject:
            let code = body.uint(1) ?? 0
            let direction = body.uint(2) ?? 0
            record("key", ["code": .integer(Int64(code)), "direction": .string(Self.directionName(direction))])
            if direction != 2 { changeState { Self.press(code, on: &$0) } }
        case Remote.appLink:
            let link = body.string(1) ?? ""
            record("app_link", ["link": .string(link)])
            changeState { $0.app = Self.package(opening: link) }
        case Remote.imeBatchEdit:
            let text = (try? body.message(3)?.message(2)?.string(3)) ?? ""
            record("text", ["text": .string(text)])
        default:
            record("remote", ["action": .string("unknown"), "field": .integer(Int64(message.kind ?? 0))])
            var error = ProtobufMessage()
            error.append(1, bool: true)
            error.append(2, message: message)
            push(to: id, .wrapping(Remote.error, error))
        }
    }

    /// Applies `change` to the state, then pushes what changed to every active session.
    func changeState(_ change: (inout AndroidTVSimState) -> Void) {
        core.withLock { core in
            let before = core.state
            change(&core.state)
            publish(from: before, &core)
        }
    }

    /// Pushes what differs between `before` and the state now to every active session.
    func publish(from before: AndroidTVSimState, _ core: inout Core) {
        let now = core.state
        var messages: [ProtobufMessage] = []
        if now.on != before.on { messages.append(Self.startMessage(now)) }
        if now.volume != before.volume || now.muted != before.muted || now.volumeMax != before.volumeMax {
            messages.append(Self.volumeMessage(now, model: options.model))
        }
        if now.app != before.app { messages.append(Self.appMessage(now)) }
        for session in core.sessions.values where session.active {
            for message in messages { session.outbox.yield(ProtobufDelimited.encode(message)) }
        }
    }

    private func push(to id: Int, _ message: ProtobufMessage) {
        let outbox = core.withLock { $0.sessions[id]?.outbox }
        outbox?.yield(ProtobufDelimited.encode(message))
    }

    private func configureMessage() -> ProtobufMessage {
        let device = ProtobufMessage.proto3([
            (1, .bytes(Array(options.model.utf8))), (2, .bytes(Array(options.manufacturer.utf8))), (3, .varint(1)),
            (4, .bytes(Array("1".utf8))), (5, .bytes(Array("com.google.android.tv.remote.service".utf8))),
            (6, .bytes(Array("5.2.473254133".utf8))),
        ])
        return .wrapping(Remote.configure, .proto3([(1, .varint(options.features)), (2, .bytes(device.encoded()))]))
    }

    static func stateMessages(_ state: AndroidTVSimState, model: String) -> [ProtobufMessage] {
        [startMessage(state), volumeMessage(state, model: model), appMessage(state)]
    }

    static func startMessage(_ state: AndroidTVSimState) -> ProtobufMessage {
        .wrapping(Remote.start, .proto3([(1, .varint(state.on ? 1 : 0))]))
    }

    static func volumeMessage(_ state: AndroidTVSimState, model: String) -> ProtobufMessage {
        .wrapping(
            Remote.setVolumeLevel,
            .proto3([
                (3, .bytes(Array(model.utf8))), (6, .varint(UInt64(state.volumeMax))),
                (7, .varint(UInt64(state.volume))), (8, .varint(state.muted ? 1 : 0)),
            ]))
    }

    static func appMessage(_ state: AndroidTVSimState) -> ProtobufMessage {
        let app = ProtobufMessage.proto3([(12, .bytes(Array(state.app.utf8)))])
        return .wrapping(Remote.imeKeyInject, .proto3([(1, .bytes(app.encoded()))]))
    }

    /// What a key does to the state: power, volume, mute, home.
    static func press(_ code: UInt64, on state: inout AndroidTVSimState) {
        switch code {
        case 26, 177: state.on.toggle()
        case 224: state.on = true
        case 223: state.on = false
        case 24 where state.on: state.volume = min(state.volume + 1, state.volumeMax)
        case 25 where state.on: state.volume = max(state.volume - 1, 0)
        case 164 where state.on: state.muted.toggle()
        case 3 where state.on: state.app = AndroidTVSimState.launcher
        default: break
        }
    }

    static func directionName(_ direction: UInt64) -> String {
        switch direction {
        case 1: "START_LONG"
        case 2: "END_LONG"
        case 3: "SHORT"
        default: "UNKNOWN_DIRECTION"
        }
    }

    /// The app an app link opens: `market://launch?id=<package>` names it; a few web links open
    /// their apps; any other link opens the browser.
    static func package(opening link: String) -> String {
        let market = "market://launch?id="
        if link.hasPrefix(market) { return String(link.dropFirst(market.count)) }
        for (domain, package) in webApps where link.contains(domain) { return package }
        return "com.android.chrome"
    }

    static let webApps: [(String, String)] = [
        ("netflix.com", "com.netflix.ninja"), ("youtube.com", "com.google.android.youtube.tv"),
        ("primevideo.com", "com.amazon.amazonvideo.livingroom"), ("disneyplus.com", "com.disney.disneyplus"),
    ]
}
