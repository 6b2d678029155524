/** The messages of the fault vocabulary (src/faults/types.ts): what a fault is and where it strikes. */
export const FAULT_CODES = [
  'fault.at',
  'fault.atQty',
  'fault.after',
  'fault.point.label',
  'fault.point.seq',
  'fault.point.eventOfTool',
  'fault.point.ofTool',
  'fault.point.attempt',
  'fault.point.call',
  'fault.point.any',
  'fault.point.and',
  'fault.attempts',
  'fault.anyTool',
  'fault.none',
  'fault.list',
  // a worker's fault (docs/spec.md §11): the worker, then where in its loop
  'workers.point.anyWorker',
  'workers.point.claimReply',
  'workers.point.claimed',
  'workers.point.finish',
  'workers.point.saved',
  'workers.point.anEvent',
  'workers.point.request',
  'workers.point.aRequest',
  'workers.point.ofGrant',
  'workers.fault.forMs',
  // the faults of time (docs/spec.md §13)
  'fault.late',
  'fault.redeliver',
  'fault.point.afterMs',
] as const;

export type FaultCode = (typeof FAULT_CODES)[number];
