/**
 * The name the extension gives the analysis web worker. The worker runs dist/extension.js, the same
 * script as the web extension host (itself a web worker): src/main.ts tells them apart by it.
 */
export const ANALYSIS_WORKER_NAME = 'Key Routing analysis';
