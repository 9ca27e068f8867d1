// With TV2MQTT_EXECUTOR=loop, runs the tests on the executor tv2mqtt runs on: before main (so
// before Swift Testing creates its first task), the event loop becomes Swift's global executor,
// as tv2mqtt's main makes it. Without it the tests run on Swift's thread pool: on one thread, the
// synchronous work of some tests' set-up (certificates, fixtures) holds up the others' deadlines.
#include <stdlib.h>
#include <string.h>

#include "TestLoopExecutor.h"

// TestSupport/LoopExecutor.swift.
extern void testsupport_become_loop_executor(void);

__attribute__((constructor)) static void run_tests_on_the_loop(void) {
    const char *choice = getenv("TV2MQTT_EXECUTOR");
    if (choice != NULL && strcmp(choice, "loop") == 0) testsupport_become_loop_executor();
}
