# ctest driver: runs one GoogleTest case that violates an assertion and
# passes only when the process fails (non-zero exit or a signal), the
# GoogleTest case did not pass, and the output names the assertion with
# file:line, time and instance. Variables: EXE FILTER EXPECT (a regex).
execute_process(COMMAND ${EXE} --gtest_filter=${FILTER}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
set(all "${out}${err}")
message("${all}")
if(rc EQUAL 0)
  message(FATAL_ERROR "expected the violated assertion to end the run, but it exited 0")
endif()
if(all MATCHES "\\[  PASSED  \\] 1 test")
  message(FATAL_ERROR "expected ${FILTER} to fail, GoogleTest reports it passed")
endif()
if(NOT all MATCHES "${EXPECT}")
  message(FATAL_ERROR "expected the failure message to match\n  ${EXPECT}")
endif()
message("ok: exit status '${rc}', message matched")
