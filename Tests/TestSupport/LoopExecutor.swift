import Net

/// Called before main by `TestLoopExecutor.c` unless `TV2MQTT_EXECUTOR=pool`: the tests' tasks
/// then run on the event loop's thread, as tv2mqtt's do (`EventLoop.becomeGlobalExecutor`).
@_cdecl("testsupport_become_loop_executor")
public func becomeLoopExecutor() {
    EventLoop.becomeGlobalExecutor(environment: [:])
}
