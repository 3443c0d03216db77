# Tests of the annotate rewriter: unit tests of edits, diffs and
# verification; golden-file tests of `ktc annotate` (see run_golden.sh).
if(KTC_HAVE_LIBCLANG)
  ktc_unit_test(test_annotate_edit annotate/test_annotate_edit.c)
  ktc_unit_test(test_annotate_verify annotate/test_annotate_verify.c)
endif()
