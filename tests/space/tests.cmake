# space: expression evaluation and the constrained search space.
ktc_unit_test(test_eval ${CMAKE_CURRENT_LIST_DIR}/test_eval.c)
ktc_unit_test(test_space ${CMAKE_CURRENT_LIST_DIR}/test_space.c)
