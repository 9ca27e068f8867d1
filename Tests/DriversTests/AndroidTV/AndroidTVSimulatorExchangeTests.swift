import Net
import TVSimulators
import TestSupport
import Testing
import Wire

@testable import Drivers

/// Our messages and session state machines over real TLS against the simulated Android TV:
/// pairing by the code it shows, then the remote session with the paired certificate; a
/// certificate it has not paired is refused with `certificateRefused`.
@Suite("Android TV: our pairing and remote session against the simulated TV", .takesTurns)
struct AndroidTVSimulatorExchangeTests {
    static let bridge = TestIdentities.bridge
    static let stranger = TestIdentities.stranger

    static func connect(_ tv: AndroidTVSimulator, port: UInt16, as identity: TLSIdentity) async throws -> TLSConnection
    {
        try await TLSConnection.connect(
            over: try await TCPConnection.connect(to: try SocketAddress(ip: tv.host, port: port)),
            context: try TLSContext.client(TLSConfiguration(trust: .selfSigned(pinned: nil), identity: identity)),
            serverName: nil, deadline: .now + .seconds(30))
    }

    /// The driver's frame reader, each message decoded by `decode`.
    struct Reader<Message> {
        var frames: AndroidTVFrames
        let decode: (ArraySlice<UInt8>) throws -> Message

        init(stream: TLSConnection, decode: @escaping (ArraySlice<UInt8>) throws -> Message) {
            frames = AndroidTVFrames(stream)
            self.decode = decode
        }

        mutating func next() async throws -> Message? {
            try await frames.next(deadline: .now + .seconds(30)).map { try decode($0[...]) }
        }
    }

    /// Pairs `identity` with `tv` as the bridge will: the polo exchange, the code from the TV's
    /// screen (its `pairingCode`), the secret.
    static func pair(_ tv: AndroidTVSimulator, as identity: TLSIdentity, code: (String) -> String = { $0 })
        async throws -> AndroidTVPairingSession.Step
    {
        let tls = try await connect(tv, port: tv.pairingPort, as: identity)
        defer { tls.close() }
        var reader = Reader(stream: tls) { try AndroidTVPairingMessage(decoding: $0) }
        var session = AndroidTVPairingSession()
        var outgoing = AndroidTVPairingSession.request(clientName: "tv2mqtt")
        while true {
            try await tls.write(ProtobufDelimited.encode(outgoing.encoded()), deadline: .now + .seconds(30))
            guard let answer = try await reader.next() else { return .failed(DriverError(.unreachable, "closed")) }
            switch session.received(answer) {
            case .send(let message):
                outgoing = message
            case .codeShown:
                let shown = try #require(tv.pairingCode)
                let server = try #require(tls.peerRSAPublicKey)
                outgoing = try session.secret(
                    for: code(shown), client: try #require(identity.rsaPublicKey), server: server)
            case let step:
                return step
            }
        }
    }

    @Test("paired by the code on screen, the remote session negotiates, answers pings and hears the state pushed")
    func pairThenRemote() async throws {
        var options = AndroidTVSimulatorOptions()
        options.host = "127.0.0.9"
        (options.remotePort, options.pairingPort, options.simPort) = (0, 0, 0)
        options.pingInterval = .milliseconds(100)
        let tv = try await AndroidTVSimulator.start(options, log: .memory())
        do {
            #expect(try await Self.pair(tv, as: Self.bridge) == .paired)
            #expect(tv.pairedClients == 1)

            let tls = try await Self.connect(tv, port: tv.remotePort, as: Self.bridge)
            defer { tls.close() }
            var reader = Reader(stream: tls) { try AndroidTVRemoteMessage(decoding: $0) }
            var session = AndroidTVRemoteSession(wanted: .wanted(ime: true), connectedAt: .now)
            var pongs = 0
            var pushedVolume = false
            while let message = try await reader.next() {
                for effect in session.received(message, at: .now) {
                    if case .send(let answer) = effect {
                        try await tls.write(answer.framed(), deadline: .now + .seconds(30))
                        if case .pingResponse = answer { pongs += 1 }
                    }
                }
                if session.ready, session.appPackage != nil, session.volume?.level == 12, !pushedVolume {
                    pushedVolume = true
                    try tv.apply(["volume": 40, "muted": true])
                }
                if session.volume?.level == 40, pongs >= 2 { break }
            }
            #expect(session.active == [.ping, .key, .ime, .power, .volume, .appLink])
            #expect(session.device?.vendor == "Sony")
            #expect(session.snapshot().power == true && session.snapshot().volume == 40)
            #expect(session.snapshot().muted == true && session.snapshot().appID == AndroidTVSimState.launcher)
            #expect(pongs >= 2)
        } catch {
            await tv.stop()
            throw error
        }
        await tv.stop()
    }

    @Test("a certificate the TV has not paired gets certificateRefused; a mistyped code is caught before sending")
    func refusals() async throws {
        var options = AndroidTVSimulatorOptions()
        options.host = "127.0.0.9"
        (options.remotePort, options.pairingPort, options.simPort) = (0, 0, 0)
        let tv = try await AndroidTVSimulator.start(options, log: .memory())
        do {
            do {
                let tls = try await Self.connect(tv, port: tv.remotePort, as: Self.stranger)
                defer { tls.close() }
                _ = try await tls.read(maxBytes: 64, deadline: .now + .seconds(30))
                Issue.record("the stranger was let in")
            } catch let error as NetError {
                #expect(error.kind == .certificateRefused, "\(error)")
            }
            do {
                _ = try await Self.pair(tv, as: Self.stranger) { shown in
                    let first = UInt8(shown.prefix(2), radix: 16)! ^ 0x01
                    return Digest.hex([first]).uppercased() + shown.dropFirst(2)
                }
                Issue.record("a mistyped code was sent")
            } catch let error as DriverError {
                #expect(error.message.contains("check digits"))
            }
            #expect(tv.pairedClients == 0)
        } catch {
            await tv.stop()
            throw error
        }
        await tv.stop()
    }
}
