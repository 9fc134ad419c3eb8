/**
 * The admin API transport of VS Code for the Web: `fetch`, with a deadline, no redirects followed.
 * A browser hides why a request failed (CORS, TLS, DNS look alike), so the message says what can
 * be the cause.
 */
import { AdminError, type AdminAnswer, type AdminTransport } from './adminApi';

export class WebTransport implements AdminTransport {
  async get(url: string, headers: Record<string, string>, timeoutMs: number): Promise<AdminAnswer> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    try {
      const res = await fetch(url, { method: 'GET', headers, redirect: 'manual', signal: controller.signal });
      return { status: res.status, statusText: res.statusText, body: await res.text(), location: res.headers.get('location') ?? undefined };
    } catch (e) {
      if (controller.signal.aborted) throw new AdminError(`no answer within ${timeoutMs / 1000} s (keyRouting.pulsarAdmin.timeoutSeconds)`, 'timeout');
      throw new AdminError(`the browser could not reach it (${(e as Error).message}): the broker may not allow this origin (CORS), its certificate may not be trusted, or the host may be unreachable`, 'network');
    } finally {
      clearTimeout(timer);
    }
  }
}
