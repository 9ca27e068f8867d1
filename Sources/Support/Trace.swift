/// Where a command is on its way through the bridge, for the latency budget (`tvbench
/// latency-budget`, Sources/tvbench/README.md › Latency budget). In order; a transport skips the
/// stages it does not have (only Samsung encrypts).
public enum TraceStage: Int, CaseIterable, Sendable {
    /// The MQTT client's read from the broker returned (any bytes: the PUBLISH among them).
    case mqttRead
    /// The PUBLISH was decoded and handed to the bridge's message stream.
    case mqttDecoded
    /// The bridge's message task routed it to a command topic and found the TV's agent.
    case routed
    /// `CommandParser` turned the payload into commands.
    case parsed
    /// The driver planned them and the job is in the TV's queue.
    case planned
    /// The TV's command worker took the job.
    case dequeued
    /// The driver hands the request to its client (HTTP, ECP-2 session, Samsung channel).
    case driverSend
    /// The bytes for the wire are encoded (an HTTP request, a WebSocket frame).
    case encoded
    /// TLS made its records (Samsung's remote channel).
    case encrypted
    /// `send()` on the TV's socket is about to be called.
    case socketWrite
}

/// Timestamps along a command's path, taken only in a bridge built with the compilation
/// condition `TV2MQTT_TRACE` (`swift build -Xswiftc -DTV2MQTT_TRACE`, which `tvbench
/// latency-budget` does in `.build/trace`). In any other build `mark` is an empty inlined
/// function: the hot path pays nothing, and no recorder is compiled in (`TraceRecorder.swift`).
public enum Trace {
    @inlinable @inline(__always)
    public static func mark(_ stage: TraceStage) {
        #if TV2MQTT_TRACE
            TraceRecorder.shared.mark(stage)
        #endif
    }
}
