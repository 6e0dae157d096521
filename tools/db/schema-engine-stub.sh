#!/bin/sh
# Placeholder for Prisma's native schema-engine binary, which cannot be downloaded here.
# scripts/db.mjs points PRISMA_SCHEMA_ENGINE_BINARY at this file so that `prisma generate`
# (which only needs WebAssembly) does not try to download the binary. Migrations are run
# by scripts/db.mjs through @prisma/schema-engine-wasm instead.
echo "schema-engine binary is not available in this environment; use 'node scripts/db.mjs migrate|diff' instead" >&2
exit 1
