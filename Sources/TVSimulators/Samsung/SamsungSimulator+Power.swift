import Clients
import Net

/// Which listeners are open follows the power state: `on` serves everything; `standby`
/// (network standby) keeps REST and the remote channel but not UPnP; `off` closes all three,
/// so connections are refused until a Wake-on-LAN packet (or `apply`) brings the TV back.
extension SamsungSimulator {
    func makeServer(_ service: Service, on listener: TCPListener) -> SimHTTPServer {
        switch service {
        case .rest, .secure:
            let secure = service == .secure
            // Read per connection, so `replaceCertificate()` takes effect at once.
            let tls: SimHTTPServer.TLSProvider = { [weak self] in
                self?.core.withLock { $0.certificates.current.context }
            }
            let upgrade = SimUpgrade(accepts: WebSocketServerHandshake.isUpgradeRequest) {
                [weak self] request, stream, leftover in
                await self?.remoteChannel(request, stream: stream, leftover: leftover, secure: secure)
            }
            return SimHTTPServer.start(
                listener: listener, serverHeader: SamsungCatalog.serverHeader, tls: secure ? tls : nil,
                upgrade: upgrade
            ) { [weak self] request, _ in
                guard let self else { return SimHTTPReply(SimResponse.plain(503, "")) }
                return self.handleREST(request)
            }
        case .upnp:
            return SimHTTPServer.start(listener: listener, serverHeader: SamsungCatalog.serverHeader) {
                [weak self] request, _ in
                guard let self else { return SimHTTPReply(SimResponse.plain(503, "")) }
                return self.handleUPnP(request)
            }
        }
    }

    private func port(of service: Service) -> UInt16 {
        switch service {
        case .rest: portWS
        case .secure: portWSS
        case .upnp: portUPnP
        }
    }

    private static func wanted(_ power: SamsungSimState.Power) -> [Service] {
        switch power {
        case .on: [.rest, .secure, .upnp]
        case .standby: [.rest, .secure]
        case .off: []
        }
    }

    /// Opens and closes listeners to match the power state. Returns whether the TV came back
    /// from `off` (then it announces itself). Safe to call any time, from any task.
    @discardableResult
    func syncListeners() -> Bool {
        // Under the state's lock, so two changes never apply their power states out of order.
        let cameBack = core.withLock { core in
            common.listen(Self.wanted(core.state.power), port: port(of:), make: makeServer).cameBack
        }
        if cameBack { announce() }
        eventHub.changed.signal()  // power, volume or mute may have changed (`/sim/state`)
        return cameBack
    }

    /// A magic packet for our MAC: `off` or `standby` → `on` (Samsung TVs are turned on with
    /// Wake-on-LAN; a TV in deep off boots straight to on).
    func wake() {
        let changed = core.withLock { core -> Bool in
            guard core.state.power != .on, !common.isStopped else { return false }
            core.state.power = .on
            core.state.artMode = false
            return true
        }
        if changed { syncListeners() }
    }
}
