import Glibc
import Harness
import TestSupport
import Testing

/// The `tv2mqtt` executable as users run it (README › Command line).
@Suite("tv2mqtt command line")
struct CommandLineTests {
    let tv2mqtt = BuiltProducts.path("tv2mqtt")

    @Test("version prints the version; --help lists the commands; run --help lists the flags")
    func versionAndHelp() async throws {
        let version = try await ChildProcess.run(tv2mqtt, ["version"])
        #expect(version.status == .exited(0))
        #expect(version.output.hasPrefix("tv2mqtt "))
        let help = try await ChildProcess.run(tv2mqtt, ["--help"])
        #expect(help.status == .exited(0))
        for command in ["run", "discover", "pair", "send", "check-config", "version"] {
            #expect(help.output.contains("  \(command) "))
        }
        let runHelp = try await ChildProcess.run(tv2mqtt, ["run", "--help"])
        #expect(runHelp.status == .exited(0))
        for flag in [
            "--mqtt-server", "--mqtt-password-file", "--base-topic", "--tv", "--no-ssdp", "--scan", "--poll-interval",
        ] {
            #expect(runHelp.output.contains(flag))
        }
    }

    @Test(
        "mistakes end with a one-line error naming the flag or key, and exit code 2",
        arguments: [
            (["run", "--frobnicate"], "unknown flag '--frobnicate'"),
            (["run", "--poll-interval", "soon"], "--poll-interval"),
            (["run", "--log-level", "loud"], "--log-level"),
            (["run", "--mqtt-server", "http://x"], "--mqtt-server"),
            (["teleport"], "unknown command 'teleport'"),
            (["send", "tv"], "send needs [TV] COMMAND [ARG]: 'tv' is not a command"),
        ])
    func usageErrors(arguments: [String], expected: String) async throws {
        let result = try await ChildProcess.run(tv2mqtt, arguments)
        #expect(result.status == .exited(2))
        #expect(result.error.contains(expected), "stderr: \(result.error)")
        #expect(result.error.split(separator: "\n").count == 1)
    }

    @Test("check-config prints the effective configuration with the password masked; a typo is named")
    func checkConfig() async throws {
        let directory = try TemporaryDirectory(prefix: "check-config")
        defer { directory.remove() }
        try FileText.write(
            #"{"mqtt": {"user": "tv", "password": "Sup3r-Secret"}, "poll_interval": 5}"#,
            to: directory.file("config.json"))
        let result = try await ChildProcess.run(tv2mqtt, ["check-config", "--config", directory.file("config.json")])
        #expect(result.status == .exited(0))
        #expect(result.output.contains("\"password\": \"***\""))
        #expect(result.output.contains("\"poll_interval\": 5"))
        #expect(!result.output.contains("Sup3r-Secret") && !result.error.contains("Sup3r-Secret"))
        try FileText.write(#"{"mqtt": {"pasword": "x"}}"#, to: directory.file("typo.json"))
        let typo = try await ChildProcess.run(tv2mqtt, ["check-config", "--config", directory.file("typo.json")])
        #expect(typo.status == .exited(2))
        #expect(typo.error.contains("unknown key 'mqtt.pasword'"))
    }

    @Test("run says online, and offline on SIGTERM even when started with SIGTERM blocked; exit 0")
    func runAndSignals() async throws {
        try await withMosquitto { broker in
            let directory = try TemporaryDirectory(prefix: "run")
            defer { directory.remove() }
            let subscriber = try await MosquittoClients.startSubscriber(
                to: broker.endpoint(), topics: ["tv2mqtt/bridge/state"])
            try await subscriber.waitUntilSubscribed(on: broker)
            // exec keeps the blocked signal mask: the daemon must unblock SIGTERM itself.
            let blocker =
                "import os, signal, sys; signal.pthread_sigmask(signal.SIG_BLOCK, [signal.SIGTERM, signal.SIGINT]); os.execv(sys.argv[1], sys.argv[1:])"
            let bridge = try await ChildProcess.spawn(
                "python3",
                [
                    "-c", blocker, tv2mqtt, "run", "--mqtt-server", broker.url, "--no-ssdp", "--no-mdns", "--state-dir",
                    directory.path,
                ],
                stdout: .capture, stderr: .capture)
            #expect(
                await subscriber.waitForLines(count: 1, timeout: .seconds(30)).last == "tv2mqtt/bridge/state online")
            bridge.signal(SIGTERM)
            #expect(await bridge.wait(timeout: .seconds(30)) == .exited(0), "stderr: \(bridge.capturedError())")
            #expect(
                await subscriber.waitForLines(count: 2, timeout: .seconds(30)).last == "tv2mqtt/bridge/state offline")
            #expect(
                broker.logText().contains("Client tv2mqtt disconnected."),
                "a clean DISCONNECT, not a dropped connection")
            await subscriber.stop()
        }
    }

    @Test("kill -9 leaves the broker to publish the will: offline, retained")
    func willOnCrash() async throws {
        try await withMosquitto { broker in
            let directory = try TemporaryDirectory(prefix: "crash")
            defer { directory.remove() }
            let bridge = try await ChildProcess.spawn(
                tv2mqtt, ["run", "--mqtt-server", broker.url, "--no-ssdp", "--no-mdns", "--state-dir", directory.path],
                stdout: .discard, stderr: .capture)
            let online = try await MosquittoClients.subscribe(
                to: broker.endpoint(), topic: "tv2mqtt/bridge/state", count: 1, timeout: .seconds(30))
            #expect(online == ["tv2mqtt/bridge/state online"])
            bridge.kill()
            _ = await bridge.wait()
            let offlineRetained = await waitUntil(timeout: .seconds(30)) {
                let retained = try? await MosquittoClients.subscribe(
                    to: broker.endpoint(), topic: "tv2mqtt/bridge/state", count: 1, timeout: .seconds(2))
                return retained == ["tv2mqtt/bridge/state offline"]
            }
            #expect(offlineRetained)
        }
    }
}
