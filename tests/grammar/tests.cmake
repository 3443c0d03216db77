# grammar: unit tests, the parse checker and the golden diagnostics.
add_executable(kt-parse-check ${CMAKE_CURRENT_LIST_DIR}/parse_check.c)
target_link_libraries(kt-parse-check PRIVATE ktc_lib)
ktc_unit_test(test_grammar ${CMAKE_CURRENT_LIST_DIR}/test_grammar.c)

# Golden files: one ctest per input, so a failure names its file.
file(GLOB KTC_GRAMMAR_GOLDEN RELATIVE ${CMAKE_CURRENT_LIST_DIR} CONFIGURE_DEPENDS
     ${CMAKE_CURRENT_LIST_DIR}/bad/*.cu ${CMAKE_CURRENT_LIST_DIR}/bad/*.cl
     ${CMAKE_CURRENT_LIST_DIR}/good/*.cu ${CMAKE_CURRENT_LIST_DIR}/good/*.cl)
foreach(f ${KTC_GRAMMAR_GOLDEN})
  string(REGEX REPLACE "[/.]" "_" name ${f})
  add_test(NAME grammar_${name}
           COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/golden.sh $<TARGET_FILE:kt-parse-check> ${f})
  set_tests_properties(grammar_${name} PROPERTIES LABELS golden)
endforeach()
