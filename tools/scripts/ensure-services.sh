#!/usr/bin/env bash
# Starts the local Postgres, Redis and RabbitMQ of a development machine when they are not
# answering (the commands of this machine class), then waits until all three answer.
set -uo pipefail

up() { node "$(dirname "$0")/check-services.js" >/dev/null 2>&1; }
port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

if ! up; then
  if ! port_open 5432 && command -v pg_ctlcluster >/dev/null; then
    pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -1)" main start || true
  fi
  if ! port_open 6379 && command -v redis-server >/dev/null; then
    redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no \
      --dir /var/lib/redis --logfile /var/log/redis/ci.log || true
  fi
  if ! port_open 5672 && command -v rabbitmq-server >/dev/null; then
    rabbitmq-server -detached || true
  fi
fi

for _ in $(seq 1 60); do
  up && break
  sleep 2
done
node "$(dirname "$0")/check-services.js"
