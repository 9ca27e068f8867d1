import Drivers
import TVModel

/// A known TV's identity claimed at another address: anyone on the network can
/// report a serial or a UDN, so the claim alone moves nothing. The TV moves only when its old
/// address no longer answers as that TV and the new one proves what the driver can check (a
/// pinned Samsung's certificate); otherwise it stays, and the conflict is logged.
extension TVRegistry {
    /// `claim` is what the device at `host` reported (its id as probed, before any configured id).
    func relocate(_ id: TVID, to host: String, claim: TVDescription) async {
        guard let record = records[id] else { return }
        let old = record.persisted.identity
        guard old.host != host else { return }
        let driver = record.agent.driver
        if await answersAs(claim.identity.id, host: old.host, kind: old.kind, port: old.port, driver: driver) {
            context.logger.warning(
                "another device at \(host) reports the identity of TV \(id.rawValue), which still answers at \(old.host): keeping it at \(old.host)",
                [("tv", id.rawValue), ("host", host)])
            ignoreClaims(from: host)
            return
        }
        guard await driver.provesIdentity(at: host) else {
            context.logger.warning(
                "a device at \(host) reports the identity of TV \(id.rawValue) but does not present its pinned certificate: keeping it at \(old.host)",
                [("tv", id.rawValue), ("host", host)])
            ignoreClaims(from: host)
            return
        }
        // The record may have changed while we asked (another move, a removal).
        guard records[id]?.persisted.identity.host == old.host else { return }
        await moved(id, from: old.host, to: host)
    }

    /// Whether `host` still answers as the TV whose probed id is `probedID` (and proves it,
    /// where the driver can check more than the reported identity).
    private func answersAs(_ probedID: TVID, host: String, kind: TVKind, port: UInt16, driver: any TVDriver) async
        -> Bool
    {
        guard let answer = try? await factory.probe(host: host, kind: kind, port: port),
            answer.identity.id == probedID
        else { return false }
        return await driver.provesIdentity(at: host)
    }

    /// Leaves a refused claimant alone for a while (an impostor announcing itself again and
    /// again costs one probe per retry delay, not one per datagram).
    private func ignoreClaims(from host: String) {
        noteFailedProbe(host)
    }
}
