# GPU tests (ctest label "gpu"): they exit 77, counted as skipped, where no
# CUDA device answers. tests/gpu/run.sh runs them with the demos on a GPU
# machine and collects the numbers for docs/cuda-backend.md.
if(KTC_HAVE_CUDA)
  ktc_unit_test(test_cuda_gpu ${CMAKE_CURRENT_LIST_DIR}/test_cuda_gpu.c)
  set_tests_properties(test_cuda_gpu PROPERTIES LABELS gpu TIMEOUT 600)
  add_executable(cuda_bench ${CMAKE_CURRENT_LIST_DIR}/cuda_bench.c)
  target_link_libraries(cuda_bench PRIVATE ktc_lib)
endif()
