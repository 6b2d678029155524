/** One saved phase of a task: the delivery manifest's entry (docs/pillars.md §4). */
export interface Checkpoint {
  checkpointId: string;
  taskId: string;
  agentId: string;
  phase: string;
  state: unknown;
  createdAtMs: number;
  expiresAtMs: number;
  /** The checkpoint this one continues: the task's previous save, or the source of a fork or rewind. */
  parentCheckpointId: string | null;
  seq: number;
}
