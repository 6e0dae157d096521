import { CustomFieldType } from '@email/data-access';

/** The API's type names and their database enum members. */
export const CUSTOM_FIELD_TYPES = ['Text', 'Number', 'Date', 'Select (Dropdown)', 'Single Select', 'Multi Select', 'Text Area', 'Checkbox'] as const;
export type CustomFieldTypeName = (typeof CUSTOM_FIELD_TYPES)[number];

const TO_DB: Record<CustomFieldTypeName, CustomFieldType> = {
  Text: 'Text',
  Number: 'Number',
  Date: 'Date',
  'Select (Dropdown)': 'Select_Dropdown',
  'Single Select': 'Single_Select',
  'Multi Select': 'Multi_Select',
  'Text Area': 'Text_Area',
  Checkbox: 'Checkbox',
};
const FROM_DB = Object.fromEntries(Object.entries(TO_DB).map(([api, db]) => [db, api])) as Record<CustomFieldType, CustomFieldTypeName>;

export const toDbType = (type: CustomFieldTypeName): CustomFieldType => TO_DB[type];
export const toApiType = (type: CustomFieldType): CustomFieldTypeName => FROM_DB[type];

export const CHOICE_TYPES: readonly CustomFieldTypeName[] = ['Select (Dropdown)', 'Single Select', 'Multi Select'];
