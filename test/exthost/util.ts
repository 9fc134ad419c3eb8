/** What the extension-host suites share: the extension's id and waiting on a state. */
export const EXTENSION_ID = 'key-routing.key-routing-inspector';

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `f` until it gives a value (never a fixed sleep), or fails after `ms`. */
export async function until<T>(what: string, f: () => T | undefined | false | Promise<T | undefined | false>, ms = 10_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await f();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}
