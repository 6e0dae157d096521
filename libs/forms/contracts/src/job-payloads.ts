/** Payloads carried by each forms queue. Jobs carry ids, never personal data. */
export interface FormsJobPayloads {
  /** Runs one spreadsheet export (a `submission_exports` row); the job id is the export id. */
  'forms-export': { workspaceId: string; exportId: string };
  'forms-export-cleanup': Record<string, never>;
  'forms-upload-cleanup': Record<string, never>;
  'forms-payment-events-prune': Record<string, never>;
  'forms-oauth-purge': Record<string, never>;
}
