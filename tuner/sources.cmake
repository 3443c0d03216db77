# tuner: sources of this stage are appended to KTC_SOURCES here.
list(APPEND KTC_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/space.c
)
# search strategies (tuner/strategy*.c, tuner/strat_*.c)
list(APPEND KTC_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/strategy.c
  ${CMAKE_CURRENT_LIST_DIR}/strategy_util.c
  ${CMAKE_CURRENT_LIST_DIR}/strategy_gp.c
  ${CMAKE_CURRENT_LIST_DIR}/strat_brute.c
  ${CMAKE_CURRENT_LIST_DIR}/strat_random.c
  ${CMAKE_CURRENT_LIST_DIR}/strat_anneal.c
  ${CMAKE_CURRENT_LIST_DIR}/strat_genetic.c
  ${CMAKE_CURRENT_LIST_DIR}/strat_local.c
  ${CMAKE_CURRENT_LIST_DIR}/strat_bayes.c
)
# results: kt_result and status names, the append-only cache, T4 files,
# the tuning driver, synthetic landscapes, wisdom files (per-shape bests)
list(APPEND KTC_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/result.c
  ${CMAKE_CURRENT_LIST_DIR}/results.c
  ${CMAKE_CURRENT_LIST_DIR}/cache.c
  ${CMAKE_CURRENT_LIST_DIR}/t4.c
  ${CMAKE_CURRENT_LIST_DIR}/tune.c
  ${CMAKE_CURRENT_LIST_DIR}/check.c
  ${CMAKE_CURRENT_LIST_DIR}/landscape.c
  ${CMAKE_CURRENT_LIST_DIR}/wisdom.c
)
