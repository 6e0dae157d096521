import { CustomFieldType, Prisma, SubscriberStatus } from '@email/data-access';
import type { WorkspaceId } from '@shared/core';
import { DomainError } from '@shared/errors';
import type { AudienceCondition, AudienceConditionGroup, AudienceDefinition, AudienceField, AudienceMatch, AudienceOperator } from './audience-definition';
import { calendarDay, conditionError, ConditionErrorCode, finiteNumber, flag, singleString, stringList, wholeDays } from './condition-values';
import { not, SEQUENCE_OPERATORS, sequenceMembership, TAG_OPERATORS, tagMembership } from './membership';
import { findRegion, REGION_NAMES, REGIONS } from './regions';

export interface CompileContext {
  workspaceId: WorkspaceId;
  /** The types of the workspace's custom fields that the definition names (see `customFieldIdsOf`). */
  customFieldTypes: ReadonlyMap<string, CustomFieldType>;
  /** The definitions of the workspace's segments the definition reaches through segment conditions (see `segmentIdsOf`). */
  segments: ReadonlyMap<string, AudienceDefinition>;
  /** The saved segment whose definition this is (being updated or previewed), so a reference back to it is a cycle. */
  currentSegmentId?: string | null;
  /** Today as YYYY-MM-DD (UTC), which `in_last_days` counts back from. */
  today: string;
}

/** Segments may reference segments this many levels deep. */
export const MAX_SEGMENT_DEPTH = 5;

/**
 * At most this many conditions once nested segments are expanded in place, each reference counting its segment's
 * conditions again: depth alone allows (20 × 20)^5, and the statement's size (planning time, bind parameters) grows with it.
 */
export const MAX_EXPANDED_CONDITIONS = 1_000;

/** The segments being expanded, outermost first, while compiling nested definitions. */
type Trail = readonly string[];

/** The context of one compilation, with the conditions compiled so far. */
interface Compiling extends CompileContext {
  readonly expanded: { conditions: number };
}

type Sql = Prisma.Sql;
type Compile = (condition: AudienceCondition, context: Compiling, trail: Trail) => Sql;

const combine = (match: AudienceMatch, predicates: Sql[]): Sql => Prisma.sql`(${Prisma.join(predicates, match === 'all' ? ' AND ' : ' OR ')})`;

const STATUSES = Object.values(SubscriberStatus);

function statusCondition(condition: AudienceCondition): Sql {
  const statuses = stringList(condition);
  const unknown = statuses.filter((status) => !STATUSES.includes(status as SubscriberStatus));
  if (unknown.length) throw conditionError(condition, `unknown status ${unknown.join(', ')} (one of ${STATUSES.join(', ')})`);
  return Prisma.sql`s.status::text = ANY(${statuses}::text[])`;
}

function countryCodes(condition: AudienceCondition): string[] {
  const codes = stringList(condition).map((code) => code.toUpperCase());
  const invalid = codes.filter((code) => !/^[A-Z]{2}$/.test(code));
  if (invalid.length) throw conditionError(condition, `${invalid.join(', ')} is not an ISO 3166-1 alpha-2 country code`);
  return codes;
}

function regionCodes(condition: AudienceCondition): string[] {
  return stringList(condition).flatMap((name) => {
    const region = findRegion(name);
    if (!region) throw conditionError(condition, `unknown region "${name}" (one of ${REGION_NAMES.join(', ')})`);
    return [...REGIONS[region]];
  });
}

const inCountries = (codes: string[]): Sql => Prisma.sql`s.country = ANY(${codes}::text[])`;

const negated =
  (compile: Compile): Compile =>
  (condition, context, trail) =>
    not(compile(condition, context, trail));

type OperatorTable = Partial<Record<AudienceOperator, Compile>>;

const STATUS_OPERATORS: OperatorTable = { is: statusCondition, is_not: negated(statusCondition) };

const countryIn = (condition: AudienceCondition) => inCountries(countryCodes(condition));
const regionIn = (condition: AudienceCondition) => inCountries(regionCodes(condition));
const countryMissing = () => Prisma.sql`s.country IS NULL`;
const COUNTRY_OPERATORS: OperatorTable = {
  is: countryIn,
  is_not: negated(countryIn),
  in_region: regionIn,
  not_in_region: negated(regionIn),
  is_empty: countryMissing,
  is_not_empty: negated(countryMissing),
};

