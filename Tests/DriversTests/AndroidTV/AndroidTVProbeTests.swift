import Clients
import Harness
import Net
import Synchronization
import TVSimulators
import TestSupport
import Testing
import Wire

@testable import Drivers

/// The probe on the pairing port, the one after the remote port: the simulated TV's certificate
/// gives its name, model and MAC (the id); a TLS server that is no Android TV and a closed
/// port are refused, saying which. The probes run on a clock that never moves.
@Suite("Android TV: the probe", .timeLimit(.minutes(3)))
struct AndroidTVProbeTests {
    static let settings = DriverSettings(clientIdentity: .fixed(TestIdentities.bridge), logger: .disabled)

    /// The probe on a clock that never moves: its connect and handshake deadlines cannot fire on
    /// a busy machine, so each outcome is what the peer did.
    static func describe(_ host: String) async throws(DriverError) -> TVDescription {
        let outcome = await ManualClock().run { () async -> Result<TVDescription, DriverError> in
            do throws(DriverError) {
                return .success(try await AndroidTVProbe.describe(host: host, port: nil, settings: settings))
            } catch {
                return .failure(error)
            }
        }
        return try outcome.get()
    }

    @Test("the simulated TV is described from its certificate, with nothing shown on its screen")
    func simulated() async throws {
        var options = AndroidTVSimulatorOptions()
        options.host = "127.0.0.62"
        options.simPort = 0
        options.name = "Den TV"
        let log = CommandLog.memory()
        let tv = try await AndroidTVSimulator.start(options, log: log)
        defer { Task { await tv.stop() } }
        let description = try await Self.describe(tv.host)
        let identity = description.identity
        let macDigits = tv.mac.lowercased().split(separator: ":").joined()
        #expect(identity.id.rawValue == "androidtv_" + macDigits)
        #expect(identity.name == "Den TV" && identity.model == "BRAVIA 4K UR3")
        #expect(identity.macs == [tv.mac.lowercased()] && identity.port == 6466 && identity.kind == .androidtv)
        #expect(description.capabilities.pairing && description.capabilities.power)
        #expect(tv.pairingCode == nil, "the probe started no pairing")
    }

    @Test("a TLS server with another certificate is not an Android TV; a closed port is unreachable")
    func refused() async throws {
        let listener = try TCPListener.bind(host: "127.0.0.63", port: 6467)
        defer { listener.close() }
        let (certificate, key) = try TLSContext.selfSignedCertificate(commonName: "printer")
        let context = try TLSContext.server(certificatePEM: certificate, privateKeyPEM: key)
        let server = Task {
            guard let tcp = try? await listener.accept(),
                let tls = try? await TLSConnection.accept(over: tcp, context: context, deadline: .now + .seconds(30))
            else { return }
            _ = try? await tls.read(maxBytes: 1, deadline: .now + .seconds(30))
            tls.close()
        }
        defer { server.cancel() }
        do {
            _ = try await Self.describe("127.0.0.63")
            Issue.record("a printer's certificate was taken for an Android TV's")
        } catch {
            #expect(error.kind == .badResponse && error.message.contains("not an Android TV"), "\(error)")
        }
        do {
            _ = try await Self.describe("127.0.0.64")
            Issue.record("nothing listens on 127.0.0.64")
        } catch {
            #expect(error.kind == .unreachable && error.message.contains("6467"), "\(error)")
        }
    }

    @Test("the MAC its mDNS TXT record bt gives and the one its certificate names make the same id")
    func sameIDTwoWays() async throws {
        var options = AndroidTVSimulatorOptions()
        (options.host, options.simPort, options.mdnsPort) = ("127.0.0.69", 0, 0)
        let tv = try await AndroidTVSimulator.start(options, log: CommandLog.memory())
        defer { Task { await tv.stop() } }
        let browser = DNSSDBrowser(
            queryAddress: try SocketAddress(ip: tv.host, port: try #require(tv.mdnsPort)), interfaces: [],
            services: [try DNSName("_androidtvremote2._tcp.local")], logger: .disabled)
        let found = Mutex<[DNSSDSighting]>([])
        // On a clock the test moves: the answer takes as long as the machine needs. Queries go
        // at 0 and 1 s: one lost datagram loses nothing.
        let clock = ManualClock()
        let browsing = Task {
            try await clock.run {
                try await browser.browse(count: 2, spacing: .seconds(1), window: .seconds(1)) { sighting in
                    found.withLock { $0.append(sighting) }
                }
            }
        }
        var answered = await waitUntil(timeout: .seconds(10)) { found.withLock { !$0.isEmpty } }
        if !answered {
            await clock.advance(to: .seconds(1))
            answered = await waitUntil(timeout: .seconds(30)) { found.withLock { !$0.isEmpty } }
        }
        #expect(answered, "the simulated TV did not answer the browse")
        await clock.advance(to: .seconds(2))
        try await browsing.value
        let first = found.withLock { $0.first }
        let bt = try #require(first?.text("bt"))
        let fromTXT = AndroidTVCertificateName.normalizedMAC(bt).flatMap(AndroidTVProbe.id(mac:))
        let described = try await Self.describe(tv.host)
        #expect(
            fromTXT != nil && fromTXT == described.identity.id, "TXT bt \(bt), certificate \(described.identity.id)")
    }
}
