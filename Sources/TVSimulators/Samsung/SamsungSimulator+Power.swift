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
                self?.core.withLock { $0.certificate.context }
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

    private static func wanted(_ power: SamsungSimState.Power) -> Set<Service> {
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
        let (cameBack, failures) = core.withLock { core -> (Bool, [String]) in
            guard !core.stopped else { return (false, []) }
            let wanted = Self.wanted(core.state.power)
            let wasOff = core.servers.isEmpty
            var failures: [String] = []
            for service in Service.allCases {
                if let server = core.servers[service], !wanted.contains(service) {
                    server.close()
                    core.retired.append(server)
                    core.servers[service] = nil
                } else if core.servers[service] == nil, wanted.contains(service) {
                    do {
                        let listener = try TCPListener.bind(host: options.host, port: port(of: service))
                        core.servers[service] = makeServer(service, on: listener)
                    } catch {
                        failures.append("\(options.host):\(port(of: service)): \(error)")
                    }
                }
            }
            return (wasOff && !core.servers.isEmpty, failures)
        }
        for failure in failures {
            // Someone took the port while we were off: that service stays unreachable.
            writeStandardError("tvsim: \(identity.name) cannot listen again on \(failure)")
        }
        if cameBack { announce() }
        eventHub.changed.signal()  // power, volume or mute may have changed (`/sim/state`)
        return cameBack
    }

    /// A magic packet for our MAC: `off` or `standby` → `on` (Samsung TVs are turned on with
    /// Wake-on-LAN; a TV in deep off boots straight to on).
    func wake() {
        let changed = core.withLock { core -> Bool in
            guard core.state.power != .on, !core.stopped else { return false }
            core.state.power = .on
            core.state.artMode = false
            return true
        }
        if changed { syncListeners() }
    }
}
