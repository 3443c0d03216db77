# rewriter: edits on source ranges, diffs, verification, the annotation
# rewriter. Built with the frontend (where libclang is found).
list(APPEND KTC_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/edit.c
  ${CMAKE_CURRENT_LIST_DIR}/diff.c
)
