import Net
import Synchronization

/// Home Assistant's ingress gateway, as the page sees it: requests under
/// `/api/hassio_ingress/<token>` are forwarded to the bridge without that prefix and with
/// `X-Ingress-Path` naming it, from an address of their own (`127.0.0.2`, the bridge's
/// `http.allow_from`), one request a connection (`Connection: close`), the answer relayed
/// byte for byte (event streams included). A request outside the prefix is forwarded as it is.
final class IngressProxy: Sendable {
    static let gatewayAddress = "127.0.0.2"
    let path: String
    let port: UInt16
    private let listener: TCPListener
    private let connections = Mutex<[TCPConnection]>([])
    private let acceptor = Mutex<Task<Void, Never>?>(nil)

    private init(listener: TCPListener, path: String) {
        self.listener = listener
        self.path = path
        port = listener.address.port
    }

    static func start(toBridgePort bridgePort: UInt16, token: String = "abc123XYZ") throws -> IngressProxy {
        let proxy = IngressProxy(
            listener: try TCPListener.bind(host: "127.0.0.1", port: 0), path: "/api/hassio_ingress/\(token)")
        let task = Task { [proxy] in
            while let client = try? await proxy.listener.accept() {
                proxy.connections.withLock { $0.append(client) }
                Task { await proxy.relay(client, bridgePort: bridgePort) }
            }
        }
        proxy.acceptor.withLock { $0 = task }
        return proxy
    }

    func stop() {
        listener.close()
        acceptor.withLock { $0?.cancel() }
        for connection in connections.withLock({ $0 }) { connection.close() }
    }

    private func relay(_ client: TCPConnection, bridgePort: UInt16) async {
        defer { client.close() }
        var buffer: [UInt8] = []
        let end: [UInt8] = Array("\r\n\r\n".utf8)
        var headEnd: Int?
        while headEnd == nil {
            guard let bytes = try? await client.read(maxBytes: 64 * 1024, deadline: .now + .seconds(30)),
                !bytes.isEmpty, buffer.count < 64 * 1024
            else { return }
            buffer += bytes
            headEnd = buffer.firstRange(of: end)?.upperBound
        }
        guard let headEnd else { return }
        let head = String(decoding: buffer[..<headEnd], as: UTF8.self)
        var lines = head.split(separator: "\r\n").map(String.init)
        let requestLine = lines.removeFirst().split(separator: " ").map(String.init)
        guard requestLine.count == 3 else { return }
        var target = requestLine[1]
        var ingress = false
        if target == path || target.hasPrefix(path + "/") || target.hasPrefix(path + "?") {
            target = String(target.dropFirst(path.count))
            if !target.hasPrefix("/") { target = "/" + target }
            ingress = true
        }
        var forwarded = ["\(requestLine[0]) \(target) \(requestLine[2])"]
        forwarded += lines.filter { line in
            let name = line.prefix { $0 != ":" }.lowercased()
            return name != "connection" && name != "x-ingress-path" && name != "keep-alive"
        }
        if ingress { forwarded.append("X-Ingress-Path: \(path)") }
        forwarded.append("Connection: close")
        let bytes = Array((forwarded.joined(separator: "\r\n") + "\r\n\r\n").utf8) + buffer[headEnd...]
        guard
            let upstream = try? await TCPConnection.connect(
                to: try SocketAddress(ip: "127.0.0.1", port: bridgePort),
                from: try SocketAddress(ip: Self.gatewayAddress, port: 0), timeout: .seconds(10))
        else { return }
        connections.withLock { $0.append(upstream) }
        defer { upstream.close() }
        guard (try? await upstream.write(bytes, deadline: .now + .seconds(10))) != nil else { return }
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await Self.pump(from: client, to: upstream) }
            group.addTask { await Self.pump(from: upstream, to: client) }
            await group.next()
            client.close()
            upstream.close()
        }
    }

    private static func pump(from source: TCPConnection, to destination: TCPConnection) async {
        while let bytes = try? await source.read(maxBytes: 64 * 1024, deadline: nil), !bytes.isEmpty {
            guard (try? await destination.write(bytes, deadline: .now + .seconds(30))) != nil else { return }
        }
    }
}
