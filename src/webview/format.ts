/** Numbers as the panel writes them. */

/** A share as a percentage: two decimals, more where it is tiny but not zero. */
export function pct(f: number): string {
  if (f === 0) return '0 %';
  const p = f * 100;
  if (p < 0.01) return `${p.toPrecision(2)} %`;
  return `${p.toFixed(2)} %`;
}

export function hex8(v: number): string {
  return '0x' + v.toString(16).padStart(8, '0');
}

export function range(r: readonly [number, number] | null | undefined): string {
  return r ? `${r[0]}–${r[1]}` : '–';
}

/** The local part of a Pulsar topic name, for tabs. */
export function shortTopic(name: string): string {
  const m = /^(?:persistent|non-persistent):\/\/(.*)$/.exec(name);
  return m ? m[1].split('/').pop() || name : name;
}

/** An integer with thousands separators ("2,147,483,647"), without Intl (slow the first time it runs). */
export function thousands(n: number): string {
  const s = String(Math.trunc(Math.abs(n)));
  let out = '';
  for (let i = 0; i < s.length; i++) out += (i > 0 && (s.length - i) % 3 === 0 ? ',' : '') + s[i];
  return (n < 0 ? '-' : '') + out;
}