const operatorTable = <Operator extends AudienceOperator>(operators: readonly Operator[], predicate: (operator: Operator) => Compile): OperatorTable =>
  Object.fromEntries(operators.map((operator) => [operator, predicate(operator)]));
const TAG_TABLE = operatorTable(
  TAG_OPERATORS,
  (operator) =>
    (condition, { workspaceId }) =>
      tagMembership(workspaceId, stringList(condition), operator),
);
const SEQUENCE_TABLE = operatorTable(
  SEQUENCE_OPERATORS,
  (operator) =>
    (condition, { workspaceId }) =>
      sequenceMembership(workspaceId, stringList(condition), operator),
);

const subscribedThroughForm = (condition: AudienceCondition, { workspaceId }: CompileContext): Sql => Prisma.sql`EXISTS (
  SELECT 1 FROM form_subscriptions fs
  WHERE fs.workspace_id = ${workspaceId} AND fs.subscriber_id = s.id AND fs.form_id = ANY(${stringList(condition)}::text[]))`;
const FORM_OPERATORS: OperatorTable = {
  is: subscribedThroughForm,
  is_not: negated(subscribedThroughForm),
  has_any_of: subscribedThroughForm,
  has_none_of: negated(subscribedThroughForm),
};

/** A segment condition is the referenced segments' own rules, expanded in place: one statement, however deep. */
const inSegment: Compile = (condition, context, trail) => {
  const rules = stringList(condition).map((segmentId) => {
    if (segmentId === context.currentSegmentId || trail.includes(segmentId)) {
      throw conditionError(condition, `segment "${segmentId}" leads back to a segment that references it`, 'segment_reference_cycle');
    }
    if (trail.length + 1 > MAX_SEGMENT_DEPTH) {
      throw conditionError(condition, `segments may nest at most ${MAX_SEGMENT_DEPTH} levels deep`, 'segment_nesting_too_deep');
    }
    const definition = context.segments.get(segmentId);
    if (!definition) throw conditionError(condition, `"${segmentId}" is not a segment of this workspace`);
    const expand = () => compileRule(definition, context, [...trail, segmentId]);
    return trail.length ? expand() : blamingOuterCondition(condition, segmentId, expand);
  });
  return combine('any', rules);
};

/** A refusal deep inside nested segments names the condition of the definition being compiled, which the caller can change. */
function blamingOuterCondition(condition: AudienceCondition, segmentId: string, expand: () => Sql): Sql {
  try {
    return expand();
  } catch (error) {
    if (!(error instanceof DomainError) || error.extra.condition_id === undefined) throw error;
    throw conditionError(condition, `through segment "${segmentId}": ${error.message.replace(/\.$/, '')}`, error.code as ConditionErrorCode);
  }
}
const SEGMENT_OPERATORS: OperatorTable = { is: inSegment, is_not: negated(inSegment), has_any_of: inSegment, has_none_of: negated(inSegment) };

// Engagement conditions read the per-subscriber rollup, whose opens are human opens only (machine opens have their own column).
const ENGAGEMENT_COLUMNS = {
  email_opened: Prisma.raw('g.last_opened_at'),
  email_unsubscribed: Prisma.raw('g.last_unsubscribed_at'),
  magic_link_clicked: Prisma.raw('g.last_magic_link_clicked_at'),
} as const;

const engaged =
  (when: (column: Sql, condition: AudienceCondition, context: CompileContext) => Sql): Compile =>
  (condition, context) => {
    const column = ENGAGEMENT_COLUMNS[condition.field as keyof typeof ENGAGEMENT_COLUMNS];
    return Prisma.sql`EXISTS (
  SELECT 1 FROM subscriber_engagement g
  WHERE g.workspace_id = ${context.workspaceId} AND g.subscriber_id = s.id AND ${when(column, condition, context)})`;
  };
