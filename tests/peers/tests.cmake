# bench/peers.sh (ktc beside Kernel Tuner and SGLang's kernels) runs on a
# GPU machine only; here: its report generator on invented results, its
# scripts' syntax, and (with nvcc) that a sample tuned and written out by
# `ktc apply` builds behind the bench's C entry point.
find_package(Python3 COMPONENTS Interpreter)
if(Python3_FOUND)
  add_test(NAME peers_report_fixture
           COMMAND ${CMAKE_CURRENT_LIST_DIR}/report.sh $<TARGET_FILE:ktc> ${Python3_EXECUTABLE})
  set_tests_properties(peers_report_fixture PROPERTIES LABELS bench)
endif()
find_program(KTC_PEERS_NVCC nvcc HINTS ${KTC_CUDA_ROOT}/bin)
if(KTC_PEERS_NVCC)
  add_test(NAME peers_ktc_build
           COMMAND ${CMAKE_CURRENT_LIST_DIR}/ktc_build.sh $<TARGET_FILE:ktc> ${KTC_PEERS_NVCC})
  set_tests_properties(peers_ktc_build PROPERTIES LABELS "bench;slow" TIMEOUT 600)
endif()
