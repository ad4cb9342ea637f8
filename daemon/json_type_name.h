// How error messages name a JSON value's type ("expected an object, got an
// array"), the same in requests and engine files.
#ifndef TUIDRIVER_JSON_TYPE_NAME_H_
#define TUIDRIVER_JSON_TYPE_NAME_H_

#include <simdjson.h>

namespace tuidriver {

inline const char* JsonTypeName(simdjson::dom::element_type t) {
  switch (t) {
    case simdjson::dom::element_type::ARRAY: return "an array";
    case simdjson::dom::element_type::OBJECT: return "an object";
    case simdjson::dom::element_type::STRING: return "a string";
    case simdjson::dom::element_type::BOOL: return "a boolean";
    case simdjson::dom::element_type::NULL_VALUE: return "null";
    default: return "a number";
  }
}

}  // namespace tuidriver

#endif  // TUIDRIVER_JSON_TYPE_NAME_H_