const startOfDay = (day: string | Sql): Sql => Prisma.sql`(${day}::date::timestamp AT TIME ZONE 'UTC')`;
const everEngaged = engaged((column) => Prisma.sql`${column} IS NOT NULL`);
const ENGAGEMENT_OPERATORS: OperatorTable = {
  is: (condition, context, trail) => (flag(condition) ? everEngaged(condition, context, trail) : not(everEngaged(condition, context, trail))),
  // At least once from the start of the day `value` days ago (UTC), the same window as a date field's in_last_days.
  in_last_days: engaged(
    (column, condition, { today }) => Prisma.sql`${column} >= (${today}::date - ${wholeDays(condition)}::int)::timestamp AT TIME ZONE 'UTC'`,
  ),
  // At least once after the given day.
  after: engaged((column, condition) => Prisma.sql`${column} >= ${startOfDay(calendarDay(condition))} + interval '1 day'`),
  // The latest one was before the given day: it happened, and not since.
  before: engaged((column, condition) => Prisma.sql`${column} < ${startOfDay(calendarDay(condition))}`),
};

// Custom field values live in subscribers.custom_fields (jsonb keyed by field id), stored as the field's type
// demands: text → string, Number → number, Date → "YYYY-MM-DD", selects → string, Multi Select → array, Checkbox → boolean.
const json = (condition: AudienceCondition): Sql => Prisma.sql`(s.custom_fields -> ${condition.customFieldId})`;
const text = (condition: AudienceCondition): Sql => Prisma.sql`(s.custom_fields ->> ${condition.customFieldId})`;
const numeric = (condition: AudienceCondition): Sql => Prisma.sql`(CASE WHEN jsonb_typeof(${json(condition)}) = 'number' THEN ${text(condition)}::numeric END)`;
const day = (condition: AudienceCondition): Sql =>
  Prisma.sql`(CASE WHEN ${text(condition)} ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$' THEN ${text(condition)}::date END)`;

/** Missing, JSON null, an empty string or an empty list. */
const fieldEmpty = (condition: AudienceCondition): Sql => Prisma.sql`coalesce(${json(condition)}, 'null'::jsonb) IN ('null'::jsonb, '""'::jsonb, '[]'::jsonb)`;
const EMPTINESS: OperatorTable = { is_empty: fieldEmpty, is_not_empty: negated(fieldEmpty) };

// Text comparisons ignore case.
const textIs = (condition: AudienceCondition) => Prisma.sql`lower(${text(condition)}) = lower(${singleString(condition)})`;
const textContains = (condition: AudienceCondition) => Prisma.sql`strpos(lower(${text(condition)}), lower(${singleString(condition)})) > 0`;
const TEXT_OPERATORS: OperatorTable = {
  is: textIs,
  is_not: negated(textIs),
  contains: textContains,
  does_not_contain: negated(textContains),
  ...EMPTINESS,
};

const numberIs = (condition: AudienceCondition) => Prisma.sql`${numeric(condition)} = ${finiteNumber(condition)}::numeric`;
const NUMBER_OPERATORS: OperatorTable = {
  is: numberIs,
  is_not: negated(numberIs),
  greater_than: (condition) => Prisma.sql`${numeric(condition)} > ${finiteNumber(condition)}::numeric`,
  less_than: (condition) => Prisma.sql`${numeric(condition)} < ${finiteNumber(condition)}::numeric`,
  ...EMPTINESS,
};

const DATE_OPERATORS: OperatorTable = {
  on: (condition) => Prisma.sql`${day(condition)} = ${calendarDay(condition)}::date`,
  before: (condition) => Prisma.sql`${day(condition)} < ${calendarDay(condition)}::date`,
  after: (condition) => Prisma.sql`${day(condition)} > ${calendarDay(condition)}::date`,
  // From `value` days before today through today; later dates are not "in the last days".
  in_last_days: (condition, { today }) => Prisma.sql`${day(condition)} BETWEEN ${today}::date - ${wholeDays(condition)}::int AND ${today}::date`,
  ...EMPTINESS,
};

const choiceIn = (condition: AudienceCondition) => Prisma.sql`${text(condition)} = ANY(${stringList(condition)}::text[])`;
const SELECT_OPERATORS: OperatorTable = {
  is: choiceIn,
  is_not: negated(choiceIn),
  has_any_of: choiceIn,
  has_none_of: negated(choiceIn),
  ...EMPTINESS,
};

const choicesOverlap = (condition: AudienceCondition) => Prisma.sql`jsonb_exists_any(${json(condition)}, ${stringList(condition)}::text[])`;
const MULTI_SELECT_OPERATORS: OperatorTable = { has_any_of: choicesOverlap, has_none_of: negated(choicesOverlap), ...EMPTINESS };

