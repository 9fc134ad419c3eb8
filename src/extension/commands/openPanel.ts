/** "Key Routing: Open Routing Panel". For now a placeholder table of the last route. */
import { openPlaceholderPanel } from '../placeholderPanel';
import type { Services } from '../present';

export function openPanel(s: Services): void {
  openPlaceholderPanel(s.results);
}
