/** Setting ids and defaults the manifest (package.json) must agree with (pure, unit-tested). */
export const SECTION = 'keyRouting';
export const HOVER_LANGUAGES = 'keyRouting.hover.languages';
export const STATUS_BAR_ENABLED = 'keyRouting.statusBar.enabled';
/** The languages hovers are offered in when `keyRouting.hover.languages` is not set (the manifest's default). */
export const DEFAULT_HOVER_LANGUAGES = ['plaintext', 'json', 'jsonc', 'yaml', 'properties'];
/** The side bar's tree view. */
export const TOPOLOGY_VIEW = 'keyRouting.topology';
/** True where the workspace configures Key Routing: the welcome view, the editor and explorer menus. */
export const CONFIGURED_CONTEXT = 'keyRouting.configured';
/** The walkthrough, as `workbench.action.openWalkthrough` names it. */
export const WALKTHROUGH = 'key-routing.key-routing-inspector#keyRouting.gettingStarted';
