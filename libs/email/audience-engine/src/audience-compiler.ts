import { CustomFieldType, Prisma, SubscriberStatus } from '@email/data-access';
import type { WorkspaceId } from '@shared/core';
import type { AudienceCondition, AudienceConditionGroup, AudienceDefinition, AudienceField, AudienceMatch, AudienceOperator } from './audience-definition';
import { calendarDay, conditionError, finiteNumber, flag, singleString, stringList, wholeDays } from './condition-values';
import { findRegion, REGION_NAMES, REGIONS } from './regions';

export interface CompileContext {
  workspaceId: WorkspaceId;
  /** The types of the workspace's custom fields that the definition names (see `customFieldIdsOf`). */
  customFieldTypes: ReadonlyMap<string, CustomFieldType>;
  /** Today as YYYY-MM-DD (UTC), which `in_last_days` counts back from. */
  today: string;
}

type Sql = Prisma.Sql;
type Compile = (condition: AudienceCondition, context: CompileContext) => Sql;

/** Negative operators are the exact complement of their positive: a NULL (no country, no value) counts as not matching. */
const not = (predicate: Sql): Sql => Prisma.sql`NOT coalesce((${predicate}), false)`;

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

const hasTag = (condition: AudienceCondition, { workspaceId }: CompileContext): Sql => Prisma.sql`EXISTS (
  SELECT 1 FROM subscriber_tags st
  WHERE st.workspace_id = ${workspaceId} AND st.subscriber_id = s.id AND st.tag_id = ANY(${stringList(condition)}::text[]))`;

/** `states` null: any enrolment, whatever its state. */
const enrolled =
  (states: string[] | null): Compile =>
  (condition, { workspaceId }) => Prisma.sql`EXISTS (
  SELECT 1 FROM sequence_enrollments e
  WHERE e.workspace_id = ${workspaceId} AND e.subscriber_id = s.id AND e.sequence_id = ANY(${stringList(condition)}::text[])
    ${states ? Prisma.sql`AND e.state::text = ANY(${states}::text[])` : Prisma.empty})`;

const negated =
  (compile: Compile): Compile =>
  (condition, context) =>
    not(compile(condition, context));

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

const TAG_OPERATORS: OperatorTable = { has_any_of: hasTag, has_none_of: negated(hasTag) };

const SEQUENCE_OPERATORS: OperatorTable = {
  is_active_in_any_of: enrolled(['active']),
  is_not_active_in_any_of: negated(enrolled(['active'])),
  has_completed_any_of: enrolled(['completed']),
  has_not_completed_any_of: negated(enrolled(['completed'])),
  has_ever_been_in_any_of: enrolled(null),
  has_never_been_in_any_of: negated(enrolled(null)),
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
  if (condition.field !== 'custom_field') return FIELD_OPERATORS[condition.field]!;
  if (!condition.customFieldId) throw conditionError(condition, 'customFieldId is required');
  const type = context.customFieldTypes.get(condition.customFieldId);
  if (!type) throw conditionError(condition, `"${condition.customFieldId}" is not a custom field of this workspace`);
  return CUSTOM_FIELD_OPERATORS[type];
}

const FIELD_OPERATORS: Partial<Record<AudienceField, OperatorTable>> = {
  subscriber_status: STATUS_OPERATORS,
  country: COUNTRY_OPERATORS,
  tag: TAG_OPERATORS,
  sequence: SEQUENCE_OPERATORS,
};

/** Fields whose data this server does not record yet (saved segments, forms, engagement events). */
export const FIELDS_NOT_AVAILABLE: readonly AudienceField[] = ['segment', 'form', 'email_opened', 'email_unsubscribed', 'magic_link_clicked'];

function compileCondition(condition: AudienceCondition, context: CompileContext): Sql {
  if (FIELDS_NOT_AVAILABLE.includes(condition.field)) {
    throw conditionError(condition, `this server does not record ${condition.field} data yet`, 'audience_field_not_available');
  }
  const operators = operatorsOf(condition, context);
  const compile = operators[condition.operator];
  if (!compile) {
    const allowed = Object.keys(operators).join(', ');
    throw conditionError(condition, `the operator does not apply to this field (use one of ${allowed})`);
  }
  return compile(condition, context);
}

const compileGroup = (group: AudienceConditionGroup, context: CompileContext): Sql =>
  combine(
    group.match,
    group.conditions.map((condition) => compileCondition(condition, context)),
  );

/**
 * The definition as one parameterised predicate over `subscribers s`, the workspace bound in it and in every
 * subquery; user values only ever travel as bind parameters. A definition without groups matches everyone.
 */
export function compileAudience(definition: AudienceDefinition, context: CompileContext): Sql {
  const groups = definition.groups.map((group) => compileGroup(group, context));
  const rule = groups.length ? combine(definition.match, groups) : Prisma.sql`TRUE`;
  return Prisma.sql`s.workspace_id = ${context.workspaceId} AND ${rule}`;
}

/** The custom field ids a definition names, so their types can be read before compiling. */
export function customFieldIdsOf(definition: AudienceDefinition): string[] {
  const ids = definition.groups.flatMap((group) => group.conditions.flatMap((c) => (c.field === 'custom_field' && c.customFieldId ? [c.customFieldId] : [])));
  return [...new Set(ids)];
}
