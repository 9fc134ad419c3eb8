// A node:test reporter: one line per test, failures with their error, and a closing
// "N passed, N failed" line that test/run.mjs adds up across the suites.
export default async function* reporter(source) {
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  const failures = [];
  for await (const event of source) {
    const d = event.data;
    if (event.type === 'test:pass' || event.type === 'test:fail') {
      if (d.details?.type === 'suite') continue;
      const name = d.name;
      if (d.skip || d.todo) {
        skipped++;
        yield `  - ${name} (skipped)\n`;
      } else if (event.type === 'test:pass') {
        passed++;
        yield `  ✔ ${name}\n`;
      } else {
        failed++;
        const err = d.details?.error;
        const cause = err?.cause ?? err;
        const msg = String(cause?.stack ?? cause?.message ?? printable(cause)).split('\n').slice(0, 12).join('\n      ');
        failures.push(`${d.file ?? ''} ${name}\n      ${msg}`);
        yield `  ✖ ${name}\n      ${msg}\n`;
      }
    } else if (event.type === 'test:diagnostic' && /^(tests|suites|pass|fail|cancelled|skipped|todo|duration_ms) /.test(d.message)) {
      // node's own totals; ours follow
    } else if (event.type === 'test:stderr' || event.type === 'test:stdout') {
      yield d.message;
    }
  }
  if (failures.length) yield `\nFailures:\n${failures.map((f) => '  ' + f).join('\n')}\n`;
  yield `${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}\n`;
}

/** A thrown value as text, for values String() refuses (an object without a prototype). */
function printable(x) {
  try {
    return String(x);
  } catch {
    try {
      return `${Object.prototype.toString.call(x)} ${JSON.stringify(x)}`;
    } catch {
      // Circular, or holding a BigInt.
      return Object.prototype.toString.call(x);
    }
  }
}
