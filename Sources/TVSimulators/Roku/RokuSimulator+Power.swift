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
        common.listen([Service](), port: { _ in port }, make: { makeServer(on: $1) })
    }

    private func reopenListener() {
        let (cameBack, failed) = common.listen(
            [Service.ecp], port: { _ in port }, make: { makeServer(on: $1) })
        // Someone else took the port while we were off: stay unreachable (`listen` said why).
        if failed { core.withLock { $0.state.power = .off } }
        if cameBack { announce() }
    }

    /// Wakes the TV as a magic packet does: `off` → `on` (listening again); standby stays
    /// standby (the bridge then sends PowerOn).
    func wake() {
        let effect = core.withLock { core -> PowerEffect in
            guard core.state.power == .off, !common.isStopped else { return .none }
            core.settle()
            powerOn(&core)
            announceLocked(&core)
            return .openListener
        }
        perform(effect)
    }
}
