export * from './exports.module';
export * from './export-selection';
export * from './submission-export.service';
export * from './export-runner';
export * from './export-cleanup';
export { headerRow, submissionRow, workbookLayout, METADATA_HEADERS } from './workbook-layout';
export type { ExportedSubmission, FieldColumn, WorkbookLayout } from './workbook-layout';
