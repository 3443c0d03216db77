# frontend (always built): the edit plan's JSON reader, checker and writer.
# Included by the top-level CMakeLists.txt whether or not libclang is found,
# so plans can be read and validated on any machine.
list(APPEND KTC_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/plan.c
  ${CMAKE_CURRENT_LIST_DIR}/plan_read.c
  ${CMAKE_CURRENT_LIST_DIR}/plan_check.c
)
