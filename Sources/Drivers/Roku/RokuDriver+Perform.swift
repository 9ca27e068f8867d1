import TVModel
import Wire

extension RokuDriver {
    /// Carries out a command: validated again here (the planner is the one source of what is
    /// sent), then the ECP requests in order. A 403 Limited mode is remembered, so the next
    /// snapshot says `limited_mode: true`.
    public func perform(_ command: TVCommand) async throws(DriverError) {
        let action: RokuAction
        do {
            action = try planner.plan(command)
        } catch {
            throw DriverError(.rejected, error.message)
        }
        do {
            try await run(action)
        } catch {
            noteLimitedMode(error)
            throw error
        }
    }

    func run(_ action: RokuAction) async throws(DriverError) {
        switch action {
        case .keypress(let key, let count):
            for _ in 0..<count { try await ecp.command("/keypress/\(key)") }
        case .text(let keys):
            for key in keys { try await ecp.command("/keypress/\(key)") }
        case .launch(let appID, let contentID, let mediaType):
            try await ecp.command(
                Self.launchPath(appID: appID, contentID: contentID, mediaType: mediaType))
        case .power(let action):
            try await power(action)
        }
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
