/** Every queue of the forms service, named once. */
export const FormsQueues = {
  formsExport: 'forms-export',
  formsExportCleanup: 'forms-export-cleanup',
  formsUploadCleanup: 'forms-upload-cleanup',
  formsPaymentEventsPrune: 'forms-payment-events-prune',
  formsOAuthPurge: 'forms-oauth-purge',
} as const;

export type FormsQueueName = (typeof FormsQueues)[keyof typeof FormsQueues];

/** Which forms worker consumes which queues. */
export const FormsWorkerQueues = {
  'forms-worker': [
    FormsQueues.formsExport,
    FormsQueues.formsExportCleanup,
    FormsQueues.formsUploadCleanup,
    FormsQueues.formsPaymentEventsPrune,
    FormsQueues.formsOAuthPurge,
  ],
} as const satisfies Record<string, readonly FormsQueueName[]>;
