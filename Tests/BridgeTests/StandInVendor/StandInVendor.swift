import Drivers
import Synchronization
import TVModel

/// A fourth vendor, written as a vendor's folder in Drivers would be and defined only here:
/// its kind, its `Vendor` descriptor and its driver. Registered through the one list a driver
/// factory is given (`Vendors.all + [.standIn]`), nothing else in the project knows it.
extension TVKind {
    static let standIn = TVKind(rawValue: "acme")
}

extension Vendor {
    static let standIn = Vendor(
        kind: .standIn, manufacturer: "Acme", defaultPort: 7000, ssdpTargets: [StandInTV.searchTarget],
        ssdpLocationIsControlPort: true, probedWhenKindUnknown: false,
        placeholderCapabilities: StandInDriver.capabilities,
        describe: { host, port, _ throws(DriverError) in
            let port = port ?? 7000
            let reply: String
            do {
                reply = try await StandInLine.ask("WHO", host: host, port: port)
            } catch {
                throw DriverError(.unreachable, "no Acme TV at \(host):\(port): \(error)")
            }
            let words = reply.split(separator: " ")
            guard words.count == 2, words[0] == "acme", let id = TVID(kind: .standIn, hardwareID: String(words[1]))
            else { throw DriverError(.badResponse, "not an Acme TV at \(host):\(port)") }
            let identity = TVIdentity(
                id: id, kind: .standIn, name: "Acme \(words[1])", manufacturer: "Acme", model: "Stand-in",
                serialNumber: String(words[1]), host: host, port: port)
            return TVDescription(identity: identity, capabilities: StandInDriver.capabilities)
        },
        makeDriver: { description, _, _ in StandInDriver(description: description) })
}

/// The stand-in vendor's driver: the shared keys, sent as `KEY <NAME>` lines.
final class StandInDriver: TVDriver {
    static let capabilities = TVCapabilities(power: false, volumeKeys: true, keyboard: false, mediaState: false)

    let kind = TVKind.standIn
    let events = DriverEvents()
    private let state: Mutex<TVDescription>

    init(description: TVDescription) { state = Mutex(description) }

    var description: TVDescription { state.withLock { $0 } }

    func poll(full: Bool) async -> TVSnapshot {
        let identity = state.withLock { $0.identity }
        let answered = (try? await StandInLine.ask("WHO", host: identity.host, port: identity.port)) != nil
        return TVSnapshot(reachable: answered, power: answered ? true : nil)
    }

    func plan(_ command: TVCommand) throws(CommandRejection) -> TVPlan {
        guard case .key(.shared(let key), let count) = command else {
            throw CommandRejection("an Acme TV takes the shared keys only")
        }
        return TVPlan(command, steps: [String](repeating: key.rawValue.uppercased(), count: count))
    }

    func execute(_ plan: TVPlan) async throws(DriverError) {
        let keys = try plan.steps(as: [String].self)
        let identity = state.withLock { $0.identity }
        for key in keys {
            let reply: String
            do {
                reply = try await StandInLine.ask("KEY \(key)", host: identity.host, port: identity.port)
            } catch {
                throw DriverError(.unreachable, "Acme TV \(identity.host): \(error)")
            }
            guard reply == "OK" else { throw DriverError(.rejected, "Acme TV refused \(key)") }
        }
    }

    func updateHost(_ host: String) async { state.withLock { $0.identity.host = host } }

    func shutdown() async { events.finish() }
}
