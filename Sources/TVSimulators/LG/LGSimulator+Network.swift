import Clients
import Net
import Wire

/// The listeners and what each serves, which of them listen in each power state, and what the
/// TV says over SSDP and does on a magic packet (the UDP sockets are `SimHost`'s).
extension LGSimulator {
    func makeServer(_ service: Service, on listener: TCPListener) -> SimHTTPServer {
        switch service {
        case .plain, .secure:
            let secure = service == .secure
            let tls: SimHTTPServer.TLSProvider = { [weak self] in
                self?.core.withLock { $0.certificates.current.context }
            }
            let upgrade = SimUpgrade(accepts: WebSocketServerHandshake.isUpgradeRequest) {
                [weak self] request, stream, leftover in
                await self?.upgraded(request, stream: stream, leftover: leftover, secure: secure)
            }
            return SimHTTPServer.start(
                listener: listener, serverHeader: LGDocuments.serverHeader, tls: secure ? tls : nil, upgrade: upgrade
            ) { [weak self] request, _ in
                guard let self else { return SimHTTPReply(SimResponse.plain(503, "")) }
                return SimRouting.answer(request, simState: secure ? nil : simStateEndpoint.answer) { segments in
                    self.icon(segments, method: request.method)
                }
            }
        case .upnp:
            return SimHTTPServer.start(listener: listener, serverHeader: LGDocuments.serverHeader) {
                [weak self] request, _ in
                guard let self else { return SimHTTPReply(SimResponse.plain(503, "")) }
                return SimRouting.answer(request, simState: nil) { segments in
                    guard segments.isEmpty, request.method == "GET" else { return nil }
                    return SimHTTPReply(
                        SimResponse.xml(LGDocuments.description(self.identity, plain: self.options.plain)))
                }
            }
        }
    }

    /// A WebSocket upgrade: a pointer socket path this TV gave out, or SSAP on any other path.
    private func upgraded(_ request: HTTPRequest, stream: any ByteStream, leftover: [UInt8], secure: Bool) async {
        let path = request.target.split(separator: "?", maxSplits: 1).first.map(String.init) ?? ""
        if path.hasSuffix(Self.pointerSuffix) {
            guard core.withLock({ $0.pointerPaths.contains(path) }) else {
                if let bytes = try? SimResponse.notFound.encode() {
                    try? await stream.write(bytes, deadline: .now + .seconds(2))
                }
                return
            }
            await pointerSocket(request, stream: stream, leftover: leftover)
            return
        }
        guard secure || options.plain || !options.tlsOnly else {
            if let bytes = try? SimResponse.plain(403, "Forbidden").encode() {
                try? await stream.write(bytes, deadline: .now + .seconds(2))
            }
            return
        }
        await ssapSession(request, stream: stream, leftover: leftover, secure: secure)
    }

    private func port(of service: Service) -> UInt16 {
        switch service {
        case .plain: portWS
        case .secure: portWSS ?? 0
        case .upnp: portUPnP
        }
    }

    /// In Suspend the network is down; in every other state all of the model's ports listen.
    private func wanted(_ power: LGSimState.Power) -> [Service] {
        guard power != .suspend else { return [] }
        return options.plain ? [.plain, .upnp] : [.plain, .secure, .upnp]
    }

    /// Opens and closes listeners to match the power state; a TV coming back announces itself.
    func syncListeners() {
        let cameBack = core.withLock { core in
            common.listen(wanted(core.state.power), port: port(of:), make: makeServer).cameBack
        }
        if cameBack { announce() }
    }

    var ssdpAdvert: SimSSDPAdvert {
        SimSSDPAdvert(
            host: options.host, searchTarget: LGDocuments.searchTarget,
            usn: "\(identity.udn)::\(LGDocuments.searchTarget)", location: location,
            server: LGDocuments.serverHeader, maxAge: 1800, answerWindow: options.ssdpAnswerWindow)
    }

    func startSSDP() throws {
        try common.startSSDP(on: options.ssdpPort, ssdpAdvert) { [weak self] in
            guard let self else { return true }
            return core.withLock { $0.state.power == .suspend } || common.isStopped
        }
    }

    /// Either MAC wakes the TV, as real sets with "Turn on via Wi-Fi" / "Mobile TV On" do.
    func startWakeOnLAN() throws {
        let macs = [identity.wiredMAC, identity.wifiMAC]
        try common.startWakeOnLAN(on: options.wolPort, macs: macs) { [self] mac, from in
            record("wol", ["mac": .string(mac), "from": .string(from.ip)])
            wake()
        }
    }

    /// Sends NOTIFY ssdp:alive to `notifyAddress` (at start and when woken from Suspend).
    func announce() { common.announce(ssdpAdvert, to: options.notifyAddress) }
}
