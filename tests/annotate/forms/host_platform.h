// host_platform.h: a header of host declarations NVRTC cannot take as
// they are: an alias of an operating-system type, an alias defined for
// one platform only, a class with a field of that alias, and a host class
// template the file instantiates explicitly.
#pragma once
#include <sys/types.h>

#if defined(__linux__)
typedef int os_handle;
#else
typedef void *os_handle;
#endif
typedef pid_t os_process;

class simulation
{
	os_handle handle_;
	os_process owner_;

      public:
	void step(float *data, int n);
};

template <typename Real> class engine
{
      public:
	explicit engine(int n);
	void run(Real *data);

      private:
	int n_;
};
