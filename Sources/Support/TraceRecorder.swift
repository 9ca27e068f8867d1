#if TV2MQTT_TRACE
    import Glibc
    import Synchronization

    /// The recorder behind `Trace.mark` in a `TV2MQTT_TRACE` build: one command at a time, as
    /// `tvbench latency-budget` sends them. A PUBLISH handed to the bridge (`mqttDecoded`)
    /// starts a record; each later stage is stamped once, and only after the stages before it
    /// (a poll's HTTP request while no command is between `driverSend` and `socketWrite` is
    /// not stamped); `socketWrite` completes the record. At exit the records go to the file
    /// named by `TV2MQTT_TRACE_FILE`: a header of stage names, then a line per command of
    /// wall-clock nanoseconds, `-` for a stage the transport skipped.
    public final class TraceRecorder: Sendable {
        public static let shared = TraceRecorder()

        private struct State {
            var lastRead: Int64 = 0
            var current: [Int64]?
            var last: TraceStage?
            var completed: [[Int64]] = []
        }

        private let state = Mutex(State())
        private let path: String?

        private init() {
            path = getenv("TV2MQTT_TRACE_FILE").map { String(cString: $0) }
            state.withLock { $0.completed.reserveCapacity(8192) }
            atexit { TraceRecorder.shared.write() }
        }

        @usableFromInline
        func mark(_ stage: TraceStage) {
            let now = Self.nanoseconds()
            state.withLock { state in
                switch stage {
                case .mqttRead:
                    state.lastRead = now
                case .mqttDecoded:
                    var record = [Int64](repeating: -1, count: TraceStage.allCases.count)
                    record[TraceStage.mqttRead.rawValue] = state.lastRead
                    record[stage.rawValue] = now
                    state.current = record
                    state.last = stage
                default:
                    guard state.current != nil, let last = state.last, last.rawValue < stage.rawValue else { return }
                    // The driver's own stages follow the driver's hand-over, never a poll's request.
                    if stage.rawValue > TraceStage.driverSend.rawValue && last.rawValue < TraceStage.driverSend.rawValue
                    {
                        return
                    }
                    state.current?[stage.rawValue] = now
                    state.last = stage
                    if stage == .socketWrite, let record = state.current {
                        state.completed.append(record)
                        state.current = nil
                        state.last = nil
                    }
                }
            }
        }

        private func write() {
            guard let path, let file = fopen(path, "w") else { return }
            defer { fclose(file) }
            let records = state.withLock { $0.completed }
            fputs(TraceStage.allCases.map { "\($0)" }.joined(separator: " ") + "\n", file)
            for record in records {
                fputs(record.map { $0 < 0 ? "-" : String($0) }.joined(separator: " ") + "\n", file)
            }
        }

        private static func nanoseconds() -> Int64 {
            var spec = timespec()
            clock_gettime(CLOCK_REALTIME, &spec)
            return Int64(spec.tv_sec) * 1_000_000_000 + Int64(spec.tv_nsec)
        }
    }
#endif
