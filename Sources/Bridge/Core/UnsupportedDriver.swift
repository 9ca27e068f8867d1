import Drivers
import TVModel

/// Stands in for a vendor whose driver is not built yet (Samsung, remembered from a state
/// file or listed in the configuration): never reachable, refuses every command with a clear
/// reason, instead of crashing the bridge.
final class UnsupportedDriver: TVDriver {
    let kind: TVKind
    let description: TVDescription
    let events: AsyncStream<DriverEvent>
    private let sink: AsyncStream<DriverEvent>.Continuation

    init(description: TVDescription) {
        kind = description.identity.kind
        self.description = description
        (events, sink) = AsyncStream.makeStream(of: DriverEvent.self)
    }

    private var reason: String { "\(kind.rawValue.capitalized) support is not built yet" }

    func poll(full: Bool) async -> TVSnapshot { .unreachable }

    func validate(_ command: TVCommand) throws(CommandRejection) { throw CommandRejection(reason) }

    func perform(_ command: TVCommand) async throws(DriverError) {
        throw DriverError(.unsupported, reason)
    }

    func updateHost(_ host: String) async {}

    func shutdown() async { sink.finish() }
}
