/** What the client loads only when a sweep or a health check runs: the sweeper, its loop and health. */
export { journalHealth } from './health.js';
export { supervise } from './supervise.js';
export { sweepOnce } from './sweep.js';
