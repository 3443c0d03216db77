# Tests of the LLM planner: the client against a scripted chat-completions
# server on loopback (tests/llm/server.c, plain sockets in a thread of the
# test), and the loop of `ktc optimize --planner llm` end to end with it.
if(KTC_HAVE_LLM)
  add_library(ktc_llm_server STATIC ${CMAKE_CURRENT_LIST_DIR}/server.c)
  target_include_directories(ktc_llm_server PUBLIC ${CMAKE_SOURCE_DIR}/tests
                             ${CJSON_INCLUDE_DIR})
  target_link_libraries(ktc_llm_server PUBLIC ${CJSON_LIBRARY} Threads::Threads)
  ktc_unit_test(test_llm_client llm/test_llm_client.c)
  target_link_libraries(test_llm_client PRIVATE ktc_llm_server)
  set_tests_properties(test_llm_client PROPERTIES LABELS "llm;unit" TIMEOUT 120)
endif()
if(KTC_HAVE_LLM AND KTC_HAVE_LIBCLANG)
  ktc_unit_test(test_llm_optimize llm/test_llm_optimize.c llm/host_backend.c)
  target_link_libraries(test_llm_optimize PRIVATE ktc_llm_server)
  target_compile_definitions(test_llm_optimize PRIVATE
    KTC_TEST_INPUTS="${CMAKE_SOURCE_DIR}/tests/optimize/inputs")
  set_tests_properties(test_llm_optimize PROPERTIES LABELS "llm;optimize;slow"
                       TIMEOUT 900)
endif()
if(KTC_HAVE_LLM AND KTC_HAVE_LIBCLANG)
  add_test(NAME llm_cli
           COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/cli_check.sh $<TARGET_FILE:ktc>)
  set_tests_properties(llm_cli PROPERTIES LABELS "llm;optimize")
endif()
if(KTC_HAVE_LLM AND KTC_HAVE_LIBCLANG)
  ktc_unit_test(test_llm_replay llm/test_llm_replay.c)
  set_tests_properties(test_llm_replay PROPERTIES LABELS "llm;optimize;slow"
                       TIMEOUT 900)
endif()
# the variant body checker is the planner's (built everywhere)
ktc_unit_test(test_body_check llm/test_body_check.c)
