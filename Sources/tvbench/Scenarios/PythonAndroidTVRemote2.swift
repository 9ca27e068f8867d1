import Harness

/// androidtvremote2 (the library Home Assistant's `androidtv_remote` integration uses) pressing
/// keys on the same simulated Android TV, when it is installed (`Tests/install-deps.sh` puts it
/// beside python3). Its warm-up pairs (the code read from /sim/state) and connects, as Home
/// Assistant's config flow and setup do; then `send_key_command` writes each key to the remote
/// session. A key has no answer, so it is timed from just before the call until the simulator
/// logs it, paired in order with its stamps, as samsungtvws's keys are (`PythonSamsungTVWS`).
enum PythonAndroidTVRemote2 {
    /// Pairing with the code the simulated screen shows, for this script and the floor's.
    static let pairing = """
        import json, os, tempfile, urllib.request
        async def pair(host, sim_port):
            directory = tempfile.mkdtemp()
            cert, key = os.path.join(directory, "cert.pem"), os.path.join(directory, "key.pem")
            remote = AndroidTVRemote("tvbench", cert, key, host)
            await remote.async_generate_cert_if_missing()
            await remote.async_start_pairing()
            with urllib.request.urlopen(f"http://{host}:{sim_port}/sim/state") as answer:
                code = json.load(answer)["code"]
            await remote.async_finish_pairing(code)
            return remote, cert, key

        """

    static let script =
        PythonRokuECP.importing("from androidtvremote2 import AndroidTVRemote") + pairing + """
            async def main():
                host, count, warm, sim_port = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
                keys = ["DPAD_UP", "DPAD_DOWN"]
                remote, _, _ = await pair(host, sim_port)
                await remote.async_connect()
                for index in range(warm):
                    remote.send_key_command(keys[index % 2])
                    await asyncio.sleep(0.003)
                await asyncio.sleep(0.2)
                print("START", repr(time.time()))
                sent = []
                for index in range(count):
                    stamp = time.time()
                    remote.send_key_command(keys[index % 2])
                    sent.append(stamp)
                    await asyncio.sleep(0.003)
                await asyncio.sleep(0.2)
                for stamp in sent:
                    print("SENT", repr(stamp))
                remote.disconnect()
            asyncio.run(main())
            """

    /// Every send-to-receipt time in milliseconds, or why they could not be measured.
    static func keySamples(_ tv: AndroidTVBenchTV, count: Int, warmUp: Int) async -> Result<[Double], BenchError> {
        await PythonRokuECP.runReference(
            script, [tv.host, String(count), String(warmUp), String(tv.simPort)],
            notInstalled: "not installed (pip install androidtvremote2==0.3.2)",
            done: { $0.contains("START ") }
        ).flatMap { PythonSamsungTVWS.samples(tv, output: $0) }
    }
}
