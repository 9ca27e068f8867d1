import Net
import Wire

/// The SSDP responder and the Wake-on-LAN listener.
///
/// Several simulated TVs (and a test's searcher) share one SSDP port, so the responder binds
/// `0.0.0.0:P` with SO_REUSEADDR/SO_REUSEPORT: a search broadcast to 127.255.255.255:P reaches
/// every such socket. A unicast search to one TV's `host:P` would go to just one socket of the
/// group, so each TV also binds `host:P`, which the kernel prefers for datagrams addressed to
/// it exactly; answers leave from that socket, so their source address is the host LOCATION
/// names (the bridge ignores answers whose LOCATION points elsewhere).
///
/// Safety: a TV on a loopback host answers only loopback senders and notifies only loopback
/// addresses, so a test can never talk to the workplace network.
extension RokuSimulator {
    static let searchTarget = "roku:ecp"

    var usn: String { "uuid:roku:ecp:\(identity.serial)" }

    var hostIsLoopback: Bool {
        (try? SocketAddress(ip: options.host, port: 0))?.isLoopback ?? false
    }

    func startSSDP() throws {
        guard let ssdpPort = options.ssdpPort else { return }
        let shared = try UDPSocket.bind(host: "0.0.0.0", port: ssdpPort, reuse: true)
        adopt(shared)
        let own = try UDPSocket.bind(host: options.host, port: ssdpPort, reuse: true)
        adopt(own)
        spawn { [self] in await answerSearches(on: shared, replyingFrom: own) }
        spawn { [self] in await answerSearches(on: own, replyingFrom: own) }
    }

    func startWakeOnLAN() throws {
        guard let wolPort = options.wolPort else { return }
        let socket = try UDPSocket.bind(host: "0.0.0.0", port: wolPort, reuse: true)
        adopt(socket)
        spawn { [self] in await listenForMagicPackets(on: socket) }
    }

    /// Sends NOTIFY ssdp:alive to `notifyAddress` (at start and when woken).
    func announce() {
        guard let text = options.notifyAddress, let target = Self.parseHostPort(text) else { return }
        guard target.isLoopback else {
            writeStandardError(
                "tvsim: not sending NOTIFY to \(text): only loopback addresses are allowed")
            return
        }
        let notify = SSDPNotify(
            notificationType: Self.searchTarget, subtype: .alive, usn: usn, location: location,
            server: RokuCatalog.serverHeader, maxAge: 3600, host: text)
        spawn { [self] in
            // From the TV's own address (LOCATION must match the source), else from any port.
            let socket: UDPSocket
            do {
                socket = try UDPSocket.bind(host: options.host, port: 0)
            } catch {
                writeStandardError("tvsim: cannot send NOTIFY from \(options.host): \(error)")
                return
            }
            defer { socket.close() }
            try? await socket.send(notify.encode(), to: target, deadline: .now + .seconds(1))
        }
    }

    /// Answers searches arriving on `socket` from `own`. Each answer waits its random delay
    /// (see `SSDPAnswerDelay`) in a task of its own, so one search's wait never holds back the
    /// next search; the tasks end with the loop when the simulator stops.
    private func answerSearches(on socket: UDPSocket, replyingFrom own: UDPSocket) async {
        let unicast = socket === own
        await withDiscardingTaskGroup { group in
            while !Task.isCancelled {
                let datagram: (bytes: [UInt8], from: SocketAddress)
                do {
                    datagram = try await socket.receive(maxBytes: SSDPMessage.maxDatagramSize)
                } catch {
                    if let error = error as? NetError, error.kind != .closed { continue }
                    group.cancelAll()
                    return
                }
                guard case .search(let headers)? = try? SSDPMessage.parse(datagram.bytes),
                    let search = try? SSDPSearch(headers: headers), search.matches(Self.searchTarget)
                else { continue }
                if hostIsLoopback && !datagram.from.isLoopback { continue }
                if core.withLock({ $0.state.power == .off || $0.stopped }) { continue }
                let response = SSDPResponse(
                    searchTarget: Self.searchTarget, location: location, usn: usn,
                    server: RokuCatalog.serverHeader,
                    maxAge: 3600)
                let delay = SSDPAnswerDelay.random(for: search, unicast: unicast, window: options.ssdpAnswerWindow)
                group.addTask {
                    if delay > .zero {
                        do { try await Task.sleep(for: delay) } catch { return }
                    }
                    try? await own.send(response.encode(), to: datagram.from, deadline: .now + .seconds(1))
                }
            }
        }
    }

    private func listenForMagicPackets(on socket: UDPSocket) async {
        let mine = [identity.wifiMAC] + (kind == .tv ? [identity.ethernetMAC] : [])
        while !Task.isCancelled {
            let datagram: (bytes: [UInt8], from: SocketAddress)
            do {
                datagram = try await socket.receive(maxBytes: 1024)
            } catch {
                if let error = error as? NetError, error.kind != .closed { continue }
                return
            }
            guard let mac = MagicPacket.parse(datagram.bytes), mine.contains(mac.description.lowercased())
            else {
                continue  // another TV's packet, or not a magic packet: ignored silently
            }
            record(
                "wol", ["mac": .string(mac.description.lowercased()), "from": .string(datagram.from.ip)])
            wake()
        }
    }

    /// Keeps a socket to close at `stop()` (closed at once when already stopped).
    private func adopt(_ socket: UDPSocket) {
        let keep = core.withLock { core -> Bool in
            guard !core.stopped else { return false }
            core.sockets.append(socket)
            return true
        }
        if !keep { socket.close() }
    }

    /// Runs a background task that `stop()` cancels and awaits.
    private func spawn(_ work: @escaping @Sendable () async -> Void) {
        core.withLock { core in
            guard !core.stopped else { return }
            core.background.removeAll { $0.isCancelled }
            core.background.append(Task { await work() })
        }
    }

    /// "127.0.0.1:1900" or "[::1]:1900" as an address; nil when malformed.
    static func parseHostPort(_ text: String) -> SocketAddress? {
        guard let colon = text.lastIndex(of: ":"), let port = UInt16(text[text.index(after: colon)...])
        else {
            return nil
        }
        var host = String(text[..<colon])
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        return try? SocketAddress(ip: host, port: port)
    }
}
