# CUDA backend tests. Unit tests need no GPU; the compile-only runs need
# NVRTC only; tests labelled "gpu" exit 77 (skipped) where no device answers.
ktc_unit_test(test_buffers ${CMAKE_CURRENT_LIST_DIR}/test_buffers.c)
ktc_unit_test(test_verify ${CMAKE_CURRENT_LIST_DIR}/test_verify.c)
