/// The key names that work on every TV (README › MQTT topics and commands, `key`).
public enum SharedKey: String, Sendable, CaseIterable {
    case powerOn = "power_on"
    case powerOff = "power_off"
    case home, back, up, down, left, right, select
    case playPause = "play_pause"
    case play, pause, stop, rewind
    case fastForward = "fast_forward"
    case replay, info, menu
    case volumeUp = "volume_up"
    case volumeDown = "volume_down"
    case mute
    case channelUp = "channel_up"
    case channelDown = "channel_down"
    case inputHDMI1 = "input_hdmi1"
    case inputHDMI2 = "input_hdmi2"
    case inputHDMI3 = "input_hdmi3"
    case inputHDMI4 = "input_hdmi4"
    case inputTuner = "input_tuner"
    case search
}
