import Harness

/// aiowebostv (the library Home Assistant's `webostv` integration uses) pressing keys on the
/// same simulated LG, when it is installed (`~/.cache/tvbench-venv/bin/pip install aiowebostv`).
///
/// `WebOsClient.connect()` does what Home Assistant's does: hello, registration (the simulator
/// approves at once), the pointer input socket, the system and software readings and its
/// subscriptions; then `button(name)` writes `type:button` frames to the pointer socket. The
/// simulator refuses SSAP on 3000 (`LGBenchTV`), so aiowebostv falls back to wss on 3001 as on
/// newer TVs, with its SSL checks off (the TV's certificate is self-signed). A button has no
/// answer, so a key is timed from just before the call until the simulator logs it, paired in
/// order with its `button` stamps, as samsungtvws's keys are (`PythonSamsungTVWS`).
enum PythonAIOWebOSTV {
    static let script =
        PythonRokuECP.importing("from aiowebostv import WebOsClient") + """
            async def main():
                host, count, warm = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
                keys = ["UP", "DOWN"]
                client = WebOsClient(host, connect_timeout=10)
                await client.connect()
                for index in range(warm):
                    await client.button(keys[index % 2])
                    await asyncio.sleep(0.003)
                await asyncio.sleep(0.2)
                print("START", repr(time.time()))
                sent = []
                for index in range(count):
                    stamp = time.time()
                    await client.button(keys[index % 2])
                    sent.append(stamp)
                    await asyncio.sleep(0.003)
                await asyncio.sleep(0.2)
                for stamp in sent:
                    print("SENT", repr(stamp))
                await client.disconnect()
            asyncio.run(main())
            """

    /// Every send-to-receipt time in milliseconds, or why they could not be measured.
    static func keySamples(_ tv: LGBenchTV, count: Int, warmUp: Int) async -> Result<[Double], BenchError> {
        await PythonRokuECP.runReference(
            script, [tv.host, String(count), String(warmUp)],
            notInstalled: "not installed (pip install aiowebostv into ~/.cache/tvbench-venv)",
            done: { $0.contains("START ") }
        ).flatMap { PythonSamsungTVWS.samples(tv, output: $0) }
    }
}
