import Net
import Wire

/// The SSDP responder and the Wake-on-LAN listener, with the Roku simulator's arrangement and
/// safety rules (see `RokuSimulator+Network.swift`): a shared `0.0.0.0:P` socket for broadcast
/// searches plus one on `host:P` for unicast ones, answers sent from `host` (so LOCATION's
/// host is the responder's address), and on a loopback host only loopback peers.
extension SamsungSimulator {
    static let searchTarget = "urn:samsung.com:device:RemoteControlReceiver:1"

    var usn: String { "\(identity.duid)::\(Self.searchTarget)" }

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

    /// Sends NOTIFY ssdp:alive to `notifyAddress` (at start and when woken from off).
    func announce() {
        guard let text = options.notifyAddress, let target = RokuSimulator.parseHostPort(text) else { return }
        guard target.isLoopback else {
            writeStandardError("tvsim: not sending NOTIFY to \(text): only loopback addresses are allowed")
            return
        }
        let notify = SSDPNotify(
            notificationType: Self.searchTarget, subtype: .alive, usn: usn, location: location,
            server: SamsungCatalog.serverHeader, maxAge: 1800, host: text)
        spawn { [self] in
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
                // Network standby still answers; a TV that is off is silent.
                if core.withLock({ $0.state.power == .off || $0.stopped }) { continue }
                let response = SSDPResponse(
                    searchTarget: Self.searchTarget, location: location, usn: usn,
                    server: SamsungCatalog.serverHeader, maxAge: 1800)
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
        let mine = MACAddress(identity.wifiMAC)
        while !Task.isCancelled {
            let datagram: (bytes: [UInt8], from: SocketAddress)
            do {
                datagram = try await socket.receive(maxBytes: 1024)
            } catch {
                if let error = error as? NetError, error.kind != .closed { continue }
                return
            }
            guard let mac = MagicPacket.parse(datagram.bytes), mac == mine else { continue }
            record("wol", ["mac": .string(identity.wifiMAC), "from": .string(datagram.from.ip)])
            wake()
        }
    }

    private func adopt(_ socket: UDPSocket) {
        let keep = core.withLock { core -> Bool in
            guard !core.stopped else { return false }
            core.sockets.append(socket)
            return true
        }
        if !keep { socket.close() }
    }

    /// Runs a background task that `stop()` cancels and awaits.
    func spawn(_ work: @escaping @Sendable () async -> Void) {
        core.withLock { core in
            guard !core.stopped else { return }
            core.background.removeAll { $0.isCancelled }
            core.background.append(Task { await work() })
        }
    }
}
