import Harness

/// The least a client can do for a keypress, on the same simulator in the same run: Python's
/// standard library alone, blocking sockets, the request's bytes built once before the clock
/// starts (a Roku `POST /keypress/…` on a kept-alive connection; a Samsung key as a masked
/// WebSocket frame on the paired TLS channel). What it measures is the part of every client's
/// figure that no client can remove on this machine: the loopback, the two processes' wake-ups
/// and the simulator's own handling. `driver-latency` subtracts it from both clients' figures to
/// compare what each client adds (`…_overhead_ratio_…`). Python rather than C so that the
/// benchmark needs no compiler (the comparison with a C client is in README.md).
enum RawSocketFloor {
    /// What both scripts share: the arguments, and reading a socket until a marker arrives.
    static let prelude = """
        import os, sys, time
        host, port, count, warm = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
        def receive_until(connection, marker):
            received = b""
            while marker not in received:
                chunk = connection.recv(65536)
                if not chunk:
                    sys.exit("the TV closed the connection")
                received += chunk
        def frame(payload):
            mask = os.urandom(4)
            masked = bytes(byte ^ mask[index % 4] for index, byte in enumerate(payload))
            length = bytes([0x80 | len(payload)]) if len(payload) < 126 else bytes([0xFE]) + len(payload).to_bytes(2, "big")
            return bytes([0x81]) + length + mask + masked
        def send_timed(connection, frames):
            for index in range(warm):
                connection.sendall(frames[index % 2])
                time.sleep(0.003)
            time.sleep(0.2)
            print("START", repr(time.time()))
            sent = []
            for index in range(count):
                stamp = time.time()
                connection.sendall(frames[index % 2])
                sent.append(stamp)
                time.sleep(0.003)
            time.sleep(0.2)
            for stamp in sent:
                print("SENT", repr(stamp))

        """

    static let rokuScript = """
        import socket, time
        connection = socket.create_connection((host, port))
        connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        requests = [
            f"POST /keypress/{key} HTTP/1.1\\r\\nHost: {host}:{port}\\r\\nContent-Length: 0\\r\\n\\r\\n".encode()
            for key in ("Up", "Down")
        ]
        def press(request):
            connection.sendall(request)
            receive_until(connection, b"\\r\\n\\r\\n")
        for index in range(warm):
            press(requests[index % 2])
        samples = []
        for index in range(count):
            started = time.perf_counter()
            press(requests[index % 2])
            samples.append((time.perf_counter() - started) * 1000)
        samples.sort()
        print("SAMPLES", " ".join(repr(sample) for sample in samples))
        """

    static let samsungScript = """
        import base64, json, socket, ssl
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
        plain = socket.create_connection((host, port))
        plain.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        channel = context.wrap_socket(plain)
        name = base64.b64encode(b"tvbench-floor").decode()
        nonce = base64.b64encode(os.urandom(16)).decode()
        channel.sendall((
            f"GET /api/v2/channels/samsung.remote.control?name={name} HTTP/1.1\\r\\n"
            f"Host: {host}:{port}\\r\\nUpgrade: websocket\\r\\nConnection: Upgrade\\r\\n"
            f"Sec-WebSocket-Key: {nonce}\\r\\nSec-WebSocket-Version: 13\\r\\n\\r\\n").encode())
        receive_until(channel, b"ms.channel.connect")
        def key(name):
            return frame(json.dumps({"method": "ms.remote.control", "params": {
                "Cmd": "Click", "DataOfCmd": name, "Option": "false", "TypeOfRemote": "SendRemoteKey"}}).encode())
        send_timed(channel, [key("KEY_UP"), key("KEY_DOWN")])
        """

    /// Every Roku keypress in milliseconds, until the TV's HTTP answer.
    static func rokuSamples(host: String, port: UInt16, count: Int, warmUp: Int) async -> Result<[Double], BenchError> {
        await run(rokuScript, [host, String(port), String(count), String(warmUp)]).flatMap { output in
            let samples = PythonRokuECP.samples(in: output)
            return samples.isEmpty ? .failure(BenchError("no SAMPLES line")) : .success(samples)
        }
    }

    /// Every Samsung key in milliseconds, send until the simulator logs it.
    static func samsungSamples(_ tv: SamsungBenchTV, count: Int, warmUp: Int) async -> Result<[Double], BenchError> {
        await run(samsungScript, [tv.host, String(tv.simulator.portWSS), String(count), String(warmUp)]).flatMap {
            PythonSamsungTVWS.samples(tv, output: $0)
        }
    }

    static func run(_ script: String, _ arguments: [String]) async -> Result<String, BenchError> {
        guard let python = PythonRokuECP.interpreters().last else { return .failure(BenchError("no python3")) }
        do {
            let result = try await ChildProcess.run(
                python, ["-c", prelude + script] + arguments, timeout: .seconds(120))
            guard result.status.isSuccess else {
                return .failure(BenchError("raw-socket client: \(DriverLatency.tail(result))"))
            }
            return .success(result.output)
        } catch {
            return .failure(BenchError("raw-socket client: \(error)"))
        }
    }
}
