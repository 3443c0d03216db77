# planner: the edit plan's schema (life cycle, JSON writer, strict reader,
# checker), built everywhere so plans are read and checked on any machine,
# and the built-in planner (candidates -> plan), which reads the frontend's
# AST and so builds only where libclang is found.
list(APPEND KTC_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/plan.c
  ${CMAKE_CURRENT_LIST_DIR}/plan_read.c
  ${CMAKE_CURRENT_LIST_DIR}/plan_check.c
  ${CMAKE_CURRENT_LIST_DIR}/poly.c
  ${CMAKE_CURRENT_LIST_DIR}/variant.c
)
if(KTC_HAVE_LIBCLANG)
  list(APPEND KTC_SOURCES
    ${CMAKE_CURRENT_LIST_DIR}/planner.c
    ${CMAKE_CURRENT_LIST_DIR}/derive.c
    ${CMAKE_CURRENT_LIST_DIR}/instance.c
    ${CMAKE_CURRENT_LIST_DIR}/length.c
    ${CMAKE_CURRENT_LIST_DIR}/extent.c
    ${CMAKE_CURRENT_LIST_DIR}/refactor.c
    ${CMAKE_CURRENT_LIST_DIR}/precond.c
    ${CMAKE_CURRENT_LIST_DIR}/rows.c
    ${CMAKE_CURRENT_LIST_DIR}/reduce.c
    ${CMAKE_CURRENT_LIST_DIR}/pad.c
    ${CMAKE_CURRENT_LIST_DIR}/fastdiv.c
    ${CMAKE_CURRENT_LIST_DIR}/groups.c
    ${CMAKE_CURRENT_LIST_DIR}/nolaunch.c
  )
  list(APPEND KTC_INCLUDES ${LIBCLANG_INCLUDE_DIR})
  list(APPEND KTC_LIBS ${LIBCLANG_LIBRARY})
endif()
