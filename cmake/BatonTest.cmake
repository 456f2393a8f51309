# baton_add_test(NAME name SOURCES main.cpp a_test.cpp ... [MODULE module] [LIBS lib ...]
#                [LABELS label ...] [TIMEOUT seconds])
# Declares one Boost.Test executable (the shared-library runner, so each suite compiles
# quickly) and registers it with CTest under the same name. Its entry point is the folder's
# main.cpp; where one folder's suites are different modules, main.cpp takes the module's
# name from MODULE (BATON_TEST_MODULE).
function(baton_add_test)
  cmake_parse_arguments(T "" "NAME;TIMEOUT;MODULE" "SOURCES;LIBS;LABELS" ${ARGN})
  add_executable(${T_NAME} ${T_SOURCES})
  target_compile_definitions(${T_NAME} PRIVATE BOOST_TEST_DYN_LINK)
  if(T_MODULE)
    target_compile_definitions(${T_NAME} PRIVATE BATON_TEST_MODULE=${T_MODULE})
  endif()
  target_link_libraries(${T_NAME} PRIVATE Boost::unit_test_framework baton::build_flags ${T_LIBS})
  add_test(NAME ${T_NAME} COMMAND ${T_NAME} --log_level=warning --report_level=short)
  if(NOT T_TIMEOUT)
    set(T_TIMEOUT 300)
  endif()
  # COST: `ctest -j` starts the costliest tests first, so that a long suite (test_jobs takes
  # 300 s in the ASan tree) does not start last and run alone while the other core idles. A
  # clean clone has no timings yet (CTest keeps them in Testing/Temporary/CTestCostData.txt
  # after a run), so the suite's time limit, which its author sized to its length, orders
  # the suites (docs/build.md).
  set_tests_properties(${T_NAME} PROPERTIES TIMEOUT ${T_TIMEOUT} COST ${T_TIMEOUT} LABELS "${T_LABELS}")
endfunction()
