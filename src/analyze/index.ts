/**
 * The key-population analyser as a library (no Node import: usable from the extension host, a
 * worker thread, a web worker and the CLI).
 *
 *   const result = await analyzeKeys(source, { settings, input: { kind: 'csv', column: { index: 2 } } },
 *     { signal, onProgress, onPartial });
 *
 * `result` is plain JSON-serialisable data (figures.ts); `toCsv(result)` exports it as CSV.
 */
export { KeyAnalyzer, AnalyzeInputError, type AnalyzeOptions, type InputSpec, type BundleResolver } from './analyzer';
export { analyzeKeys, analyzeBytes, memorySource, type ChunkSource, type AnalyzeControl, type AnalyzeProgress } from './run';
export { parseColumn, type CsvColumn, type CsvDelimiter, type KeyFormat } from './readers';
export { toCsv } from './csvExport';
export type * from './figures';
