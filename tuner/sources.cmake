# tuner: sources of this stage are appended to KTC_SOURCES here.
list(APPEND KTC_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/eval.c
  ${CMAKE_CURRENT_LIST_DIR}/space.c
)
# results: the append-only cache, T4 files, the tuning driver
list(APPEND KTC_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/results.c
  ${CMAKE_CURRENT_LIST_DIR}/cache.c
  ${CMAKE_CURRENT_LIST_DIR}/t4.c
)
