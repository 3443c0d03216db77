// header_traits.h: a header whose host types reach further than their
// own declarations: a class that derives from a template over a host
// type, and a variable template whose initialiser libclang does not show.
#pragma once
#include <array>
#include <string>

struct host_name {
	std::string s;
};

template <typename T> struct ref_base {
	T *p;
};

struct name_ref : ref_base<host_name> {
	int id;
};

template <typename... Ts>
inline constexpr std::array<host_name, sizeof...(Ts)> kNames{};

__device__ inline float twice(float x)
{
	return 2.0f * x;
}
