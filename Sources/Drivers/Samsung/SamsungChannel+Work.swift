extension SamsungChannel.Work {
    /// The session's I/O actions, as queued work; nil for the others (done at once).
    init?(_ action: SamsungSessionAction) {
        switch action {
        case .open(let endpoint): self = .open(endpoint)
        case .send(let message): self = .send(message)
        case .pause(let duration): self = .pause(duration)
        case .completed(let id): self = .completed(id)
        default: return nil
        }
    }
}
