# fuzz: the libFuzzer target for the pragma parser, built only with
#   CC=clang-19 cmake -DKTC_FUZZ=ON ...   (tests/fuzz/run.sh does this).
# The library is instrumented for coverage; a ctest replays the seed corpus.
if(KTC_FUZZ)
  if(NOT CMAKE_C_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "KTC_FUZZ needs clang: CC=clang-19 cmake -DKTC_FUZZ=ON ...")
  endif()
  foreach(s ${KTC_BUILT_STAGES})
    target_compile_options(ktc_${s} PRIVATE -fsanitize=fuzzer-no-link)
  endforeach()
  target_link_options(ktc_lib INTERFACE -fsanitize=fuzzer-no-link)
  add_executable(fuzz_parse ${CMAKE_CURRENT_LIST_DIR}/fuzz_parse.c)
  target_link_libraries(fuzz_parse PRIVATE ktc_lib)
  target_compile_options(fuzz_parse PRIVATE -fsanitize=fuzzer)
  target_link_options(fuzz_parse PRIVATE -fsanitize=fuzzer)
  add_test(NAME fuzz_parse_corpus
           COMMAND fuzz_parse -runs=0 ${CMAKE_CURRENT_LIST_DIR}/corpus
                   ${CMAKE_SOURCE_DIR}/tests/grammar/good
                   ${CMAKE_SOURCE_DIR}/tests/grammar/bad)
  set_tests_properties(fuzz_parse_corpus PROPERTIES LABELS fuzz)
endif()
