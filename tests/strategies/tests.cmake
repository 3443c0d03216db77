# Search strategies: unit tests, and the efficiency benchmark's program
# (bench/strategies.c, run by bench/strategies.sh; not a test).
ktc_unit_test(test_strategies ${CMAKE_CURRENT_LIST_DIR}/test_strategies.c)
add_executable(ktc-bench-strategies ${CMAKE_SOURCE_DIR}/bench/strategies.c)
target_link_libraries(ktc-bench-strategies PRIVATE ktc_lib)
