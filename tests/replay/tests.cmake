# Replays of recorded tuning runs through the sim backend, compared with
# their outputs recorded before the code moved into stage libraries
# (tests/replay/replay.sh): moving code must not change a result.
set(KTC_REPLAY_CASES
  silu_decode_bayes
  rmsnorm_decode_brute_force
  rmsnorm_decode_random
  rmsnorm_decode_simulated_annealing
  rmsnorm_decode_genetic
  rmsnorm_decode_local_search
  rmsnorm_decode_bayes
  landscape_rugged
  landscape_rugged_genetic
)
foreach(c ${KTC_REPLAY_CASES})
  add_test(NAME replay_${c}
           COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/replay.sh $<TARGET_FILE:ktc> ${c})
  set_tests_properties(replay_${c} PROPERTIES LABELS "tune;golden")
endforeach()
