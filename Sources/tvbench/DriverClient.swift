import Clients
import Drivers
import Glibc
import Net
import Support
import TVModel
import TVSimulators
import Wire

/// `tvbench driver-client roku|samsung|lg|androidtv HOST PORT COUNT WARMUP`: our driver pressing keys on a
/// simulated TV, in a process of its own, printing what the Python reference scripts print
/// (`SAMPLES <ms> …` for a Roku; `START`/`SENT <wall-clock s>` lines for a Samsung). `driver-latency`
/// runs it beside the simulator exactly as it runs python-rokuecp and samsungtvws: both clients
/// outside the benchmark's process, so neither shares the simulator's threads (ours used to run
/// inside it, competing with the simulator for Swift's two pool threads on this machine).
enum DriverClient {
    static let usage = "driver-client roku|samsung|lg|androidtv HOST PORT COUNT WARMUP"

    static func main(_ arguments: [String]) async -> Never {
        guard arguments.count == 5, let port = UInt16(arguments[2]), let count = Int(arguments[3]),
            let warmUp = Int(arguments[4]), count > 0, warmUp >= 0
        else { fail("usage: tvbench \(usage)") }
        let host = arguments[1]
        do {
            switch arguments[0] {
            case "roku": try await roku(host: host, port: port, count: count, warmUp: warmUp)
            case "samsung": try await samsung(host: host, port: port, count: count, warmUp: warmUp)
            case "lg": try await lg(host: host, port: port, count: count, warmUp: warmUp)
            case "androidtv": try await androidTV(host: host, port: port, count: count, warmUp: warmUp)
            default: fail("usage: tvbench \(usage)")
            }
        } catch {
            fail("driver-client: \(error)")
        }
        exit(0)
    }

    static let keys = [TVKey("up"), TVKey("down")]

    /// Times `RokuDriver.perform` until the TV's HTTP answer, like the python-rokuecp script.
    private static func roku(host: String, port: UInt16, count: Int, warmUp: Int) async throws {
        let settings = DriverSettings(wolTargets: [], logger: .disabled)
        let description = try await RokuProbe.describe(host: host, port: port, settings: settings)
        let driver = RokuDriver(description: description, settings: settings, roku: RokuSettings())
        for index in 0..<warmUp { try await driver.perform(.key(keys[index % 2], repeat: 1)) }
        let clock = ContinuousClock()
        var samples: [Double] = []
        samples.reserveCapacity(count)
        for index in 0..<count {
            let started = clock.now
            try await driver.perform(.key(keys[index % 2], repeat: 1))
            samples.append((clock.now - started).fractionalMilliseconds)
        }
        await driver.shutdown()
        samples.sort()
        print("SAMPLES", samples.map { String($0) }.joined(separator: " "))
    }

    /// Stamps each `SamsungDriver.perform` call, 3 ms apart, like the samsungtvws script; the
    /// benchmark pairs the stamps with the simulator's. The warm-up opens the TLS channel and
    /// pairs (the simulator approves at once).
    private static func samsung(host: String, port: UInt16, count: Int, warmUp: Int) async throws {
        let settings = DriverSettings(wolTargets: [], logger: .disabled)
        // No configured apps: the driver presses keys, it never looks one up.
        var samsung = SamsungSettings()
        samsung.apps = [:]
        let description = try await SamsungProbe.describe(
            host: host, port: port, settings: settings, inputs: samsung.inputs)
        try await stampKeys(
            SamsungDriver(description: description, settings: settings, samsung: samsung), count: count, warmUp: warmUp)
    }

    /// The same for an LG (as aiowebostv's script): the warm-up connects over TLS, pairs (the
    /// simulator approves at once) and opens the pointer socket.
    private static func lg(host: String, port: UInt16, count: Int, warmUp: Int) async throws {
        let factory = VendorDriverFactory(
            vendors: [.lg], settings: DriverSettings(wolTargets: [], logger: .disabled), sections: VendorSettingsBag())
        let description = try await factory.probe(host: host, kind: .lg, port: port)
        try await stampKeys(factory.makeDriver(for: description, secrets: TVSecrets()), count: count, warmUp: warmUp)
    }

    /// The same for an Android TV (as androidtvremote2's script): pairing with the code the
    /// simulated screen shows (its /sim/state, on the simulator's default port), then the
    /// warm-up opens the remote session.
    private static func androidTV(host: String, port: UInt16, count: Int, warmUp: Int) async throws {
        let factory = VendorDriverFactory(
            vendors: [.androidTV], settings: DriverSettings(wolTargets: [], logger: .disabled),
            sections: VendorSettingsBag())
        let description = try await factory.probe(host: host, kind: .androidtv, port: port)
        let driver = factory.makeDriver(for: description, secrets: TVSecrets())
        do {
            try await driver.pair()
        } catch  where error.kind == .pinRequired {
            let state = try await HTTPClient(host: host, port: AndroidTVSimulatorOptions().simPort).request(
                "GET", "/sim/state")
            guard let code = try JSONParser.parse(state.body)["code"]?.stringValue else {
                throw BenchError("the simulated TV shows no code")
            }
            try await driver.pair(pin: code)
        }
        try await stampKeys(driver, count: count, warmUp: warmUp)
    }

    private static func stampKeys(_ driver: any TVDriver, count: Int, warmUp: Int) async throws {
        let draining = Task { for await _ in driver.events {} }  // tokens and pins: not needed here
        for index in 0..<warmUp {
            try await driver.perform(.key(keys[index % 2], repeat: 1))
            try await EventLoop.sleep(for: .milliseconds(3))
        }
        try await EventLoop.sleep(for: .milliseconds(200))
        print("START", wallClockSeconds())
        var sent: [Double] = []
        sent.reserveCapacity(count)
        for index in 0..<count {
            let stamp = wallClockSeconds()
            try await driver.perform(.key(keys[index % 2], repeat: 1))
            sent.append(stamp)
            try await EventLoop.sleep(for: .milliseconds(3))
        }
        try await EventLoop.sleep(for: .milliseconds(200))
        for stamp in sent { print("SENT", stamp) }
        await driver.shutdown()
        draining.cancel()
    }
}
