#!/bin/sh
# Run once by Patroni on the first leader, after initdb (bootstrap.post_bootstrap): the `payments`
# database owned by the role that runs the migrations, and the services' runtime role, which owns
# nothing (docker/postgres-init does the same for the single-server compose). Replicas copy it.
set -eu
psql -v ON_ERROR_STOP=1 -d "$1" -v owner_password="$PCS_OWNER_PASSWORD" -v runtime_password="$PCS_RUNTIME_PASSWORD" <<'SQL'
CREATE ROLE payments LOGIN PASSWORD :'owner_password';
CREATE ROLE pcs_runtime LOGIN PASSWORD :'runtime_password';
CREATE DATABASE payments OWNER payments;
SQL
