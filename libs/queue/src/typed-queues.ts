import type { Job, Queue } from 'bullmq';

/**
 * The BullMQ types of one queue, given a service's payload map (queue name → job data), so a processor reads and a
 * producer adds exactly the payload that queue carries.
 */
export type JobOf<Payloads, Name extends keyof Payloads> = Job<Payloads[Name]>;
export type QueueOf<Payloads, Name extends keyof Payloads> = Queue<Payloads[Name]>;
