/// What a TV can do, which decides the Home Assistant entities it gets (README › Home Assistant setup).
///
/// A Roku stick gets no power, volume or input entities; a Roku reports a volume level only
/// over ECP-2; a Samsung's volume comes from UPnP RenderingControl.
public struct TVCapabilities: Equatable, Sendable, Codable {
    /// Can be switched on and off (Roku TVs and Samsung TVs; not a streaming stick).
    public var power: Bool
    /// Volume up/down and mute keys work.
    public var volumeKeys: Bool
    /// The volume level can be read and set (0–100): the `volume` number entity.
    public var volumeLevel: Bool
    /// The mute state can be read and set: the `mute` switch entity.
    public var muteState: Bool
    /// Selectable inputs, in display order ("HDMI1", "Antenna TV"…); empty = no `input` select.
    public var inputs: [String]
    /// The TV says which input is showing (a Roku TV: an input is its active app), so the state
    /// document can say `"input": null` while an app is showing. False where only switching
    /// works (Tizen has no source query): the field is then left out, as unknown.
    public var inputState: Bool
    /// Installed or configured apps, by name, in display order: the `app` select's options.
    public var apps: [String]
    /// Text can be typed into the TV's on-screen keyboard.
    public var keyboard: Bool
    /// The TV reports whether media is playing.
    public var mediaState: Bool
    /// The TV can be in a "limited mode" where a setting on it refuses remote control.
    public var limitedMode: Bool
    /// Channel up/down make sense (a tuner).
    public var channels: Bool
    /// The tuner's channels as the `channel` select's options ("7.1 KQED"), in the TV's order;
    /// empty = no select (no tuner, no scan yet, or not read).
    public var channelList: [String] = []
    /// The key that makes the TV's remote beep, where the TV can: the `find_remote` button
    /// presses it through `set/key`; nil = no button.
    public var findRemoteKey: String?
    /// Readings only this vendor has, as diagnostic text sensors (`DiagnosticSensor`).
    public var diagnosticSensors: [DiagnosticSensor] = []
    /// The TV says which tuner channel and program are on screen (a Roku TV's
    /// `tv-active-channel`): the `current_channel` and `media_title` sensors. A Samsung has
    /// channel keys (`channels`) but reports no channel.
    public var channelInfo: Bool = false
    /// The TV gives the current app's icon: the `app_icon` image entity (`AppIcon`).
    public var appIcons: Bool = false
    /// Switches and selects only this vendor has (`DeclaredControl`).
    public var controls: [DeclaredControl] = []
    /// The picture can be switched off and on while the TV stays on: the `screen` switch.
    public var screenControl: Bool = false
    /// The sound outputs the TV lists, by id ("tv_speaker", "external_arc"…): the
    /// `sound_output` select's options; empty = no select.
    public var soundOutputs: [String] = []
    /// The TV can show a short message on screen: the `toast` notify entity.
    public var toast: Bool = false
    /// The bridge can ask the TV to approve it ahead of a command (a Samsung Tizen TV's
    /// remote-channel prompt, `tv/pair`): the `pair` button.
    public var pairing: Bool = false
    /// Pairing may show a code on the TV to type back (an LG's PIN, an Android TV's code,
    /// `tv/pair` with `pin`): the `pairing_code` text.
    public var pairingPIN: Bool = false

    public init(
        power: Bool = false, volumeKeys: Bool = false, volumeLevel: Bool = false, muteState: Bool = false,
        inputs: [String] = [], inputState: Bool = false, apps: [String] = [], keyboard: Bool = false,
        mediaState: Bool = false, limitedMode: Bool = false, channels: Bool = false
    ) {
        self.power = power
        self.volumeKeys = volumeKeys
        self.volumeLevel = volumeLevel
        self.muteState = muteState
        self.inputs = inputs
        self.inputState = inputState
        self.apps = apps
        self.keyboard = keyboard
        self.mediaState = mediaState
        self.limitedMode = limitedMode
        self.channels = channels
    }
}
