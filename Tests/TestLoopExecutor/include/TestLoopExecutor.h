// Makes the event loop the test process's global executor at load (TestLoopExecutor.c).
#pragma once
