# OpenCL backend tests: they run on PoCL (the CPU) where no GPU exists, and
# skip (exit 77) where the ICD loader finds no platform at all.
if(KTC_HAVE_OPENCL)
  ktc_unit_test(test_opencl ${CMAKE_CURRENT_LIST_DIR}/test_opencl.c)
  target_compile_definitions(test_opencl PRIVATE
    KTC_OPENCL_TESTS="${CMAKE_CURRENT_LIST_DIR}")
  set_tests_properties(test_opencl PROPERTIES LABELS "unit;opencl" TIMEOUT 300)

  # `ktc tune --backend opencl` end to end, one test per behaviour.
  add_executable(t4_check ${CMAKE_CURRENT_LIST_DIR}/t4_check.c)
  target_link_libraries(t4_check PRIVATE ktc_lib)
  foreach(case verified resume faults timed_runs_not_gamed writes_input_flagged
               specials worker_killed_retried
               no_platform build_error unknown_type)
    add_test(NAME opencl_tune_${case}
             COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/tune_cli.sh ${case}
                     $<TARGET_FILE:ktc> $<TARGET_FILE:t4_check>)
    set_tests_properties(opencl_tune_${case} PROPERTIES
      LABELS opencl SKIP_RETURN_CODE 77 TIMEOUT 300)
  endforeach()
endif()

# `ktc check --backend opencl` end to end, one test per behaviour.
if(KTC_HAVE_OPENCL)
  foreach(case finds_wrong_values narrows json interrupted bad_input)
    add_test(NAME opencl_check_${case}
             COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/check_cli.sh ${case}
                     $<TARGET_FILE:ktc>)
    set_tests_properties(opencl_check_${case} PROPERTIES
      LABELS opencl SKIP_RETURN_CODE 77 TIMEOUT 300)
  endforeach()
endif()

# The timing program of bench/opencl_matmul.sh, and a short run of it.
if(KTC_HAVE_OPENCL)
  add_executable(ktc-opencl-bench ${CMAKE_SOURCE_DIR}/bench/opencl_bench.c)
  target_link_libraries(ktc-opencl-bench PRIVATE ktc_lib)
  add_test(NAME opencl_bench_compares_two_configurations
           COMMAND ktc-opencl-bench --runs 3 --config BLOCK=64,ITEMS=4,CONTIG=1
                   ${CMAKE_SOURCE_DIR}/samples/opencl/saxpy.cl)
  set_tests_properties(opencl_bench_compares_two_configurations PROPERTIES
    LABELS opencl TIMEOUT 120
    PASS_REGULAR_EXPRESSION "tuned +BLOCK=64,ITEMS=4,CONTIG=1.*median [0-9.]+ ms.*speedup")
endif()

# `ktc optimize` and `ktc annotate` on OpenCL C files, end to end on PoCL.
if(KTC_HAVE_OPENCL AND KTC_HAVE_LIBCLANG)
  foreach(case elementwise rows vectorize wrong_value wrong_launch cuda_refused
               annotate_needs)
    add_test(NAME opencl_optimize_${case}
             COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/optimize_cli.sh ${case}
                     $<TARGET_FILE:ktc>)
    set_tests_properties(opencl_optimize_${case} PROPERTIES
      LABELS "opencl;optimize" SKIP_RETURN_CODE 77 TIMEOUT 300)
  endforeach()
endif()
