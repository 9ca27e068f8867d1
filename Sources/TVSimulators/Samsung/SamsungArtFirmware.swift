/// Which generation of The Frame's art channel a simulated Frame speaks (`tvsim samsung
/// --frame --art-firmware`), each in the shapes public reports of real TVs show.
///
/// - 2019: a status request is answered with `artmode_status`, `value` and the request's `id`
///   echoed, with `target_client_id`; messages come `from` the host's client id, which
///   `ms.channel.connect` lists with `isHost` (a 2019 Frame's capture in
///   tavicu/homebridge-samsung-tizen pull request 108; kdschlosser/samsungctl's docstrings).
///   The API version answers `get_api_version` only (samsungtvws issue 130: "0.97" on 2019 Frames).
/// - 2023: replies are named after their request and carry `request_id` (a 2024 Frame's debug
///   log in TheFab21/ha-samsungtv-smart issue 264: `get_slideshow_status` answered as
///   `get_slideshow_status` with `request_id` and `value`; samsungtvws's "v4/v5" art API
///   threads, issue 158); `api_version` answers "4.x"; messages come `from` "host".
/// - 2025: as 2023, and REST `/api/v2/` says `PowerState` "standby" while art shows (a 2025
///   Frame, `TQ50LS03FAUXXC`, model code `25_PTM_FTV`: samsung-tv-ws-api issue threads 33 and
///   185 in its two forks). Its version string is illustrative ("5.x"; none was captured).
public enum SamsungArtFirmware: String, Sendable, CaseIterable {
    case y2019 = "2019"
    case y2023 = "2023"
    case y2025 = "2025"

    /// The status reply's inner event name.
    var statusReplyName: String { self == .y2019 ? "artmode_status" : "get_artmode_status" }

    /// What `api_version` / `get_api_version` answer (nil: an error, as for any unknown request).
    func apiVersion(for request: String) -> String? {
        switch (self, request) {
        case (.y2019, "get_api_version"): "0.97"
        case (.y2023, "api_version"), (.y2023, "get_api_version"): "4.3.4.0"
        case (.y2025, "api_version"), (.y2025, "get_api_version"): "5.0.0.0"
        default: nil
        }
    }

    /// `device.model` and `device.modelName` a Frame of this generation reports, when they
    /// differ from the simulator's usual Frame.
    var identity: (code: String, name: String)? {
        self == .y2025 ? ("25_PTM_FTV", "TQ50LS03FAUXXC") : nil
    }
}

/// A misbehaving art channel, for tests (`SamsungSimulator.setArtFault`).
public enum SamsungArtFault: String, Sendable, CaseIterable {
    /// Art requests are read and never answered (some 2022 Frame firmware: samsungtvws issue
    /// 108, "art mode requests time out").
    case unanswered
    /// Status requests are refused with an `error` event (`error_code` "-1").
    case refused
    /// Each connection's status replies latch the value of its first one, while
    /// `art_mode_changed` follows the panel (ha-samsungtv-smart's finding); a new connection
    /// reads afresh.
    case latched
}
