import { intOption } from './cli';

/** The V8 memory flags a jobs worker runs with; 0 leaves V8's own value. */
export interface WorkerMemory {
  /** `--max-old-space-size`, in MB. */
  heapMb: number;
  /** `--max-semi-space-size`, in MB: the young generation's size, where an export's or an import's short-lived garbage is collected. */
  semiSpaceMb: number;
}

/** The options a worker bench adds to its own, for parseOptions. */
export const WORKER_MEMORY_OPTIONS = { 'worker-heap-mb': { type: 'string' }, 'worker-semi-space-mb': { type: 'string' } } as const;

/** How the usage text names them. */
export const workerMemoryUsage = (deployed: WorkerMemory) =>
  `--worker-heap-mb N (${deployed.heapMb}), --worker-semi-space-mb N (${deployed.semiSpaceMb}): the worker's V8 old-space and semi-space
  limits (--max-old-space-size, --max-semi-space-size), as it is deployed by default; 0 leaves V8's own, to see how
  much of the peak is garbage V8 had not collected yet.`;

export function workerMemoryOption(values: { 'worker-heap-mb'?: string; 'worker-semi-space-mb'?: string }, deployed: WorkerMemory): WorkerMemory {
  return {
    heapMb: intOption(values['worker-heap-mb'], 'worker-heap-mb', deployed.heapMb, 0, 65_536),
    semiSpaceMb: intOption(values['worker-semi-space-mb'], 'worker-semi-space-mb', deployed.semiSpaceMb, 0, 256),
  };
}

/** The worker process's environment for those limits. */
export function workerMemoryEnv({ heapMb, semiSpaceMb }: WorkerMemory): { NODE_OPTIONS?: string } {
  const flags = [heapMb && `--max-old-space-size=${heapMb}`, semiSpaceMb && `--max-semi-space-size=${semiSpaceMb}`].filter(Boolean);
  return flags.length ? { NODE_OPTIONS: flags.join(' ') } : {};
}

/** The figures a bench prints for them (null: V8's own). */
export const workerMemoryFigures = ({ heapMb, semiSpaceMb }: WorkerMemory) => ({
  worker_heap_limit_mb: heapMb || null,
  worker_semi_space_mb: semiSpaceMb || null,
});
