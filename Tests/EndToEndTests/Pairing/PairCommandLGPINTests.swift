import Harness
import TVSimulators
import TestSupport
import Testing
import Wire

/// `tv2mqtt pair HOST` with an LG TV that shows a PIN (`tvsim lg --pairing pin` in a process
/// of its own, LG's real ports on an address of its own): the PIN given with `--pin`, or typed when asked.
@Suite("tv2mqtt pair by PIN", .serialized)
struct PairCommandLGPINTests {
    let tv2mqtt = BuiltProducts.path("tv2mqtt")
    static let host = "127.0.0.127"
    static let pin = "97531864"

    func withLG(_ body: (TVSimProcess, TemporaryDirectory, [String]) async throws -> Void) async throws {
        // In a tvsim of its own (see TVSimProcess): the child's deadlines are real.
        let simulator = try await TVSimProcess.start(
            "lg", ["--host", Self.host, "--pairing", "pin", "--pin", Self.pin])
        do {
            let directory = try TemporaryDirectory(prefix: "pairpin")
            defer { directory.remove() }
            try FileText.write(
                #"{"tvs": [{"host": "\#(Self.host)", "kind": "lg"}]}"#, to: directory.file("config.json"))
            let arguments = [
                "pair", "--no-ssdp", "--no-mdns", "--config", directory.file("config.json"), "--state-dir",
                directory.file("state"),
            ]
            try await body(simulator, directory, arguments)
        } catch {
            await simulator.stop()
            throw error
        }
        await simulator.stop()
    }

    /// The client keys the simulated TV issued, from its `/sim/state` on the SSAP port.
    func clientKeys(_ simulator: TVSimProcess) async throws -> [String] {
        let state = try await simulator.simState()
        return (state["client_keys"]?.arrayValue ?? []).compactMap(\.stringValue)
    }

    @Test("--pin: exit 0, the client key saved, neither it nor the PIN printed; a malformed --pin refused")
    func givenPIN() async throws {
        try await withLG { simulator, directory, arguments in
            let malformed = try await ChildProcess.run(tv2mqtt, arguments + ["--pin", "12ab", Self.host])
            #expect(malformed.status != .exited(0))
            #expect(malformed.error.contains("1 to 12 digits"), "stderr: \(malformed.error)")
            let result = try await ChildProcess.run(tv2mqtt, arguments + ["--pin", Self.pin, Self.host])
            #expect(result.status == .exited(0), "stderr: \(result.error)")
            let key = try #require(try await clientKeys(simulator).first)
            #expect((FileText.read(directory.file("state/state.json")) ?? "").contains(key))
            let printed = result.output + result.error
            #expect(!printed.contains(key) && !printed.contains(Self.pin), "a secret was printed")
        }
    }

    @Test("without --pin: the command asks for the PIN the TV shows and reads it; a wrong one exits 1")
    func typedPIN() async throws {
        try await withLG { simulator, directory, arguments in
            try FileText.write("11112222\n", to: directory.file("wrong"))
            let wrong = try await ChildProcess.run(
                tv2mqtt, arguments + [Self.host], stdin: .file(directory.file("wrong")))
            #expect(wrong.status == .exited(1))
            #expect(wrong.error.contains("refused the PIN"), "stderr: \(wrong.error)")
            try FileText.write(" \(Self.pin)\n", to: directory.file("typed"))
            let result = try await ChildProcess.run(
                tv2mqtt, arguments + [Self.host], stdin: .file(directory.file("typed")))
            #expect(result.status == .exited(0), "stderr: \(result.error)")
            #expect(result.output.contains("shows a PIN"))
            #expect(try await clientKeys(simulator).count == 1)
        }
    }
}
