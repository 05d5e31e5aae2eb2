// The answers of the IDE features (ide/*.h) at fixture markers, rendered as text for the
// golden files: positions as 1-based `line:column` (bytes), ranges with the text they
// cover, so a golden reads without counting columns.
#pragma once

#include <string>

#include "lang/types/database.h"
#include "tests/ide/fixture.h"

namespace relay::ide_test {

// One section per marker, then one per whole-file query, in the fixture's order.
std::string run_queries(const Fixture& fixture, const FileCheck& check);

}  // namespace relay::ide_test
