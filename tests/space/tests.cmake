# space: expression evaluation, the constrained search space, `ktc space`.
ktc_unit_test(test_eval ${CMAKE_CURRENT_LIST_DIR}/test_eval.c)
ktc_unit_test(test_space ${CMAKE_CURRENT_LIST_DIR}/test_space.c)

# Golden tests of `ktc space`: NAME, then the arguments after `ktc`; the
# expected output is golden/NAME.out (run with KTC_UPDATE_GOLDEN=1 to write).
function(ktc_space_golden name)
  add_test(NAME space_golden_${name}
           COMMAND sh ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/golden.sh $<TARGET_FILE:ktc>
                   ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/golden/${name}.out ${ARGN})
  set_tests_properties(space_golden_${name} PROPERTIES LABELS golden)
endfunction()

ktc_space_golden(vecadd space vecadd.kt.cu)
ktc_space_golden(vecadd_overrides space vecadd.kt.cu --problem N=4096
                 --device DEVICE_MAX_THREADS_PER_BLOCK=128 --list 5 --brute-force)
ktc_space_golden(vecadd_json space vecadd.kt.cu --json --list 3 --brute-force)
ktc_space_golden(two_kernels space two.kt.cu --list)
ktc_space_golden(pick_kernel space two.kt.cu --kernel scale --brute-force)
ktc_space_golden(no_such_kernel space two.kt.cu --kernel nope)
ktc_space_golden(divzero_some space divzero.kt.cu --brute-force)
ktc_space_golden(divzero_all space divzero_all.kt.cu)
ktc_space_golden(divzero_all_other_problem space divzero_all.kt.cu --problem N=16 --brute-force)
ktc_space_golden(empty space empty.kt.cu)
ktc_space_golden(parse_error space bad.kt.cu)
ktc_space_golden(missing_file space nothere.kt.cu)
ktc_space_golden(big space ../big.kt.cu)
ktc_space_golden(unknown_option space vecadd.kt.cu --bogus)
ktc_space_golden(no_file space)
ktc_space_golden(bad_problem space vecadd.kt.cu --problem N=four)
ktc_space_golden(unknown_problem space vecadd.kt.cu --problem M=4)
ktc_space_golden(unknown_device space vecadd.kt.cu --device DEVICE_FOO=4)
ktc_space_golden(bad_list space vecadd.kt.cu --list=x)
ktc_space_golden(help space --help)
