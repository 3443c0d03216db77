# grammar: unit tests, the parse checker and the golden diagnostics.
add_executable(kt-parse-check ${CMAKE_CURRENT_LIST_DIR}/parse_check.c)
target_link_libraries(kt-parse-check PRIVATE ktc_lib)
ktc_unit_test(test_grammar ${CMAKE_CURRENT_LIST_DIR}/test_grammar.c)
