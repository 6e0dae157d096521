/** Every queue of the forms service, named once. */
export const FormsQueues = {
  formsExport: 'forms-export',
  formsExportCleanup: 'forms-export-cleanup',
  formsUploadCleanup: 'forms-upload-cleanup',
} as const;

export type FormsQueueName = (typeof FormsQueues)[keyof typeof FormsQueues];

/** Which forms worker consumes which queues. */
export const FormsWorkerQueues = {
  'forms-worker': [FormsQueues.formsExport, FormsQueues.formsExportCleanup, FormsQueues.formsUploadCleanup],
} as const satisfies Record<string, readonly FormsQueueName[]>;
