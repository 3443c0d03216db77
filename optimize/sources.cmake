# optimize: the semantic refactoring loop (`ktc optimize`): the built-in
# planner's refactors tried one round at a time, each template rewritten
# and verified by the rewriter and tuned at every shape by the tuner.
# Built where libclang is found, as the rewriter is.
if(NOT KTC_HAVE_LIBCLANG)
  return()
endif()
list(APPEND KTC_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/complete.c
  ${CMAKE_CURRENT_LIST_DIR}/analysis.c
  ${CMAKE_CURRENT_LIST_DIR}/report.c
  ${CMAKE_CURRENT_LIST_DIR}/odd.c
  ${CMAKE_CURRENT_LIST_DIR}/llm_plan.c
  ${CMAKE_CURRENT_LIST_DIR}/optimize.c
)
