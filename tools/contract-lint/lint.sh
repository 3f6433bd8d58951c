#!/usr/bin/env bash
# Lint an OpenAPI document (the one /openapi serves: app/target/openapi-served.yaml after `mvn verify`)
# with Redocly CLI (recommended rules) and Spectral (spectral:oas). Exits non-zero if either reports
# an error; warnings are printed and allowed. Needs `npm ci` in this folder first (docs/contract.md).
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
if [[ $# -ne 1 ]]; then
  echo "usage: $0 <openapi document>" >&2
  exit 2
fi
doc="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
if [[ ! -f "$doc" ]]; then
  echo "contract-lint: no document at $1 (run OpenApiTest or mvn verify first)" >&2
  exit 2
fi
if [[ ! -x "$here/node_modules/.bin/redocly" || ! -x "$here/node_modules/.bin/spectral" ]]; then
  echo "contract-lint: linters not installed; run (cd $here && npm ci --no-audit --no-fund)" >&2
  exit 2
fi
export REDOCLY_TELEMETRY=off REDOCLY_SUPPRESS_UPDATE_NOTICE=true NO_UPDATE_NOTIFIER=1
cd "$here"
status=0
echo "contract-lint: redocly lint (recommended) $doc"
"$here/node_modules/.bin/redocly" lint --config "$here/redocly.yaml" --format=stylish "$doc" || status=1
echo "contract-lint: spectral lint (spectral:oas) $doc"
"$here/node_modules/.bin/spectral" lint --ruleset "$here/.spectral.yaml" --fail-severity=error "$doc" || status=1
if (( status )); then
  echo "contract-lint: FAILED (errors above)" >&2
else
  echo "contract-lint: no errors"
fi
exit $status
