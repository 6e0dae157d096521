/** Every queue of the forms service, named once. */
export const FormsQueues = {
  formsExport: 'forms-export',
  formsUploadCleanup: 'forms-upload-cleanup',
} as const;

export type FormsQueueName = (typeof FormsQueues)[keyof typeof FormsQueues];

/** Which forms worker consumes which queues. */
export const FormsWorkerQueues = {
  'forms-worker': [FormsQueues.formsExport, FormsQueues.formsUploadCleanup],
} as const satisfies Record<string, readonly FormsQueueName[]>;
