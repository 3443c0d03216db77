# fuzz: the libFuzzer targets (the pragma parser, argument sizing, the
#   results readers, the LLM answer reader), built only with
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
  # fuzz_parse: the pragma parser; fuzz_args: the runtime's argument sizing
  # over parsed templates; fuzz_results: the cache and T4 readers; fuzz_llm:
  # the LLM answer reader and the variant body checker (where built).
  set(targets fuzz_parse fuzz_args fuzz_results)
  if(KTC_HAVE_LLM)
    list(APPEND targets fuzz_llm)
  endif()
  foreach(target ${targets})
    add_executable(${target} ${CMAKE_CURRENT_LIST_DIR}/${target}.c)
    target_link_libraries(${target} PRIVATE ktc_lib)
    target_include_directories(${target} PRIVATE ${CMAKE_SOURCE_DIR})
    target_compile_options(${target} PRIVATE -fsanitize=fuzzer)
    target_link_options(${target} PRIVATE -fsanitize=fuzzer)
  endforeach()
  add_test(NAME fuzz_parse_corpus
           COMMAND fuzz_parse -runs=0 ${CMAKE_CURRENT_LIST_DIR}/corpus
                   ${CMAKE_SOURCE_DIR}/tests/grammar/good
                   ${CMAKE_SOURCE_DIR}/tests/grammar/bad)
  add_test(NAME fuzz_args_corpus
           COMMAND fuzz_args -runs=0 ${CMAKE_CURRENT_LIST_DIR}/corpus
                   ${CMAKE_SOURCE_DIR}/tests/grammar/good)
  add_test(NAME fuzz_results_corpus
           COMMAND fuzz_results -runs=0 ${CMAKE_CURRENT_LIST_DIR}/results)
  set_tests_properties(fuzz_parse_corpus fuzz_args_corpus fuzz_results_corpus
                       PROPERTIES LABELS fuzz)
  if(KTC_HAVE_LLM)
    add_test(NAME fuzz_llm_corpus
             COMMAND fuzz_llm -runs=0 ${CMAKE_CURRENT_LIST_DIR}/llm)
    set_tests_properties(fuzz_llm_corpus PROPERTIES LABELS fuzz)
  endif()
endif()
