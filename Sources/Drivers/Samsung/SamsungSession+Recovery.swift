extension SamsungSession {
    /// The pinned certificate was seen again on the TV's address (`SamsungChannel` checked it
    /// outside any connection): leave `certificateChanged`; the next request connects, and its
    /// connection is checked against the pin as always.
    public mutating func certificateSeenAgain() -> [SamsungSessionAction] {
        guard case .certificateChanged = state else { return [] }
        state = .idle
        return []
    }
}
