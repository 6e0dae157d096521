// Docker HEALTHCHECK: GET /healthz on HEALTH_PORT (workers) or PORT (APIs).
const port = process.env.HEALTH_PORT || process.env.PORT || '3000';
const path = process.env.HEALTHCHECK_PATH || '/healthz';
try {
  const res = await fetch(`http://127.0.0.1:${port}${path}`, { signal: AbortSignal.timeout(4000) });
  process.exit(res.ok ? 0 : 1);
} catch {
  process.exit(1);
}
