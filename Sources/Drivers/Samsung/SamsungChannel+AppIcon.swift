import Clients
import Net

/// App icons over the remote channel (samsungtvws `App.icon`): `ed.apps.icon` with the
/// `iconPath` of `ed.installedApp.get`, answered by an `ed.apps.icon` event whose `data` holds
/// `iconPath` and `imageBase64`. Asked only on an open channel: an icon is no reason to
/// connect (or to prompt on the TV).
extension SamsungChannel {
    /// The base64 picture at `path`, or nil when the channel is not open, the TV sends none,
    /// or it does not answer within `timeout`.
    func appIcon(path: String, timeout: Duration) async -> String? {
        guard session.isReady else { return nil }
        let requestID = nextID
        nextID &+= 1
        return await withCheckedContinuation { continuation in
            iconWaiters[path, default: []].append(continuation)
            LoopClock.current.startTask(at: LoopClock.current.now + timeout) { [weak self] in
                await self?.answerIcons(path, nil)
            }
            handle(
                session.submit([.message(.appIcon(path: path))], id: requestID, now: LoopClock.current.now))
        }
    }

    /// Answers the requests for `path` (every one, when `path` is nil: shutdown, or a reply
    /// that names no path, which then belongs to the only path asked for, if there is one).
    func answerIcons(_ path: String?, _ image: String? = nil) {
        let paths =
            path.map { [$0] } ?? (iconWaiters.count == 1 || image == nil ? Array(iconWaiters.keys) : [])
        for path in paths {
            for waiter in iconWaiters.removeValue(forKey: path) ?? [] { waiter.resume(returning: image) }
        }
    }
}
