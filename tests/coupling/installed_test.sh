#!/usr/bin/env bash
# The coupling bindings from an installed Baton (docs/embedding.md, "Installed"): installs
# the components coupling and python into a temporary prefix, builds a C program against
# include/baton/baton.h and -lbaton there and runs it, and imports the baton package from
# where it was installed (with the Python it was built for).
#
#   installed_test.sh CMAKE BUILD_DIR PYTHON
set -euo pipefail
cmake=$1 build=$2 python=$3
prefix=$(mktemp -d "${TMPDIR:-/tmp}/baton-coupling-installed.XXXXXX")
trap 'rm -rf "$prefix"' EXIT
"$cmake" --install "$build" --prefix "$prefix" --component coupling > /dev/null
"$cmake" --install "$build" --prefix "$prefix" --component python > /dev/null

cat > "$prefix/app.c" <<'C'
#include <baton/baton.h>
#include <stdio.h>
#include <string.h>

int main(void) {
  baton_layout* l;
  uint64_t rows = 0, cols = 0;
  if (baton_layout_create(&l, 10, 7, 8) != BATON_OK) return 1;
  baton_layout_add_node(l, "a");
  baton_layout_add_node(l, "b");
  baton_layout_distribute(l, 1, 2);
  if (baton_layout_local_shape(l, "b", &rows, &cols) != BATON_OK || rows != 10 || cols != 3) return 2;
  if (baton_layout_local_shape(l, "z", &rows, &cols) != BATON_UNKNOWN_NAME) return 3;
  printf("%s: %s\n", baton_status_name(BATON_UNKNOWN_NAME), baton_layout_error(l));
  baton_layout_destroy(l);
  return 0;
}
C
cc -std=c99 -Wall -Werror "$prefix/app.c" -I"$prefix/include" -L"$prefix/lib" -lbaton -o "$prefix/app"
LD_LIBRARY_PATH="$prefix/lib" "$prefix/app" | grep -q "BATON_UNKNOWN_NAME: node z is not in the layout's group"

package=$(find "$prefix" -name __init__.py -path '*/baton/*')
PYTHONPATH=$(dirname "$(dirname "$package")") "$python" -c '
import baton, numpy
assert baton.__file__.startswith("'"$prefix"'"), baton.__file__
layout = baton.layout((10, 7), numpy.float64, ["a", "b"], dim=1, block=2)
assert layout.local_shape(1) == (10, 3)
'
echo "installed coupling: ok"
