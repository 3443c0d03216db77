# OpenCL backend tests: they run on PoCL (the CPU) where no GPU exists, and
# skip (exit 77) where the ICD loader finds no platform at all.
if(KTC_HAVE_OPENCL)
  ktc_unit_test(test_opencl ${CMAKE_CURRENT_LIST_DIR}/test_opencl.c)
  target_compile_definitions(test_opencl PRIVATE
    KTC_OPENCL_TESTS="${CMAKE_CURRENT_LIST_DIR}")
  set_tests_properties(test_opencl PROPERTIES LABELS "unit;opencl" TIMEOUT 300)
endif()
