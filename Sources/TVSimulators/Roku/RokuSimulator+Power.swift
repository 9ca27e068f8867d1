import Net

/// Power `off` is unreachable: the ECP listener is closed, connections are refused, until the
/// state changes back (a Wake-on-LAN packet, or `apply`).
extension RokuSimulator {
    func perform(_ effect: PowerEffect) {
        switch effect {
        case .none: break
        case .closeListener: closeListener()
        case .openListener: reopenListener()
        }
        // A silent TV keeps no ECP-2 session either (the client then sees only timeouts).
        if core.withLock({ $0.state.silent }) { dropECP2Sessions() }
    }

    private func closeListener() {
        core.withLock { core in
            guard let server = core.server else { return }
            server.close()
            core.retired.append(server)
            core.server = nil
        }
    }

    private func reopenListener() {
        let needed = core.withLock { !$0.stopped && $0.server == nil }
        guard needed else { return }
        do {
            serve(on: try TCPListener.bind(host: options.host, port: port))
            announce()
        } catch {
            // Someone else took the port while we were off: stay unreachable, and say why.
            writeStandardError(
                "tvsim: \(identity.serial) cannot listen again on \(options.host):\(port): \(error)")
            core.withLock { $0.state.power = .off }
        }
    }

    /// Wakes the TV as a magic packet does: `off` → `on` (listening again); standby stays
    /// standby (the bridge then sends PowerOn).
    func wake() {
        let effect = core.withLock { core -> PowerEffect in
            guard core.state.power == .off, !core.stopped else { return .none }
            core.settle()
            powerOn(&core)
            announceLocked(&core)
            return .openListener
        }
        perform(effect)
    }
}
