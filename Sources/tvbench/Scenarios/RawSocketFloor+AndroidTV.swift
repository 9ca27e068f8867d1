import Harness

/// The Android TV floor (see `RawSocketFloor`): paired as androidtvremote2 pairs (the setup, not
/// timed), then Python's standard library alone on a blocking TLS socket with that certificate:
/// the remote session's configure and set-active answered, and each key written as one
/// length-prefixed RemoteKeyInject built before the clock starts (androidtvremote2's generated
/// messages make the bytes), send until the simulator logs it.
extension RawSocketFloor {
    static let androidTVScript =
        PythonRokuECP.importing(
            """
            from androidtvremote2 import AndroidTVRemote
            from androidtvremote2.remotemessage_pb2 import RemoteMessage
            """) + PythonAndroidTVRemote2.pairing
            + """
            import socket, ssl
            sim_port = int(sys.argv[5])
            _, cert, key = asyncio.run(pair(host, sim_port))
            context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
            context.check_hostname = False
            context.verify_mode = ssl.CERT_NONE
            context.load_cert_chain(cert, key)
            plain = socket.create_connection((host, port))
            plain.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            tls = context.wrap_socket(plain)
            def delimited(message):
                body, prefix, length = message.SerializeToString(), b"", None
                length = len(body)
                while True:
                    byte = length & 0x7F
                    length >>= 7
                    prefix += bytes([byte | (0x80 if length else 0)])
                    if not length:
                        return prefix + body
            buffered = b""
            def next_message():
                global buffered
                while True:
                    length, shift, used = 0, 0, 0
                    for byte in buffered:
                        used += 1
                        length |= (byte & 0x7F) << shift
                        shift += 7
                        if not byte & 0x80:
                            break
                    else:
                        used = 0
                    if used and len(buffered) >= used + length:
                        message = RemoteMessage.FromString(buffered[used:used + length])
                        buffered = buffered[used + length:]
                        return message
                    chunk = tls.recv(65536)
                    if not chunk:
                        sys.exit("the TV closed the remote session")
                    buffered += chunk
            while True:
                message = next_message()
                if message.HasField("remote_configure"):
                    answer = RemoteMessage()
                    answer.remote_configure.code1 = 622
                    answer.remote_configure.device_info.model = "floor"
                    tls.sendall(delimited(answer))
                elif message.HasField("remote_set_active"):
                    answer = RemoteMessage()
                    answer.remote_set_active.active = 622
                    tls.sendall(delimited(answer))
                elif message.HasField("remote_start"):
                    break
            frames = []
            for code in (19, 20):  # DPAD_UP, DPAD_DOWN
                keypress = RemoteMessage()
                keypress.remote_key_inject.key_code = code
                keypress.remote_key_inject.direction = 3  # SHORT
                frames.append(delimited(keypress))
            send_timed(tls, frames)
            """

    /// Every Android TV key in milliseconds, send until the simulator logs it.
    static func androidTVSamples(_ tv: AndroidTVBenchTV, count: Int, warmUp: Int) async -> Result<[Double], BenchError>
    {
        await run(androidTVScript, [tv.host, String(tv.port), String(count), String(warmUp), String(tv.simPort)])
            .flatMap { PythonSamsungTVWS.samples(tv, output: $0) }
    }
}
