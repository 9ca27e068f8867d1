import Glibc

/// Runs `body` on a new detached thread; runs it here when no thread can be made.
///
/// For blocking work (a write that fills a pipe, a 1 ms poll) that must not hold one of the
/// few threads async tasks run on, nor cost them a timer each time.
func runOnDetachedThread(_ body: @escaping @Sendable () -> Void) {
    final class Box: Sendable {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }
    let box = Unmanaged.passRetained(Box(body)).toOpaque()
    var thread = pthread_t()
    let created = pthread_create(
        &thread, nil,
        { argument in
            Unmanaged<Box>.fromOpaque(argument!).takeRetainedValue().body()
            return nil
        }, box)
    if created == 0 {
        pthread_detach(thread)
    } else {
        Unmanaged<Box>.fromOpaque(box).takeRetainedValue().body()
    }
}
