/**
 * Where an admin token may go. The token is kept in VS Code's SecretStorage keyed by the admin
 * URL (never in settings or logs). An admin URL that the workspace settings supply is only a
 * proposal: the token is sent there only once the user confirmed that URL in a modal, and the
 * confirmation is remembered in the extension's global state (per URL), which a workspace cannot
 * write. Plain HTTP with a token asks first, every time until the user says "always" for it.
 */
import type * as vscode from 'vscode';

const TOKEN_KEY = 'keyRouting.pulsarAdmin.token:';
const CONFIRMED = 'keyRouting.pulsarAdmin.confirmedUrls';
const PLAIN_HTTP_OK = 'keyRouting.pulsarAdmin.plainHttpUrls';

export class AdminCredentials {
  constructor(
    private readonly secrets: vscode.SecretStorage,
    private readonly state: vscode.Memento,
  ) {}

  token(url: string): Thenable<string | undefined> {
    return this.secrets.get(TOKEN_KEY + url);
  }

  storeToken(url: string, token: string): Thenable<void> {
    return this.secrets.store(TOKEN_KEY + url, token);
  }

  forgetToken(url: string): Thenable<void> {
    return this.secrets.delete(TOKEN_KEY + url);
  }

  /** Whether the user confirmed sending the token to `url` (a URL the workspace proposed). */
  confirmed(url: string): boolean {
    return this.#list(CONFIRMED).includes(url);
  }

  confirm(url: string): Thenable<void> {
    return this.#add(CONFIRMED, url);
  }

  plainHttpAllowed(url: string): boolean {
    return this.#list(PLAIN_HTTP_OK).includes(url);
  }

  allowPlainHttp(url: string): Thenable<void> {
    return this.#add(PLAIN_HTTP_OK, url);
  }

  #list(key: string): string[] {
    const v = this.state.get<unknown>(key);
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  }

  #add(key: string, url: string): Thenable<void> {
    const list = this.#list(key);
    return list.includes(url) ? Promise.resolve() : this.state.update(key, [...list, url]);
  }
}
