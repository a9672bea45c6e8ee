// Attribute tables recycled from dead instances. An instance's table is a
// vector that __init__ grows one attribute at a time (an allocation and a
// move of the entries at each doubling); a table kept from a dead instance
// of the loop before keeps its capacity, so the next instance's __init__
// allocates nothing.
#pragma once

#include "runtime/interp/value.h"

namespace tfs::runtime {

// Gives a new instance (its table still empty) a pooled empty table with
// room, when there is one.
void reuseAttrTable(InstanceObject &inst);

// Called as an instance dies (Value::destroy): releases its attributes in
// the destructor's order and keeps the emptied table for reuseAttrTable.
// False when the pool is full (the instance is then destroyed as usual).
bool recycleAttrTable(InstanceObject &inst);

}  // namespace tfs::runtime
