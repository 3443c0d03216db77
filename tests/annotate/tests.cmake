# Tests of `ktc annotate` and its rewriter: unit tests of edits, diffs and
# verification; one golden-file test per folder of golden/ (run_golden.sh:
# UPDATE=1 regenerates the expected files); the failure cases of the CLI;
# clangd on the annotated files.
if(KTC_HAVE_LIBCLANG)
  ktc_unit_test(test_annotate_edit annotate/test_annotate_edit.c)
  ktc_unit_test(test_annotate_verify annotate/test_annotate_verify.c)
  ktc_unit_test(test_annotate_gen annotate/test_annotate_gen.c)
  file(GLOB KTC_ANNOTATE_CASES LIST_DIRECTORIES true
       ${CMAKE_CURRENT_LIST_DIR}/golden/*)
  foreach(c ${KTC_ANNOTATE_CASES})
    if(IS_DIRECTORY ${c})
      get_filename_component(n ${c} NAME)
      add_test(NAME annotate_golden_${n}
               COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/run_golden.sh
                       $<TARGET_FILE:ktc> ${c})
      set_tests_properties(annotate_golden_${n} PROPERTIES
                           LABELS "annotate;golden" SKIP_RETURN_CODE 77)
    endif()
  endforeach()
  add_test(NAME annotate_cli
           COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/cli_check.sh $<TARGET_FILE:ktc>)
  add_test(NAME annotate_compdb_in_build
           COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/compdb_check.sh $<TARGET_FILE:ktc>)
  add_test(NAME annotate_angled_project_header
           COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/angled_header_check.sh
                   $<TARGET_FILE:ktc>)
  add_test(NAME annotate_compdb_response_files
           COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/compdb_rsp_check.sh
                   $<TARGET_FILE:ktc>)
  add_test(NAME annotate_all_table
           COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/annotate_all_check.sh
                   $<TARGET_FILE:ktc>)
  add_test(NAME annotate_clangd
           COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/clangd_check.sh)
  add_test(NAME annotate_realcode_report
           COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/realcode_report_check.sh)
  set_tests_properties(annotate_cli annotate_compdb_in_build
                       annotate_compdb_response_files annotate_all_table
                       annotate_clangd annotate_realcode_report PROPERTIES
                       LABELS annotate SKIP_RETURN_CODE 77)
endif()
