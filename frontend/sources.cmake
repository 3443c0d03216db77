# frontend (libclang only): parsing, candidate literals, the built-in
# planner. The plan's JSON code is in plan.cmake and always builds.
list(APPEND KTC_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/parse.c
  ${CMAKE_CURRENT_LIST_DIR}/pch.c
  ${CMAKE_CURRENT_LIST_DIR}/ast.c
  ${CMAKE_CURRENT_LIST_DIR}/candidates.c
  ${CMAKE_CURRENT_LIST_DIR}/cap.c
  ${CMAKE_CURRENT_LIST_DIR}/classify.c
  ${CMAKE_CURRENT_LIST_DIR}/planner.c
  ${CMAKE_CURRENT_LIST_DIR}/derive.c
  ${CMAKE_CURRENT_LIST_DIR}/refactor.c
  ${CMAKE_CURRENT_LIST_DIR}/source.c
  ${CMAKE_CURRENT_LIST_DIR}/compdb.c
)
list(APPEND KTC_INCLUDES ${LIBCLANG_INCLUDE_DIR})
list(APPEND KTC_LIBS ${LIBCLANG_LIBRARY})
