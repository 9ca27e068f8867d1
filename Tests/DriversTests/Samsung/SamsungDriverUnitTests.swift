import Clients
import TVModel
import Testing

@testable import Drivers

/// The driver's parts that need no TV: validation, pins, failure mapping.
@Suite("Samsung driver, without a TV")
struct SamsungDriverUnitTests {
    /// A driver for an address nothing answers on; validation never touches the network.
    func driver(apps: [String: String] = ["Netflix": "3201907018807"]) -> SamsungDriver {
        let identity = TVIdentity(
            id: TVID(kind: .samsung, hardwareID: "unit")!, kind: .samsung, name: "Unit", manufacturer: "Samsung",
            host: "127.0.0.1", port: 1)
        let description = TVDescription(
            identity: identity, capabilities: TVCapabilities(power: true),
            apps: [TVApp(id: "111299001912", name: "YouTube")])
        var samsung = SamsungSettings()
        samsung.apps = apps
        return SamsungDriver(description: description, settings: DriverSettings(wolTargets: []), samsung: samsung)
    }

    func rejection(_ driver: SamsungDriver, _ command: TVCommand) -> CommandRejection? {
        do {
            _ = try driver.plan(command)
            return nil
        } catch {
            return error
        }
    }

    @Test("blocked and unknown keys, oversize text and bad volumes are refused before anything is sent")
    func refusals() async {
        let driver = driver()
        let factory = rejection(driver, .key(.vendor("KEY_FACTORY"), repeat: 1))
        #expect(factory?.message.contains("factory service menu") == true)
        let power = rejection(driver, .key(.vendor("KEY_POWER"), repeat: 1))
        #expect(power?.message.contains("power command") == true)
        let text = rejection(driver, .text(String(repeating: "a", count: 256)))
        #expect(text != nil)
        let volume = rejection(driver, .volume(101))
        #expect(volume != nil)
        let input = rejection(driver, .input("HDMI9"))
        #expect(input != nil)
        let app = rejection(driver, .app("Nonexistent"))
        #expect(app?.message.contains("samsung.apps") == true)
        let launch = rejection(driver, .launch(appID: "../x", contentID: nil, mediaType: nil))
        #expect(launch != nil)
        await driver.shutdown()
    }

    @Test("apps are known by name (any case) or id, from the description or the configured map")
    func apps() async throws {
        let driver = driver()
        let byName = try driver.resolveApp("netflix")
        #expect(byName.id == "3201907018807")
        let byID = try driver.resolveApp("111299001912")
        #expect(byID.id == "111299001912")
        let accepted = rejection(driver, .app("YouTube"))
        #expect(accepted == nil)
        let key = rejection(driver, .key(.shared(.home), repeat: 3))
        #expect(key == nil)
        await driver.shutdown()
    }

    @Test("a perform of a refused command fails as rejected without connecting")
    func performRefused() async {
        let driver = driver()
        var kind: DriverError.Kind?
        do {
            try await driver.perform(.key(.vendor("KEY_FACTORY"), repeat: 1))
        } catch {
            kind = error.kind
        }
        #expect(kind == .rejected)
        await driver.shutdown()
    }

    @Test("pins read as hex in either spelling; anything else is no pin")
    func pinBytes() {
        let upper = SamsungChannel.bytes(hex: "AB:CD:01")
        #expect(upper == [0xAB, 0xCD, 0x01])
        let lower = SamsungChannel.bytes(hex: "abcd01")
        #expect(lower == [0xAB, 0xCD, 0x01])
        let odd = SamsungChannel.bytes(hex: "abc")
        #expect(odd == nil)
        let junk = SamsungChannel.bytes(hex: "zz")
        #expect(junk == nil)
    }

    @Test("WebSocket failures map to what the session acts on; a certificate change never falls back to 8001")
    func failures() {
        let refused = SamsungChannel.failure(WebSocketError(.connect, "x: cannot connect: Connection refused"))
        #expect(refused == .refused)
        let timeout = SamsungChannel.failure(WebSocketError(.timeout, "x"))
        #expect(timeout == .timedOut)
        let upgrade = SamsungChannel.failure(WebSocketError(.handshake, "x", status: 403))
        #expect(upgrade == .upgradeRejected(403))
        let changed = SamsungChannel.failure(WebSocketError(.certificateChanged, "x"))
        #expect(changed == .unreachable("x"))
    }

    @Test("a poll of a TV that does not answer is unreachable and never throws")
    func unreachablePoll() async {
        let driver = driver()
        let snapshot = await driver.poll(full: true)
        #expect(snapshot.reachable == false)
        #expect(snapshot.power == false)
        #expect(snapshot.pairingRequired == false)
        await driver.shutdown()
    }
}
