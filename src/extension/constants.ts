/** Setting ids and defaults the manifest (package.json) must agree with (pure, unit-tested). */
export const SECTION = 'keyRouting';
export const HOVER_LANGUAGES = 'keyRouting.hover.languages';
export const STATUS_BAR_ENABLED = 'keyRouting.statusBar.enabled';
/** Also the manifest's `onLanguage` activation events: a hover needs the extension active. */
export const DEFAULT_HOVER_LANGUAGES = ['plaintext', 'json', 'jsonc', 'yaml', 'properties'];
