// Runs once before the tests: checks PostgreSQL and Redis, then (re)builds the migrated template databases.
const { execFileSync } = require('node:child_process');
const net = require('node:net');
const path = require('node:path');
const { Client } = require('pg');

const root = path.resolve(__dirname, '../..');
const server = (process.env.TEST_DATABASE_SERVER_URL ?? 'postgresql://postgres@127.0.0.1:5432').replace(/\/+$/, '');

function reachable(host, port) {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port, timeout: 2000 }, () => socket.end(() => resolve(true)));
    socket.on('error', () => resolve(false));
    socket.on('timeout', () => socket.destroy() && resolve(false));
  });
}

/** Test databases carry their creator's process id (`pl_test_<service>_p<pid>_<random>`). */
function creatorAlive(datname) {
  const pid = Number(/_p(\d+)_[0-9a-f]+$/.exec(datname)?.[1]);
  if (!pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

module.exports = async function globalSetup() {
  const pg = new URL(server);
  const redis = new URL(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
  if (!(await reachable(pg.hostname, Number(pg.port || 5432)))) throw new Error(`PostgreSQL is not reachable at ${pg.host}; start it first.`);
  if (!(await reachable(redis.hostname, Number(redis.port || 6379)))) throw new Error(`Redis is not reachable at ${redis.host}; start it first.`);

  const admin = new Client({ connectionString: `${server}/postgres` });
  await admin.connect();
  try {
    // Leftovers of crashed runs (not the templates, which are kept and migrated forward). A database somebody is
    // connected to belongs to a run still going on (another terminal, an editor), so it is left alone.
    const { rows } = await admin.query(
      `SELECT datname FROM pg_database d
        WHERE datname LIKE 'pl\\_test\\_%' AND datname NOT LIKE '%\\_template'
          AND NOT EXISTS (SELECT 1 FROM pg_stat_activity a WHERE a.datname = d.datname)`,
    );
    for (const { datname } of rows) {
      if (creatorAlive(datname)) continue; // created a moment ago by a run that has not connected yet
      await admin.query(`DROP DATABASE IF EXISTS "${datname}"`).catch(() => {});
    }
  } finally {
    await admin.end();
  }
  for (const service of ['email', 'forms']) {
    // execFileSync throws with the child's stderr when migrating fails; success stays quiet.
    execFileSync(process.execPath, [path.join(root, 'scripts/db.mjs'), 'migrate', '--service', service, '--url', `${server}/pl_test_${service}_template`], {
      stdio: 'pipe',
    });
  }
};
