# The CUDA samples (samples/cuda/): their CPU references, that every
# template parses with a valid default, that every configuration of every
# template compiles (NVRTC, when the CUDA backend is built), and that every
# original and template builds with nvcc (when nvcc is found). The GPU
# checkers run each original and template against its reference; without a
# device they exit 77 (skipped).
set(KTC_SAMPLES_DIR ${CMAKE_SOURCE_DIR}/samples/cuda)

add_executable(test_sample_refs ${CMAKE_CURRENT_LIST_DIR}/test_refs.c
  ${KTC_SAMPLES_DIR}/silu_and_mul/ref.c
  ${KTC_SAMPLES_DIR}/gelu_and_mul/ref.c
  ${KTC_SAMPLES_DIR}/rmsnorm/ref.c
  ${KTC_SAMPLES_DIR}/fused_add_rmsnorm/ref.c
  ${KTC_SAMPLES_DIR}/per_token_group_quant_fp8/ref.c
  ${KTC_SAMPLES_DIR}/per_tensor_quant_fp8/ref.c
  ${KTC_SAMPLES_DIR}/moe_align_block_size/ref.c
  ${KTC_SAMPLES_DIR}/moe_topk_softmax/ref.c
  ${KTC_SAMPLES_DIR}/moe_sum_reduce/ref.c
  ${KTC_SAMPLES_DIR}/merge_attn_states/ref.c
  ${KTC_SAMPLES_DIR}/rotary_embedding/ref.c
  ${KTC_SAMPLES_DIR}/transpose/ref.c)
target_include_directories(test_sample_refs PRIVATE ${CMAKE_SOURCE_DIR}
  ${CMAKE_SOURCE_DIR}/tests)
target_link_libraries(test_sample_refs PRIVATE m)
add_test(NAME sample_refs COMMAND test_sample_refs)
set_tests_properties(sample_refs PROPERTIES LABELS "samples;unit")

# sample|kernel kernel ... (the kernels of its template, in file order)
set(KTC_SAMPLES
  "silu_and_mul|silu_and_mul_kernel"
  "gelu_and_mul|gelu_and_mul_kernel"
  "rmsnorm|rmsnorm_kernel"
  "fused_add_rmsnorm|fused_add_rmsnorm_kernel"
  "per_token_group_quant_fp8|per_token_group_quant_fp8_kernel"
  "per_tensor_quant_fp8|per_tensor_absmax_kernel per_tensor_quant_fp8_kernel"
  "moe_align_block_size|moe_align_block_size_kernel count_and_sort_expert_tokens_kernel"
  "moe_topk_softmax|topk_softmax_kernel"
  "moe_sum_reduce|moe_sum_reduce_kernel"
  "merge_attn_states|merge_attn_states_kernel"
  "rotary_embedding|rotary_embedding_kernel"
  "transpose|transpose_kernel"
)

find_program(KTC_NVCC nvcc HINTS ${KTC_CUDA_ROOT}/bin)
foreach(entry ${KTC_SAMPLES})
  string(REPLACE "|" ";" fields "${entry}")
  list(GET fields 0 sample)
  list(GET fields 1 kernels)
  separate_arguments(kernels)
  set(tpl ${KTC_SAMPLES_DIR}/${sample}/${sample}.kt.cu)
  add_test(NAME sample_space_${sample}
           COMMAND ${CMAKE_CURRENT_LIST_DIR}/space.sh $<TARGET_FILE:ktc> ${tpl} ${kernels})
  set_tests_properties(sample_space_${sample} PROPERTIES LABELS samples)
  if("cuda" IN_LIST KTC_RUNTIME_BACKENDS)
    foreach(kernel ${kernels})
      add_test(NAME sample_compile_all_${kernel}
               COMMAND ${CMAKE_CURRENT_LIST_DIR}/compile_all.sh $<TARGET_FILE:ktc> ${tpl} ${kernel})
      set_tests_properties(sample_compile_all_${kernel} PROPERTIES
        LABELS "samples;cuda" TIMEOUT 3600
        ENVIRONMENT "KTC_SAMPLES_CACHE=${CMAKE_BINARY_DIR}/samples-cubin-cache")
    endforeach()
  endif()
  if(KTC_NVCC AND KTC_HAVE_LIBCLANG)
    # The template is annotate's output plus the stored hand diff, and at
    # its defaults it is the original (same PTX).
    add_test(NAME sample_provenance_${sample}
             COMMAND ${KTC_SAMPLES_DIR}/provenance.sh -k $<TARGET_FILE:ktc> ${sample})
    set_tests_properties(sample_provenance_${sample} PROPERTIES
      LABELS "samples;cuda" ENVIRONMENT "NVCC=${KTC_NVCC}")
  endif()
  if(KTC_NVCC)
    set(out ${CMAKE_BINARY_DIR}/samples-check)
    add_test(NAME sample_nvcc_${sample}
             COMMAND ${CMAKE_CURRENT_LIST_DIR}/nvcc_build.sh ${sample} ${out})
    set_tests_properties(sample_nvcc_${sample} PROPERTIES LABELS "samples;cuda"
      ENVIRONMENT "NVCC=${KTC_NVCC}" FIXTURES_SETUP sample_built_${sample})
    foreach(variant ${sample} ${sample}.kt)
      add_test(NAME sample_gpu_check_${variant} COMMAND ${out}/check_${variant} check)
      set_tests_properties(sample_gpu_check_${variant} PROPERTIES LABELS "samples;gpu"
        SKIP_RETURN_CODE 77 FIXTURES_REQUIRED sample_built_${sample})
    endforeach()
  endif()
endforeach()

# DIV=1 of per_token_group_quant_fp8 (a reciprocal and one fma correction
# instead of a division) gives the original's fp8 codes for every bf16
# input and scale: an exhaustive check, about 10 s.
add_executable(test_sample_divcheck ${KTC_SAMPLES_DIR}/per_token_group_quant_fp8/divcheck.c)
target_link_libraries(test_sample_divcheck PRIVATE m)
include(CheckCCompilerFlag)
check_c_compiler_flag(-mfma KTC_CC_HAS_MFMA)
if(KTC_CC_HAS_MFMA)
  target_compile_options(test_sample_divcheck PRIVATE -O2 -mfma)
endif()
add_test(NAME sample_divcheck COMMAND test_sample_divcheck)
set_tests_properties(sample_divcheck PROPERTIES LABELS "samples;slow")
