/** Payloads carried by each forms queue. Jobs carry ids, never personal data. */
export interface FormsJobPayloads {
  'forms-export': { workspaceId: string; exportId: string };
  'forms-upload-cleanup': Record<string, never>;
}
