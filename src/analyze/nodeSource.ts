/**
 * Byte sources on Node (the CLI and the worker thread): a file read as a stream, and stdin. Kept
 * apart from the analyser so that only these files import `node:fs`.
 */
import { createReadStream, fstatSync, statSync } from 'node:fs';
import type { ChunkSource } from './run';

/** Large reads: fewer, bigger chunks keep the per-chunk overhead out of the per-key cost. */
const HIGH_WATER_MARK = 1 << 18;

/**
 * A file, streamed (never read whole); a regular file is re-readable, so heavy keys get their
 * exact pass. A FIFO, `/dev/stdin` or `<(zcat keys.gz)` is read once: reading it again would wait
 * for a writer that never comes.
 */
export function fileSource(path: string): ChunkSource {
  const st = statSync(path);
  const open = () => createReadStream(path, { highWaterMark: HIGH_WATER_MARK }) as AsyncIterable<Uint8Array>;
  if (st.isFile()) return { rereadable: true, size: st.size, open };
  let opened = false;
  return {
    rereadable: false,
    open: () => {
      if (opened) throw new Error(`${path} can be read only once`);
      opened = true;
      return open();
    },
  };
}

/**
 * Standard input. Where it is a regular file (`< keys.txt`) it is read by position and can be read
 * again; a pipe is read once (heavy keys then come with bounds instead of exact counts).
 */
export function stdinSource(): ChunkSource {
  let regular = false;
  let size: number | undefined;
  try {
    const st = fstatSync(0);
    regular = st.isFile();
    if (regular) size = st.size;
  } catch {
    regular = false;
  }
  if (regular) {
    return {
      rereadable: true,
      size,
      open: () => createReadStream('', { fd: 0, start: 0, autoClose: false, highWaterMark: HIGH_WATER_MARK }) as AsyncIterable<Uint8Array>,
    };
  }
  let opened = false;
  return {
    rereadable: false,
    open: () => {
      if (opened) throw new Error('standard input can be read only once');
      opened = true;
      return process.stdin as AsyncIterable<Uint8Array>;
    },
  };
}
