/// Input names users type that are not the TV's own names: `HDMI1`, `hdmi 2`, `HDMI_3`,
/// `tuner`, `Live TV`, `AV`. The TV's names come first (a user may have renamed HDMI 1 to
/// "Blu-ray player"); these aliases find the input by its fixed id.
enum RokuInputAlias {
    static func resolve(_ name: String) -> (appID: String, key: String)? {
        let squashed = String(name.lowercased().filter { $0 != " " && $0 != "_" && $0 != "-" })
        switch squashed {
        case "hdmi1", "inputhdmi1": return ("tvinput.hdmi1", "InputHDMI1")
        case "hdmi2", "inputhdmi2": return ("tvinput.hdmi2", "InputHDMI2")
        case "hdmi3", "inputhdmi3": return ("tvinput.hdmi3", "InputHDMI3")
        case "hdmi4", "inputhdmi4": return ("tvinput.hdmi4", "InputHDMI4")
        case "tuner", "inputtuner", "livetv", "antenna", "antennatv", "dtv", "tv":
            return ("tvinput.dtv", "InputTuner")
        case "av", "av1", "inputav1", "cvbs", "composite": return ("tvinput.cvbs", "InputAV1")
        default: return nil
        }
    }
}
