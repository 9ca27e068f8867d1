import Glibc
import Harness
import TVSimulators
import TestSupport
import Testing

/// Who can control the TVs, and what the bridge lets out (issue 7, security): `tv2mqtt run` as
/// a process against a mosquitto that requires passwords and enforces the example ACL the
/// README recommends, and against a TLS listener whose CA the bridge was not told about.
@Suite("Security: broker access control, secrets, TLS verification")
struct SecurityTests {
    static func random() -> String { String(UInt64.random(in: 1...UInt64.max), radix: 36) }

    @Test(
        "with examples/mosquitto/acl only Home Assistant's user controls a TV; the bridge's password is in no log, message or bridge/info"
    )
    func exampleACL() async throws {
        let directory = try TemporaryDirectory(prefix: "security-acl")
        defer { directory.remove() }
        let secret = "Pw-" + Self.random()
        let users = [
            "tv2mqtt": secret, "homeassistant": "ha-" + Self.random(), "viewer": "view-" + Self.random(),
            "stranger": "str-" + Self.random(), "auditor": "audit-" + Self.random(),
        ]
        // The example as shipped, plus an auditor who reads everything (to see all the bridge publishes).
        let example = try #require(FileText.read(ExampleConfigTests.root + "/examples/mosquitto/acl"))
        try FileText.write(example + "\nuser auditor\ntopic read #\n", to: directory.file("acl"))
        try FileText.write(secret + "\n", to: directory.file("password"))
        let options = MosquittoOptions(
            allowAnonymous: false, users: users, extraConfig: ["acl_file \(directory.file("acl"))"])
        try await withMosquitto(options) { broker in
            func endpoint(_ user: String) -> MQTTEndpoint { broker.endpoint(username: user, password: users[user]) }
            let log = CommandLog.memory()
            let tv = try await RokuSimulator.start(RokuSimulatorOptions(host: "127.0.0.1", port: 0), log: log)
            let id = "roku_" + tv.serial.lowercased()
            let everything = try await MosquittoClients.startSubscriber(to: endpoint("auditor"), topics: ["#"])
            let viewer = try await MosquittoClients.startSubscriber(to: endpoint("viewer"), topics: ["#"])
            var bridge: ChildProcess?
            do {
                try await everything.waitUntilSubscribed(on: broker)
                try await viewer.waitUntilSubscribed(on: broker)
                let process = try await FaultBridgeProcess.start([
                    "--mqtt-server", broker.url, "--mqtt-user", "tv2mqtt", "--mqtt-password-file",
                    directory.file("password"), "--no-ssdp", "--no-mdns", "--state-dir", directory.file("state"),
                    "--log-level",
                    "debug", "--tv", "roku:127.0.0.1:\(tv.port)", "--wol-target", "127.0.0.1:9",
                ])
                bridge = process
                let stateTopic = "tv2mqtt/\(id)/state "
                let published = await waitUntil(timeout: .seconds(30)) {
                    everything.lines().contains { $0.hasPrefix(stateTopic) }
                        && everything.lines().contains { $0.hasPrefix("tv2mqtt/bridge/info ") }
                }
                try #require(published, "bridge stderr: \(process.capturedError())")

                // Commands from a user the ACL does not name, from the read-only viewer, then
                // from Home Assistant. Mosquitto handles them in this order and acknowledges
                // all three (MQTT 3.1.1 has no way to say "denied"); only the last may arrive.
                try await MosquittoClients.publish(
                    to: endpoint("stranger"), topic: "tv2mqtt/\(id)/set/key", message: "Home", qos: 1)
                try await MosquittoClients.publish(
                    to: endpoint("viewer"), topic: "tv2mqtt/\(id)/set", message: #"{"key":"Back"}"#, qos: 1)
                try await MosquittoClients.publish(
                    to: endpoint("homeassistant"), topic: "tv2mqtt/\(id)/set/key", message: "Select", qos: 1)
                let selected = await log.waitFor(timeout: .seconds(30)) { $0["key"] == "Select" }
                #expect(selected != nil, "Home Assistant's command did not reach the TV: \(log.entries)")
                let keys = log.entries.compactMap { $0["key"]?.stringValue }
                #expect(keys == ["Select"], "keys the TV received: \(keys)")
                #expect(broker.logText().components(separatedBy: "Denied PUBLISH").count - 1 >= 2)
                // Without a password nothing gets in at all.
                await #expect(throws: HarnessError.self) {
                    try await MosquittoClients.publish(
                        to: broker.endpoint(), topic: "tv2mqtt/\(id)/set/key", message: "Home", qos: 1)
                }

                // The viewer reads state and availability, and nothing else.
                let viewerSawState = viewer.lines().contains { $0.hasPrefix(stateTopic) }
                #expect(viewerSawState)
                let beyond = viewer.lines().filter {
                    !($0.hasPrefix(stateTopic) || $0.hasPrefix("tv2mqtt/\(id)/availability ")
                        || $0.hasPrefix("tv2mqtt/bridge/state "))
                }
                #expect(beyond.isEmpty, "the viewer read \(beyond)")

                // The password: not published (bridge/info shows "***"), not logged at debug level.
                let info = everything.lines().first { $0.hasPrefix("tv2mqtt/bridge/info ") } ?? ""
                #expect(info.contains(#""password":"***""#), "bridge/info: \(info)")
                let leaked = everything.lines().filter { $0.contains(secret) }
                #expect(leaked.isEmpty, "the password was published: \(leaked)")
                let stderr = process.capturedError()
                #expect(stderr.contains("DEBUG") || stderr.contains("debug"), "debug logging was on")
                #expect(!stderr.contains(secret), "the password is in the log")
            } catch {
                print("tv2mqtt stderr:\n\(bridge?.capturedError() ?? "")")
                await Self.stop(bridge, [everything, viewer], tv)
                throw error
            }
            await Self.stop(bridge, [everything, viewer], tv)
        }
    }

