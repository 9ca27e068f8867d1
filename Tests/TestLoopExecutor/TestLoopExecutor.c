// Runs the tests on the executor tv2mqtt runs on: before main (so before Swift Testing creates
// its first task), the event loop becomes Swift's global executor, as tv2mqtt's main makes it,
// unless TV2MQTT_EXECUTOR=pool asks for Swift's thread pool (the control run).
#include <stdlib.h>
#include <string.h>

#include "TestLoopExecutor.h"

// TestSupport/LoopExecutor.swift.
extern void testsupport_become_loop_executor(void);

__attribute__((constructor)) static void run_tests_on_the_loop(void) {
    const char *choice = getenv("TV2MQTT_EXECUTOR");
    if (choice == NULL || strcmp(choice, "pool") != 0) testsupport_become_loop_executor();
}
