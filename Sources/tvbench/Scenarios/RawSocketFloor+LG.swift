import Harness

/// The LG floor (see `RawSocketFloor`): Python's standard library registers once over TLS on
/// 3001 (the simulator approves at once), asks for the pointer input socket, opens it, and then
/// times each key as one masked `type:button` frame written to it, send until the simulator
/// logs it, with the aiowebostv script's pacing and pairing of stamps.
extension RawSocketFloor {
    static let lgScript = """
        import base64, json, socket, ssl
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
        def open_socket(path):
            plain = socket.create_connection((host, port))
            plain.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            tls = context.wrap_socket(plain)
            nonce = base64.b64encode(os.urandom(16)).decode()
            tls.sendall((
                f"GET {path} HTTP/1.1\\r\\nHost: {host}:{port}\\r\\nUpgrade: websocket\\r\\n"
                f"Connection: Upgrade\\r\\nSec-WebSocket-Key: {nonce}\\r\\nSec-WebSocket-Version: 13\\r\\n\\r\\n").encode())
            receive_until(tls, b"\\r\\n\\r\\n")
            return tls
        main = open_socket("/")
        main.sendall(frame(json.dumps({"type": "register", "id": "register_0", "payload": {
            "forcePairing": False, "pairingType": "PROMPT", "manifest": {"manifestVersion": 1}}}).encode()))
        receive_until(main, b"client-key")
        main.sendall(frame(json.dumps({"type": "request", "id": "pointer",
            "uri": "ssap://com.webos.service.networkinput/getPointerInputSocket"}).encode()))
        answer = b""
        while b"netinput.pointer.sock" not in answer:
            answer += main.recv(65536)
        text = answer.decode("utf-8", "replace")
        path = text[text.index("/resources/"):text.index("netinput.pointer.sock") + len("netinput.pointer.sock")]
        pointer = open_socket(path)
        send_timed(pointer, [frame(f"type:button\\nname:{key}\\n\\n".encode()) for key in ("UP", "DOWN")])
        """

    /// Every LG key in milliseconds, send until the simulator logs it.
    static func lgSamples(_ tv: LGBenchTV, count: Int, warmUp: Int) async -> Result<[Double], BenchError> {
        await run(lgScript, [tv.host, String(tv.port), String(count), String(warmUp)]).flatMap {
            PythonSamsungTVWS.samples(tv, output: $0)
        }
    }
}
