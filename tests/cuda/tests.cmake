# CUDA backend tests. Unit tests need no GPU; the compile-only runs need
# NVRTC only; tests labelled "gpu" exit 77 (skipped) where no device answers.
ktc_unit_test(test_buffers ${CMAKE_CURRENT_LIST_DIR}/test_buffers.c)
ktc_unit_test(test_verify ${CMAKE_CURRENT_LIST_DIR}/test_verify.c)
if(KTC_HAVE_CUDA)
  ktc_unit_test(test_compile ${CMAKE_CURRENT_LIST_DIR}/test_compile.c)
  ktc_unit_test(test_cfg ${CMAKE_CURRENT_LIST_DIR}/test_cfg.c)
  # `ktc tune --backend cuda --compile-only` on templates: name, template,
  # configurations that must fail to compile [/ be rejected as over the
  # device's limits], options. (The samples' templates are compiled whole by
  # tests/samples/tests.cmake.)
  set(KTC_CUDA_COMPILE_ONLY
    "static_assert|tests/cuda/static_assert.kt.cu|2|-n|0"
    "faults|tests/cuda/faults.kt.cu|0|-n|0"
    "limits|tests/cuda/limits.kt.cu|0/3|-n|0"
    "types|tests/cuda/types.kt.cu|0/0|-n|0"
    "silu_mul|tests/cuda/silu_mul.kt.cu|0|-n|24"
    "saxpy|tests/grammar/good/saxpy.cu|0|-n|0"
    "matmul|tests/grammar/good/matmul.cu|0|-n|12"
  )
  foreach(entry ${KTC_CUDA_COMPILE_ONLY})
    string(REPLACE "|" ";" fields "${entry}")
    list(GET fields 0 name)
    list(GET fields 1 tpl)
    list(GET fields 2 fails)
    list(SUBLIST fields 3 -1 extra)
    add_test(NAME cuda_compile_only_${name}
             COMMAND ${CMAKE_CURRENT_LIST_DIR}/compile_only.sh
                     $<TARGET_FILE:ktc> ${CMAKE_SOURCE_DIR}/${tpl} ${fails} ${extra})
    set_tests_properties(cuda_compile_only_${name} PROPERTIES LABELS cuda)
  endforeach()
endif()
# `ktc apply`: golden output, and nvcc compiles it (tests/cuda/apply.sh).
add_test(NAME cuda_apply_silu_mul
         COMMAND ${CMAKE_CURRENT_LIST_DIR}/apply.sh $<TARGET_FILE:ktc>
                 ${CMAKE_CURRENT_LIST_DIR}/silu_mul.kt.cu
                 ${CMAKE_CURRENT_LIST_DIR}/silu_mul.applied.cu)
set_tests_properties(cuda_apply_silu_mul PROPERTIES LABELS golden)
add_test(NAME cuda_apply_edges
         COMMAND ${CMAKE_CURRENT_LIST_DIR}/apply.sh $<TARGET_FILE:ktc>
                 ${CMAKE_CURRENT_LIST_DIR}/apply_edge.kt.cu
                 ${CMAKE_CURRENT_LIST_DIR}/apply_edge.applied.cu)
set_tests_properties(cuda_apply_edges PROPERTIES LABELS golden)
