/**
 * The admin API transport of the desktop extension host: Node's http/https, TLS verification on
 * (with an extra CA from `keyRouting.pulsarAdmin.caFile` where the user set one), a deadline
 * over the whole request, no redirects followed, and failures below HTTP told apart (DNS,
 * refused, TLS, timeout). Loaded only in the Node host.
 */
import * as http from 'node:http';
import * as https from 'node:https';
import { readFileSync } from 'node:fs';
import { rootCertificates } from 'node:tls';
import { AdminError, type AdminAnswer, type AdminTransport } from './adminApi';

/** Answers larger than this are refused (a stats answer of thousands of consumers is a few MiB). */
const MAX_BODY = 64 << 20;

const TLS_CODES = /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|UNABLE_TO_GET_ISSUER|ERR_TLS|ERR_SSL|EPROTO|HOSTNAME|ALTNAME/;

export class NodeTransport implements AdminTransport {
  constructor(private readonly caFile?: string) {}

  get(url: string, headers: Record<string, string>, timeoutMs: number): Promise<AdminAnswer> {
    const u = new URL(url);
    const secure = u.protocol === 'https:';
    let ca: Buffer | undefined;
    if (secure && this.caFile) {
      try {
        ca = readFileSync(this.caFile);
      } catch (e) {
        return Promise.reject(new AdminError(`cannot read the CA file ${this.caFile} (keyRouting.pulsarAdmin.caFile): ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`, 'tls'));
      }
    }
    return new Promise((resolve, reject) => {
      let settled = false;
      const done = (f: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        f();
      };
      const options: https.RequestOptions = { method: 'GET', headers, agent: false };
      // The CA adds to Node's default roots; verification stays on.
      if (ca) options.ca = [...rootCertificates, ca];
      const req = (secure ? https : http).request(u, options, (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          size += c.length;
          if (size > MAX_BODY) {
            req.destroy();
            done(() => reject(new AdminError(`the answer is larger than ${MAX_BODY >> 20} MiB`, 'http')));
            return;
          }
          chunks.push(c);
        });
        res.on('end', () =>
          done(() =>
            resolve({
              status: res.statusCode ?? 0,
              statusText: res.statusMessage ?? '',
              body: Buffer.concat(chunks).toString('utf8'),
              location: typeof res.headers.location === 'string' ? res.headers.location : undefined,
            }),
          ),
        );
        res.on('error', (e) => done(() => reject(describe(e, u))));
      });
      const timer = setTimeout(() => {
        done(() => reject(new AdminError(`no answer within ${timeoutMs / 1000} s (keyRouting.pulsarAdmin.timeoutSeconds)`, 'timeout')));
        req.destroy();
      }, timeoutMs);
      req.on('error', (e) => done(() => reject(describe(e, u))));
      req.end();
    });
  }
}

function describe(e: Error, u: URL): AdminError {
  const code = (e as NodeJS.ErrnoException).code ?? '';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return new AdminError(`cannot resolve the host ${u.hostname} (${code})`, 'dns');
  if (code === 'ECONNREFUSED') return new AdminError(`connection refused by ${u.host}`, 'network');
  if (code === 'ECONNRESET') return new AdminError(`the connection to ${u.host} was reset (is it ${u.protocol === 'https:' ? 'plain HTTP' : 'HTTPS'}?)`, 'network');
  if (TLS_CODES.test(code) || /certificate|SSL|TLS/i.test(e.message)) {
    return new AdminError(`TLS: ${e.message}${code && !e.message.includes(code) ? ` (${code})` : ''}; to trust the broker's CA, set keyRouting.pulsarAdmin.caFile in your user settings`, 'tls');
  }
  return new AdminError(`${e.message}${code ? ` (${code})` : ''}`, 'network');
}
