# grammar: the `#pragma kt` parser, in pipeline order (see grammar/grammar.h).
list(APPEND KTC_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/template.c
  ${CMAKE_CURRENT_LIST_DIR}/scan.c
  ${CMAKE_CURRENT_LIST_DIR}/lex.c
  ${CMAKE_CURRENT_LIST_DIR}/expr.c
  ${CMAKE_CURRENT_LIST_DIR}/parse.c
  ${CMAKE_CURRENT_LIST_DIR}/build.c
  ${CMAKE_CURRENT_LIST_DIR}/types.c
  ${CMAKE_CURRENT_LIST_DIR}/eval.c
  ${CMAKE_CURRENT_LIST_DIR}/apply.c
)
