// Loaded (`node -r`) into an app process by tests that count what the app asks of Postgres:
// every query its pg clients send, and every client its pools hand out (TypeORM checks one out
// for each query or transaction). The counts are read over the IPC channel with
// `postgresCounts(app)` (postgres-probe.ts); the app itself is unchanged.
const pg = require('pg');

const counts = { queries: 0, checkouts: 0 };

const query = pg.Client.prototype.query;
pg.Client.prototype.query = function countedQuery(...args) {
  counts.queries += 1;
  return query.apply(this, args);
};

const connect = pg.Pool.prototype.connect;
pg.Pool.prototype.connect = function countedConnect(...args) {
  counts.checkouts += 1;
  return connect.apply(this, args);
};

process.on('message', (message) => {
  if (message && message.probe === 'postgres') {
    process.send?.({ probe: 'postgres', value: { ...counts } });
  }
});
process.channel?.unref();
