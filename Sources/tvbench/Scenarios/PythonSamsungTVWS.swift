import Harness

/// samsungtvws (the library Home Assistant's Samsung integration uses, `SamsungTVWSAsyncRemote`
/// over TLS on 8002) pressing keys on the same simulator, when it is installed with its async
/// extra (`~/.cache/tvbench-venv/bin/pip install samsungtvws websockets`).
///
/// A key is a WebSocket message with no answer, so a key is timed from just before the call
/// until the simulator logs it: the script prints the wall-clock time of each send, and the
/// benchmark pairs them in order with the simulator's `remote_key` stamps (one connection keeps
/// the order). `key_press_delay=0`: the library's default 1 s pause after a key is not the
/// client's speed. Its SSL context skips certificate checks, as the TV's certificate is
/// self-signed.
enum PythonSamsungTVWS {
    static let script =
        PythonRokuECP.importing(
            "from samsungtvws.async_remote import SamsungTVWSAsyncRemote\nfrom samsungtvws.remote import SendRemoteKey"
        ) + """
            async def main():
                host, port, count, warm = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
                keys = ["KEY_UP", "KEY_DOWN"]
                remote = SamsungTVWSAsyncRemote(host=host, port=port, key_press_delay=0, name="tvbench", timeout=10)
                await remote.start_listening()
                for index in range(warm):
                    await remote.send_commands([SendRemoteKey.click(keys[index % 2])])
                    await asyncio.sleep(0.003)
                await asyncio.sleep(0.2)
                print("START", repr(time.time()))
                for index in range(count):
                    sent = time.time()
                    await remote.send_commands([SendRemoteKey.click(keys[index % 2])])
                    print("SENT", repr(sent))
                    await asyncio.sleep(0.003)
                await asyncio.sleep(0.2)
                await remote.close()
            asyncio.run(main())
            """

    /// Every send-to-receipt time in milliseconds, or why they could not be measured.
    static func keySamples(_ tv: SamsungBenchTV, count: Int, warmUp: Int) async -> Result<[Double], BenchError> {
        await PythonRokuECP.runReference(
            script, [tv.host, String(tv.simulator.portWSS), String(count), String(warmUp)],
            notInstalled: "not installed (pip install samsungtvws websockets into ~/.cache/tvbench-venv)",
            done: { $0.contains("START ") }
        ).flatMap { samples(tv, output: $0) }
    }

    /// The send → logged times in milliseconds from a client's `START`/`SENT` lines (this
    /// script, aiowebostv's, or `tvbench driver-client samsung|lg`), paired in order with the
    /// simulator's stamps.
    static func samples(_ tv: some KeyStamping, output: String) -> Result<[Double], BenchError> {
        let lines = output.split(separator: "\n")
        let start = lines.first { $0.hasPrefix("START ") }.flatMap { Double($0.dropFirst(6)) }
        let sent = lines.filter { $0.hasPrefix("SENT ") }.compactMap { Double($0.dropFirst(5)) }
        guard let start, !sent.isEmpty else { return .failure(BenchError("no START or SENT line")) }
        let received = tv.keyStamps(since: start)
        guard received.count == sent.count else {
            return .failure(BenchError("\(sent.count) keys sent, \(received.count) received"))
        }
        return .success(zip(sent, received).map { ($1 - $0) * 1000 })
    }
}
