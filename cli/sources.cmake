# The ktc executable: one file per subcommand.
set(KTC_CLI_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/main.c
  ${CMAKE_CURRENT_LIST_DIR}/args.c
  ${CMAKE_CURRENT_LIST_DIR}/cmd_space.c
  ${CMAKE_CURRENT_LIST_DIR}/cmd_tune.c
  ${CMAKE_CURRENT_LIST_DIR}/cmd_landscape.c
  ${CMAKE_CURRENT_LIST_DIR}/cmd_apply.c
  ${CMAKE_CURRENT_LIST_DIR}/cmd_check.c
)
if(KTC_HAVE_LIBCLANG)
  list(APPEND KTC_CLI_SOURCES ${CMAKE_CURRENT_LIST_DIR}/cmd_annotate.c
       ${CMAKE_CURRENT_LIST_DIR}/cmd_optimize.c)
endif()
if(KTC_HAVE_CUDA)
  list(APPEND KTC_CLI_SOURCES ${CMAKE_CURRENT_LIST_DIR}/cmd_export.c)
endif()
add_executable(ktc ${KTC_CLI_SOURCES})
target_link_libraries(ktc PRIVATE ktc_lib)
