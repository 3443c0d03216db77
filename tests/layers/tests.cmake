# layers: every edge between folders points down (scripts/graph.sh), and
# docs/architecture.md shows the graph; libktc.a exports kt_ names alone and
# a host program with its own lex_next and parse_block links with it.
set(full 0)
if(KTC_HAVE_LIBCLANG AND KTC_HAVE_CUDA AND KTC_HAVE_OPENCL)
  set(full 1)
endif()
add_test(NAME layers_graph_points_down
         COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/graph_check.sh ${CMAKE_SOURCE_DIR}
                 ${CMAKE_BINARY_DIR} ${full})
add_test(NAME layers_graph_rejects_up_includes
         COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/graph_rejects.sh ${CMAKE_SOURCE_DIR}
                 ${CMAKE_BINARY_DIR})
add_test(NAME layers_libktc_exports_kt_only
         COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/exports_check.sh ${KTC_ARCHIVE})
add_executable(host_symbols ${CMAKE_CURRENT_LIST_DIR}/host_symbols.c)
target_include_directories(host_symbols PRIVATE ${CMAKE_SOURCE_DIR}/include)
target_link_libraries(host_symbols PRIVATE ${KTC_ARCHIVE} ${KTC_ALL_LIBS})
add_dependencies(host_symbols ktc_archive)
add_test(NAME layers_host_defines_lex_next COMMAND host_symbols)
set_tests_properties(layers_graph_points_down layers_graph_rejects_up_includes
                     layers_libktc_exports_kt_only
                     layers_host_defines_lex_next PROPERTIES LABELS layers)
