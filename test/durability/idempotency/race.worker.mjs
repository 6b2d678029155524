// Boots a worker thread that can load TypeScript (tsx), then runs the race body. Not a test file.
import { register } from 'tsx/esm/api';

register();
await import('./race.worker-body.ts');
