import TVModel

extension BridgeContext {
    /// Sends what a snapshot changed: availability (and the TV list), `tv_lost`, the state
    /// document, `limited_mode`. Already compared: the publisher stores and sends as given.
    func publish(_ changes: TVStateTracker.Changes, of tv: TVID) async {
        if let availability = changes.availability {
            await publisher.replaceRetained(topics.availability(tv), Array(availability.utf8), category: .availability)
        }
        if let lost = changes.lost { await emit(lost, level: .info) }
        if changes.availability != nil { tvListChanged.signal() }
        if let state = changes.state {
            await publisher.replaceRetained(topics.state(tv), state, category: .state)
        }
        if let limited = changes.limited { await emit(limited) }
    }
}
