// Says, service by service, whether Postgres, Redis and RabbitMQ answer at the addresses the
// apps will use. Exit 1 names every one that does not.
const net = require('node:net');

const checks = [
  ['PostgreSQL', process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/custodian', 5432],
  ['Redis', process.env.REDIS_URL || 'redis://127.0.0.1:6379', 6379],
  ['RabbitMQ', process.env.RABBITMQ_URL || 'amqp://guest:guest@127.0.0.1:5672', 5672],
];

function probe([name, url, defaultPort]) {
  const { hostname, port } = new URL(url);
  const target = { host: hostname || '127.0.0.1', port: Number(port || defaultPort) };
  return new Promise((resolve) => {
    const socket = net.connect(target);
    const done = (ok, detail) => {
      socket.destroy();
      resolve({ name, ok, where: `${target.host}:${target.port}`, detail });
    };
    socket.setTimeout(2_000, () => done(false, 'timed out'));
    socket.once('connect', () => done(true));
    socket.once('error', (error) => done(false, error.code ?? error.message));
  });
}

async function main() {
  const results = await Promise.all(checks.map(probe));
  for (const r of results) {
    console.log(`${r.ok ? 'ok  ' : 'DOWN'} ${r.name} at ${r.where}${r.ok ? '' : ` (${r.detail})`}`);
  }
  const down = results.filter((r) => !r.ok);
  if (down.length > 0) {
    console.error(
      `Not reachable: ${down.map((r) => r.name).join(', ')}. Start them, or point DATABASE_URL, REDIS_URL, RABBITMQ_URL at running servers.`,
    );
    process.exit(1);
  }
}

main();
