# tuner: sources of this stage are appended to KTC_SOURCES here.
list(APPEND KTC_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/eval.c
  ${CMAKE_CURRENT_LIST_DIR}/space.c
)
