# Tests of `ktc optimize`: the loop end to end on a kernel of inputs/ with
# the rewriter's real verification and a backend of the test's own that
# times configurations by a formula; the CLI's refusals.
if(KTC_HAVE_LIBCLANG)
  ktc_unit_test(test_optimize optimize/test_optimize.c)
  target_compile_definitions(test_optimize PRIVATE
    KTC_TEST_INPUTS="${CMAKE_CURRENT_LIST_DIR}/inputs")
  set_tests_properties(test_optimize PROPERTIES LABELS "optimize;slow")
endif()
if(KTC_HAVE_LIBCLANG)
  add_test(NAME optimize_cli
           COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/cli_check.sh $<TARGET_FILE:ktc>)
  set_tests_properties(optimize_cli PROPERTIES LABELS optimize)
endif()
