/// The outcomes `send` waits for: a request answered while its sender was still carrying the
/// queue keeps its result until the sender looks; one answered later resumes the waiting sender.
extension SamsungChannel {
    enum RequestOutcome {
        case pending
        case waiting(CheckedContinuation<Result<Void, DriverError>, Never>)
        case answered(Result<Void, DriverError>)
    }

    func isAnswered(_ id: UInt64) -> Bool {
        if case .answered = requests[id] { return true }
        return false
    }

    /// The request's result, waiting for it when it has none yet.
    func outcome(of id: UInt64) async -> Result<Void, DriverError> {
        if case .answered(let result) = requests[id] {
            requests[id] = nil
            return result
        }
        return await withCheckedContinuation { requests[id] = .waiting($0) }
    }

    /// Answers request `id` once; ids that are not a `send`'s (an app list's) are ignored.
    func answerRequest(_ id: UInt64, _ result: Result<Void, DriverError>) {
        switch requests[id] {
        case .pending: requests[id] = .answered(result)
        case .waiting(let continuation):
            requests[id] = nil
            continuation.resume(returning: result)
        case .answered, nil: break
        }
    }

    func failRequests(_ error: DriverError) {
        for id in Array(requests.keys) { answerRequest(id, .failure(error)) }
    }
}

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
