#include "interpreter/value.h"

namespace relay::rt {

Value make_tuple(std::vector<Value> fields) { return Value(make_ref<TupleObj>(std::move(fields))); }

}  // namespace relay::rt
