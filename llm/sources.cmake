# llm: the LLM planner's client (an OpenAI-compatible chat-completions
# server over libcurl), its transcripts and replays, and the strict reader
# of the proposals it answers (cJSON; PCRE2 finds the JSON in free text).
# Built where libcurl and PCRE2 are found; without them `ktc optimize
# --planner llm` says so and the built-in planner needs neither.
if(NOT KTC_HAVE_LLM)
  return()
endif()
list(APPEND KTC_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/config.c
  ${CMAKE_CURRENT_LIST_DIR}/client.c
  ${CMAKE_CURRENT_LIST_DIR}/answer.c
)
list(APPEND KTC_INCLUDES ${CURL_INCLUDE_DIRS} ${PCRE2_INCLUDE_DIRS})
list(APPEND KTC_LIBS ${CURL_LINK_LIBRARIES} ${PCRE2_LINK_LIBRARIES})