// An unticked checkbox and one never answered both count as false.
const CHECKBOX_OPERATORS: OperatorTable = {
  is: (condition) => Prisma.sql`coalesce(${json(condition)} = 'true'::jsonb, false) = ${flag(condition)}`,
};

const CUSTOM_FIELD_OPERATORS: Record<CustomFieldType, OperatorTable> = {
  Text: TEXT_OPERATORS,
  Text_Area: TEXT_OPERATORS,
  Number: NUMBER_OPERATORS,
  Date: DATE_OPERATORS,
  Select_Dropdown: SELECT_OPERATORS,
  Single_Select: SELECT_OPERATORS,
  Multi_Select: MULTI_SELECT_OPERATORS,
  Checkbox: CHECKBOX_OPERATORS,
};

function operatorsOf(condition: AudienceCondition, context: CompileContext): OperatorTable {
  if (condition.field !== 'custom_field') return FIELD_OPERATORS[condition.field];
  if (!condition.customFieldId) throw conditionError(condition, 'customFieldId is required');
  const type = context.customFieldTypes.get(condition.customFieldId);
  if (!type) throw conditionError(condition, `"${condition.customFieldId}" is not a custom field of this workspace`);
  return CUSTOM_FIELD_OPERATORS[type];
}

const FIELD_OPERATORS: Record<Exclude<AudienceField, 'custom_field'>, OperatorTable> = {
  subscriber_status: STATUS_OPERATORS,
  country: COUNTRY_OPERATORS,
  segment: SEGMENT_OPERATORS,
  tag: TAG_TABLE,
  sequence: SEQUENCE_TABLE,
  form: FORM_OPERATORS,
  email_opened: ENGAGEMENT_OPERATORS,
  email_unsubscribed: ENGAGEMENT_OPERATORS,
  magic_link_clicked: ENGAGEMENT_OPERATORS,
};

function compileCondition(condition: AudienceCondition, context: Compiling, trail: Trail): Sql {
  if (++context.expanded.conditions > MAX_EXPANDED_CONDITIONS) {
    const why = `with the segments it references expanded, the definition has more than ${MAX_EXPANDED_CONDITIONS} conditions`;
    throw conditionError(condition, why, 'audience_definition_too_large');
  }
  const operators = operatorsOf(condition, context);
  const compile = operators[condition.operator];
  if (!compile) {
    const allowed = Object.keys(operators).join(', ');
    throw conditionError(condition, `the operator does not apply to this field (use one of ${allowed})`);
  }
  return compile(condition, context, trail);
}

const compileGroup = (group: AudienceConditionGroup, context: Compiling, trail: Trail): Sql =>
  combine(
    group.match,
    group.conditions.map((condition) => compileCondition(condition, context, trail)),
  );

function compileRule(definition: AudienceDefinition, context: Compiling, trail: Trail): Sql {
  const groups = definition.groups.map((group) => compileGroup(group, context, trail));
  return groups.length ? combine(definition.match, groups) : Prisma.sql`TRUE`;
}

/**
 * The definition as one parameterised predicate over `subscribers s`, the workspace bound in it and in every
 * subquery; user values only ever travel as bind parameters. A definition without groups matches everyone.
 */
export function compileAudience(definition: AudienceDefinition, context: CompileContext): Sql {
  return Prisma.sql`s.workspace_id = ${context.workspaceId} AND ${compileRule(definition, { ...context, expanded: { conditions: 0 } }, [])}`;
}

const conditionsOf = (definition: AudienceDefinition) => definition.groups.flatMap((group) => group.conditions);

/** The custom field ids a definition names, so their types can be read before compiling. */
export function customFieldIdsOf(definition: AudienceDefinition): string[] {
  const ids = conditionsOf(definition).flatMap((c) => (c.field === 'custom_field' && c.customFieldId ? [c.customFieldId] : []));
  return [...new Set(ids)];
}

/** The segment ids a definition's segment conditions name (not those of the segments they reach). */
export function segmentIdsOf(definition: AudienceDefinition): string[] {
  const values = conditionsOf(definition).flatMap((c) =>
    c.field !== 'segment' ? [] : typeof c.value === 'string' ? [c.value] : Array.isArray(c.value) ? c.value : [],
  );
  return [...new Set(values.map((id) => id.trim()).filter(Boolean))];
}
