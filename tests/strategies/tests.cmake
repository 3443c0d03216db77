# Search strategies: unit tests, and the efficiency benchmark's program.
ktc_unit_test(test_strategies ${CMAKE_CURRENT_LIST_DIR}/test_strategies.c)
