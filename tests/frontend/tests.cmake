# frontend tests: the edit plan (always built) and, with libclang, the
# parser, candidate finder and planner.
ktc_unit_test(test_plan ${CMAKE_CURRENT_LIST_DIR}/test_plan.c)
