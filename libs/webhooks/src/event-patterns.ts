/**
 * How a subscription's event patterns select an event, as SQL: the exact type, `*`, or the type's family followed by
 * `.*` (`subscriber.*`). The outbox fan-out and an import asking whether anyone listens apply this one rule.
 * `patterns` is a text[] expression (a column), `type` a text expression; both come from our code, never from input.
 */
export function patternsSelectSql(patterns: string, type: string): string {
  return `${patterns} && ARRAY[${type}, '*', split_part(${type}, '.', 1) || '.*']`;
}
