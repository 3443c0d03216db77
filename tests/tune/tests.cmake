# tune: results, cache, T4, the simulation backend and the tuning driver.
ktc_unit_test(test_results ${CMAKE_CURRENT_LIST_DIR}/test_results.c)