    @Test("a wrong broker password is refused with a clear log line that does not show it; the bridge retries")
    func wrongPassword() async throws {
        let directory = try TemporaryDirectory(prefix: "security-password")
        defer { directory.remove() }
        let wrong = "Wrong-" + Self.random()
        try FileText.write(wrong, to: directory.file("password"))
        let options = MosquittoOptions(allowAnonymous: false, users: ["tv2mqtt": "right-" + Self.random()])
        try await withMosquitto(options) { broker in
            let bridge = try await FaultBridgeProcess.start([
                "--mqtt-server", broker.url, "--mqtt-user", "tv2mqtt", "--mqtt-password-file",
                directory.file("password"), "--no-ssdp", "--no-mdns", "--state-dir", directory.file("state"),
                "--log-level", "debug",
            ])
            let refusedTwice = await waitUntil(timeout: .seconds(30)) {
                bridge.capturedError().components(separatedBy: "refused the connection").count - 1 >= 2
            }
            let stderr = bridge.capturedError()
            await bridge.terminate(grace: .seconds(5))
            #expect(refusedTwice, "stderr: \(stderr)")
            #expect(stderr.contains("not authorized") || stderr.contains("bad user name or password"), "\(stderr)")
            #expect(!stderr.contains(wrong), "the password is in the log")
        }
    }

    @Test("mqtts:// verifies the broker's certificate unless told otherwise: refused without its CA, online with it")
    func brokerTLSVerifiedByDefault() async throws {
        let directory = try TemporaryDirectory(prefix: "security-tls")
        defer { directory.remove() }
        let authority = try await TestCertificates.makeAuthority(in: directory)
        let server = try await TestCertificates.makeServerCertificate(signedBy: authority)
        let options = MosquittoOptions(tls: MosquittoTLS(authority: authority, server: server))
        try await withMosquitto(options) { broker in
            let tlsURL = try #require(broker.tlsURL)
            let subscriber = try await MosquittoClients.startSubscriber(
                to: broker.endpoint(), topics: ["tv2mqtt/bridge/state"])
            try await subscriber.waitUntilSubscribed(on: broker)
            // No `ca`: the system's trust store, which does not know this test CA.
            let untrusting = try await FaultBridgeProcess.start([
                "--mqtt-server", tlsURL, "--no-ssdp", "--no-mdns", "--state-dir", directory.file("state-1"),
            ])
            let refused = await waitUntil(timeout: .seconds(30)) {
                untrusting.capturedError().contains("certificate verify failed")
            }
            let refusal = untrusting.capturedError()
            await untrusting.terminate(grace: .seconds(5))
            #expect(refused, "stderr: \(refusal)")
            #expect(!subscriber.lines().contains("tv2mqtt/bridge/state online"))

            try FileText.write(
                #"{"mqtt": {"server": "\#(tlsURL)", "ca": "\#(authority.certPath)"}}"#,
                to: directory.file("config.json"))
            let trusting = try await FaultBridgeProcess.start([
                "--config", directory.file("config.json"), "--no-ssdp", "--no-mdns", "--state-dir",
                directory.file("state-2"),
            ])
            let online = await subscriber.waitForLines(count: 1, timeout: .seconds(30))
            let stderr = trusting.capturedError()
            await trusting.terminate(grace: .seconds(5))
            await subscriber.stop()
            #expect(online.first == "tv2mqtt/bridge/state online", "stderr: \(stderr)")
        }
    }

    static func stop(_ bridge: ChildProcess?, _ subscribers: [MosquittoSubscriber], _ tv: RokuSimulator) async {
        if let bridge { await bridge.terminate(grace: .seconds(5)) }
        for subscriber in subscribers { await subscriber.stop() }
        await tv.stop()
    }
}
