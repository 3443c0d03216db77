/*
 * check.h - the unit-test harness: CHECK() records a failure with its place
 * and goes on; each test file's main() calls RUN(test) and ends with
 * check_summary(), which prints "N passed, N failed" and returns the status.
 */
#ifndef KTC_TESTS_CHECK_H
#define KTC_TESTS_CHECK_H

#include <stdio.h>
#include <string.h>

static int check_failures_, check_passed_, check_failed_;

#define CHECK(cond)                                                            \
	do {                                                                   \
		if (!(cond)) {                                                 \
			fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, \
			        __LINE__, #cond);                              \
			check_failures_++;                                     \
		}                                                              \
	} while (0)

#define CHECK_EQ_INT(a, b)                                                     \
	do {                                                                   \
		long long a_ = (long long)(a), b_ = (long long)(b);            \
		if (a_ != b_) {                                                \
			fprintf(                                               \
			    stderr,                                            \
			    "%s:%d: check failed: %s == %s (%lld != %lld)\n",  \
			    __FILE__, __LINE__, #a, #b, a_, b_);               \
			check_failures_++;                                     \
		}                                                              \
	} while (0)

#define CHECK_EQ_STR(a, b)                                                     \
	do {                                                                   \
		const char *a_ = (a), *b_ = (b);                               \
		if (!a_ || !b_ || strcmp(a_, b_)) {                            \
			fprintf(                                               \
			    stderr,                                            \
			    "%s:%d: check failed: %s == %s ('%s' != '%s')\n",  \
			    __FILE__, __LINE__, #a, #b, a_ ? a_ : "(null)",    \
			    b_ ? b_ : "(null)");                               \
			check_failures_++;                                     \
		}                                                              \
	} while (0)

#define RUN(test)                                                              \
	do {                                                                   \
		int before_ = check_failures_;                                 \
		test();                                                        \
		if (check_failures_ == before_) {                              \
			check_passed_++;                                       \
		} else {                                                       \
			check_failed_++;                                       \
			fprintf(stderr, "FAIL %s\n", #test);                   \
		}                                                              \
	} while (0)

static inline int check_summary(void)
{
	printf("%d passed, %d failed\n", check_passed_, check_failed_);
	return check_failed_ ? 1 : 0;
}

#endif
