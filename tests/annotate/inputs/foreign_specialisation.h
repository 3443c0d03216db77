// foreign_specialisation.h: a trait with a specialisation over a host
// library's type, as vLLM's cuda_vec_utils.cuh specialises
// PackedTypeConverter for c10::Half.
#pragma once
#include <vector>

template <typename T> struct Width {
	static constexpr int value = sizeof(T);
};

template <> struct Width<std::vector<float>> {
	static constexpr int value = 0;
};
