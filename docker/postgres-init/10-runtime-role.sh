#!/bin/sh
# The services' runtime role (contract §27): a login that owns nothing. The `payments` role owns the tables and
# runs the migrations (DATABASE_MIGRATION_URL); at every start they grant this role its rows and nothing more.
# Run once by the postgres image, on an empty data directory.
set -eu
psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname "$POSTGRES_DB" \
  -v runtime_password="$PCS_RUNTIME_PASSWORD" <<'SQL'
CREATE ROLE pcs_runtime LOGIN PASSWORD :'runtime_password';
SQL
