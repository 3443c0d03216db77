# deploy: wisdom files (per-shape results), the runtime library (ktcrt),
# `ktc export` and the Python package (docs/deploy.md).
ktc_unit_test(test_wisdom ${CMAKE_CURRENT_LIST_DIR}/test_wisdom.c)

# `ktc tune` over a grid of shapes, with a wisdom file, on PoCL.
if(KTC_HAVE_OPENCL)
  foreach(case wisdom resume warm_start refusals)
    add_test(NAME deploy_grid_${case}
             COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/grid_cli.sh ${case}
                     $<TARGET_FILE:ktc>)
    set_tests_properties(deploy_grid_${case} PROPERTIES
      LABELS "deploy;opencl" SKIP_RETURN_CODE 77 TIMEOUT 300)
  endforeach()
endif()
