// Placeholder until the blocked strided copy lands.
#include <stdexcept>

#include "core/format/format.hpp"

namespace ll {

ElementMap element_map(const Pipeline&) {
    throw std::logic_error("element_map: not yet implemented");
}
std::vector<int64_t> stage_offsets(const Pipeline&, size_t) {
    throw std::logic_error("stage_offsets: not yet implemented");
}
Executor::Executor(Pipeline p) : p_(std::move(p)) {}
int64_t Executor::src_bytes() const {
    return bytes_for(p_.dtype, numel(p_.src_shape));
}
int64_t Executor::dst_bytes() const {
    return bytes_for(p_.dtype, numel(p_.dst_shape));
}
void Executor::run(const void*, void*) const {
    throw std::logic_error("Executor: not yet implemented");
}
std::vector<uint8_t> Executor::run(const std::vector<uint8_t>&) const {
    throw std::logic_error("Executor: not yet implemented");
}
double load_element(DType, const void*, int64_t) {
    throw std::logic_error("not yet implemented");
}
void store_element(DType, void*, int64_t, double) {
    throw std::logic_error("not yet implemented");
}

}  // namespace ll
