import Support
import TVModel
import Wire

extension RokuDriver {
    /// Checks a command against this Roku's capabilities and apps as last read, and resolves
    /// it into the ECP requests `execute` makes (`RokuCommandPlanner`).
    public func plan(_ command: CheckedCommand) throws(CommandRejection) -> TVPlan {
        TVPlan(command.command, steps: try planner.plan(command))
    }

    /// Carries out a plan: the ECP requests in order. A 403 Limited mode is remembered, so
    /// the next snapshot says `limited_mode: true`; another 403 is answered by `recover`.
    public func execute(_ plan: TVPlan) async throws(DriverError) {
        let action = try plan.steps(as: RokuAction.self)
        let session = ecp2Session
        do {
            try await run(action, session: session)
            noteKeysWork(action, session: session)
        } catch  where error.kind == .forbidden {
            try await recover(action, refused: error)
        } catch {
            noteLimitedMode(error)
            throw error
        }
    }

    /// Over the ECP-2 session when there is one (in order, and past Limited mode), else HTTP
    /// ECP. A session that drops in the middle of a command fails the command; it is not resent
    /// over HTTP, where half of a search typed twice would be worse than an error.
    func run(_ action: RokuAction, session: RokuECP2Session?) async throws(DriverError) {
        switch action {
        case .keypress(let key, let count):
            try await sendKeys(Array(repeating: key, count: count), session: session)
        case .text(let keys):
            try await sendKeys(keys, session: session)
        case .launch(let appID, let contentID, let mediaType):
            if let session {
                _ = try await session.request(
                    "launch", Self.launchParameters(appID: appID, contentID: contentID, mediaType: mediaType))
            } else {
                try await ecp.command(
                    Self.launchPath(appID: appID, contentID: contentID, mediaType: mediaType))
            }
        case .power(let action):
            try await power(action)
        case .volume(let level):
            let current = state.withLock { $0.link.volume }
            guard let session, let current else {
                throw DriverError(
                    .unsupported,
                    "the volume level is known only while the ECP-2 session is up; use volume_up and volume_down")
            }
            let key = level > current ? "VolumeUp" : "VolumeDown"
            try await sendKeys(Array(repeating: key, count: abs(level - current)), session: session)
        case .mute(let on):
            guard let muted = state.withLock({ $0.link.session == nil ? nil : $0.link.muted }) else {
                throw DriverError(
                    .unsupported, "the mute state is known only while the ECP-2 session is up; use mute_toggle")
            }
            if muted != on { try await sendKeys(["VolumeMute"], session: session) }
        case .tune(let channel):
            try await tune(channel)
        case .hold(let key, let milliseconds):
            try await hold(key, for: .milliseconds(milliseconds), session: session)
        case .search(let request):
            try await search(request)
        }
    }

    /// Key presses in order: pipelined over the session, one request after another over HTTP.
    func sendKeys(_ keys: [String], session: RokuECP2Session?) async throws(DriverError) {
        Trace.mark(.driverSend)
        if let session {
            try await session.requests(keys.map { ("key-press", ["param-key": $0]) })
            return
        }
        for key in keys { try await ecp.command("/keypress/\(key)") }
    }

    /// ECP-2 `launch`: the deep-link parameters travel as a JSON string (Roam `ECPMessages`).
    static func launchParameters(appID: String, contentID: String?, mediaType: String?) -> [String: String] {
        var parameters = ["param-channel-id": appID]
        var deepLink: [String: JSONValue] = [:]
        if let contentID { deepLink["contentId"] = .string(contentID) }
        if let mediaType { deepLink["mediaType"] = .string(mediaType) }
        if !deepLink.isEmpty { parameters["param-params"] = JSONValue.object(deepLink).serialized() }
        return parameters
    }

    /// `/launch/<id>[?contentId=…&mediaType=…]`, every part percent-encoded.
    static func launchPath(appID: String, contentID: String?, mediaType: String?) -> String {
        var items: [(String, String)] = []
        if let contentID { items.append(("contentId", contentID)) }
        if let mediaType { items.append(("mediaType", mediaType)) }
        let path = "/launch/" + PercentEncoding.encodePathSegment(appID)
        return items.isEmpty ? path : path + "?" + PercentEncoding.buildQuery(items)
    }
}
