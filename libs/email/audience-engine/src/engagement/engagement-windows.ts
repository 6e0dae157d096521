const DAY_MS = 86_400_000;

/** Three statement placeholders (or expressions): the instant counted as of, 30 days before it, 90 days before it. */
export type WindowBoundsSql = readonly [asOf: string, from30: string, from90: string];

/** The values for WindowBoundsSql's placeholders when counting as of `asOf`. */
export function windowBounds(asOf: Date): [string, string, string] {
  return [0, 30, 90].map((days) => new Date(asOf.getTime() - days * DAY_MS).toISOString()) as [string, string, string];
}

/**
 * What the rollup's window counts mean, in one place for the event writer and the daily refresh: a LATERAL subquery
 * giving one subscriber's human (not machine) opens and clicks in (asOf − 30 days, asOf] and (asOf − 90 days, asOf]
 * as opens_30d, opens_90d, clicks_30d, clicks_90d. `workspace` and `subscriber` are SQL expressions naming whose events.
 */
export function windowCountsSql(workspace: string, subscriber: string, [asOf, from30, from90]: WindowBoundsSql): string {
  return `(
    SELECT count(*) FILTER (WHERE e.type = 'opened' AND e.occurred_at > ${from30})::int AS opens_30d,
           count(*) FILTER (WHERE e.type = 'opened')::int AS opens_90d,
           count(*) FILTER (WHERE e.type = 'clicked' AND e.occurred_at > ${from30})::int AS clicks_30d,
           count(*) FILTER (WHERE e.type = 'clicked')::int AS clicks_90d
    FROM email_events e
    WHERE e.workspace_id = ${workspace} AND e.subscriber_id = ${subscriber} AND e.type IN ('opened', 'clicked') AND NOT e.machine
      AND e.occurred_at > ${from90} AND e.occurred_at <= ${asOf}
  )`;
}
