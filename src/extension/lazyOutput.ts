/**
 * The "Key Routing" output channel, created on its first line: activating in a workspace that
 * configures nothing adds no entry to the Output view's list.
 */
import * as vscode from 'vscode';

export class LazyOutputChannel implements vscode.OutputChannel {
  #channel: vscode.OutputChannel | undefined;
  #disposed = false;

  constructor(readonly name: string) {}

  get #real(): vscode.OutputChannel | undefined {
    if (!this.#channel && !this.#disposed) this.#channel = vscode.window.createOutputChannel(this.name);
    return this.#channel;
  }

  append(value: string): void {
    this.#real?.append(value);
  }

  appendLine(value: string): void {
    this.#real?.appendLine(value);
  }

  replace(value: string): void {
    this.#real?.replace(value);
  }

  clear(): void {
    this.#channel?.clear();
  }

  show(preserveFocus?: boolean): void;
  show(column?: vscode.ViewColumn, preserveFocus?: boolean): void;
  show(a?: boolean | vscode.ViewColumn, b?: boolean): void {
    this.#real?.show(typeof a === 'boolean' ? a : b);
  }

  hide(): void {
    this.#channel?.hide();
  }

  dispose(): void {
    this.#disposed = true;
    this.#channel?.dispose();
  }
}
