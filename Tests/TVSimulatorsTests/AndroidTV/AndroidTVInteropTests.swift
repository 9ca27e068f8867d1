import Harness
import TVSimulators
import TestSupport
import Testing
import Wire

/// The Python that has androidtvremote2 (Tests/install-deps.sh installs it when it can), or nil.
private func pythonWithAndroidTVRemote2() async -> String? {
    guard let result = try? await ChildProcess.run("python3", ["-c", "import androidtvremote2"]),
        result.status.isSuccess
    else { return nil }
    return "python3"
}

/// `Interop/atv_client.py`, found next to this file.
private let clientScript: String = {
    let file = #filePath
    return String(file[..<(file.lastIndex(of: "/") ?? file.endIndex)]) + "/Interop/atv_client.py"
}()

/// The simulated Android TV's faithfulness: androidtvremote2, the library Home Assistant's
/// `androidtv_remote` integration is built on (an independent implementation of both
/// protocols), pairs with it, is refused before pairing, and drives it.
@Suite(
    "Android TV simulator against androidtvremote2",
    .enabled(
        "androidtvremote2 is not importable (python3 -m pip install androidtvremote2, or Tests/install-deps.sh)",
        { await pythonWithAndroidTVRemote2() != nil }), .takesTurns)
struct AndroidTVInteropTests {
    @Test("refused unpaired, paired by the code on screen, then a key, an app link, text, volume and standby")
    func pairAndDrive() async throws {
        var options = AndroidTVSimulatorOptions()
        options.host = "127.0.0.9"
        (options.remotePort, options.pairingPort, options.simPort) = (0, 0, 0)
        let log = CommandLog.memory()
        let tv = try await AndroidTVSimulator.start(options, log: log)
        let directory = try TemporaryDirectory(prefix: "atv-interop")
        defer { directory.remove() }
        let result: CommandResult
        do {
            result = try await ChildProcess.run(
                "python3",
                [
                    clientScript, tv.host, "\(tv.remotePort)", "\(tv.pairingPort)", "\(tv.simPort)",
                    directory.path,
                ], timeout: .seconds(120))
        } catch {
            await tv.stop()
            throw error
        }
        await tv.stop()
        let events = result.output.split(separator: "\n").compactMap { line -> [String: JSONValue]? in
            guard case .object(let fields)? = try? JSONParser.parse(Array(line.utf8)) else { return nil }
            return fields
        }
        let names = events.compactMap { $0["event"]?.stringValue }
        #expect(
            names == [
                "identity", "unpaired_refused", "code_shown", "paired", "state", "app", "volume_key",
                "volume_pushed", "standby", "done",
            ], "\(result.error)")
        let event = { (name: String) in events.first { $0["event"] == .string(name) } }
        let identity = event("identity")
        #expect(identity?["name"] == .string("Living Room TV") && identity?["mac"] == .string(tv.mac))
        #expect(event("unpaired_refused")?["error"] == .string("InvalidAuth"))
        let state = event("state")
        #expect(state?["is_on"] == .bool(true))
        #expect(state?["app"] == .string(AndroidTVSimState.launcher))
        #expect(state?["volume"] == .object(["level": .integer(12), "max": .integer(100), "muted": .bool(false)]))
        #expect(state?["device"]?["manufacturer"] == .string("Sony"))

        let entries = log.entries
        let of = { (kind: String) in entries.filter { $0["kind"] == .string(kind) } }
        let keys = of("key").compactMap { $0["code"]?.intValue }
        let links = of("app_link").compactMap { $0["link"]?.stringValue }
        let texts = of("text").compactMap { $0["text"]?.stringValue }
        #expect(keys == [3, 24], "HOME, then VOLUME_UP")
        #expect(links == ["https://www.netflix.com/title/80057281"])
        #expect(texts == ["hello"])
        let pairing = of("pairing").compactMap { $0["action"]?.stringValue }
        #expect(pairing == ["request", "code_shown", "paired"])
        #expect(tv.pairedClients == 1)
    }
}
