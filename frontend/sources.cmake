# frontend: all of ktc's libclang code (parsing, the AST, candidate
# literals, what the rewriter reads of a file, compile_commands.json).
# names.c (the candidates' enum names) builds without libclang too.
list(APPEND KTC_SOURCES ${CMAKE_CURRENT_LIST_DIR}/names.c)
if(KTC_HAVE_LIBCLANG)
  list(APPEND KTC_SOURCES
    ${CMAKE_CURRENT_LIST_DIR}/parse.c
    ${CMAKE_CURRENT_LIST_DIR}/pch.c
    ${CMAKE_CURRENT_LIST_DIR}/ast.c
    ${CMAKE_CURRENT_LIST_DIR}/access.c
    ${CMAKE_CURRENT_LIST_DIR}/candidates.c
    ${CMAKE_CURRENT_LIST_DIR}/launch.c
    ${CMAKE_CURRENT_LIST_DIR}/cap.c
    ${CMAKE_CURRENT_LIST_DIR}/gridfree.c
    ${CMAKE_CURRENT_LIST_DIR}/classify.c
    ${CMAKE_CURRENT_LIST_DIR}/source.c
    ${CMAKE_CURRENT_LIST_DIR}/compdb.c
  )
  list(APPEND KTC_INCLUDES ${LIBCLANG_INCLUDE_DIR})
  list(APPEND KTC_LIBS ${LIBCLANG_LIBRARY})
endif()
