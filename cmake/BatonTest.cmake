# baton_add_test(NAME name SOURCES a_test.cpp ... [LIBS lib ...]
#                [LABELS label ...] [TIMEOUT seconds] [RUN filter] [NEEDS tool ...] [ROOT])
# Declares one Boost.Test executable (the shared-library runner, so each suite compiles
# quickly) and registers it with CTest under the same name. Its entry point is
# tests/support/test_main.cpp, which names the module after the executable.
# RUN: Boost.Test's --run_test filter, when the executable's other cases are another CTest
# test's (baton_add_test_run): `!@etcd` here, `@etcd` there.
# NEEDS: programs on PATH that scripts/setup.sh installs (etcd, promtool, chromium, ...).
# Without one the test is skipped, saying which (tests/support/require_tools.sh exits 77,
# CTest's SKIP_RETURN_CODE), and fails under CI=true.
# ROOT: skipped, saying so, unless run as root (under CI=true too).
function(baton_add_test)
  cmake_parse_arguments(T "ROOT" "NAME;TIMEOUT;RUN" "SOURCES;LIBS;LABELS;NEEDS" ${ARGN})
  add_executable(${T_NAME} ${T_SOURCES})
  target_compile_definitions(${T_NAME} PRIVATE BOOST_TEST_DYN_LINK)
  target_link_libraries(${T_NAME} PRIVATE baton::test_main Boost::unit_test_framework baton::build_flags ${T_LIBS})
  if(T_ROOT)
    set(root ROOT)
  endif()
  baton_add_test_run(NAME ${T_NAME} EXECUTABLE ${T_NAME} RUN "${T_RUN}" NEEDS ${T_NEEDS} LABELS ${T_LABELS}
                     TIMEOUT "${T_TIMEOUT}" ${root})
endfunction()

# baton_add_test_run(NAME name EXECUTABLE target [RUN filter] [NEEDS tool ...] [ROOT]
#                    [LABELS ...] [TIMEOUT seconds])
# A CTest test that runs a baton_add_test executable, or the cases of it that RUN selects
# (those labelled for a tool, say), under the rules of NEEDS and ROOT above.
function(baton_add_test_run)
  cmake_parse_arguments(T "ROOT" "NAME;EXECUTABLE;TIMEOUT;RUN" "LABELS;NEEDS" ${ARGN})
  set(command $<TARGET_FILE:${T_EXECUTABLE}> --log_level=warning --report_level=short)
  if(T_RUN)
    list(APPEND command "--run_test=${T_RUN}")
  endif()
  if(T_ROOT)
    set(command ${BATON_REQUIRE_TOOLS} --root ${T_NEEDS} -- ${command})
  elseif(T_NEEDS)
    set(command ${BATON_REQUIRE_TOOLS} ${T_NEEDS} -- ${command})
  endif()
  add_test(NAME ${T_NAME} COMMAND ${command})
  if(NOT T_TIMEOUT)
    set(T_TIMEOUT 300)
  endif()
  # COST: `ctest -j` starts the costliest tests first, so that a long suite (test_jobs takes
  # 300 s in the ASan tree) does not start last and run alone while the other core idles. A
  # clean clone has no timings yet (CTest keeps them in Testing/Temporary/CTestCostData.txt
  # after a run), so the suite's time limit, which its author sized to its length, orders
  # the suites (docs/build.md).
  set_tests_properties(${T_NAME} PROPERTIES TIMEOUT ${T_TIMEOUT} COST ${T_TIMEOUT} LABELS "${T_LABELS}"
                       SKIP_RETURN_CODE 77)
endfunction()

# baton_add_configured_without(NAME name WHAT what PACKAGE package)
# Stands in for a test whose part CMake did not build for want of `what` (a Fortran
# compiler, Open MPI's C bindings): skipped saying so, a failure under CI=true.
function(baton_add_configured_without)
  cmake_parse_arguments(T "" "NAME;WHAT;PACKAGE" "" ${ARGN})
  add_test(NAME ${T_NAME} COMMAND ${BATON_REQUIRE_TOOLS} --configured-without "${T_WHAT}" ${T_PACKAGE})
  set_tests_properties(${T_NAME} PROPERTIES SKIP_RETURN_CODE 77)
endfunction()

# The runner of NEEDS, for tests registered with add_test (scripts, pytest) too.
set(BATON_REQUIRE_TOOLS ${PROJECT_SOURCE_DIR}/tests/support/require_tools.sh)
