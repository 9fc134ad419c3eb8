/** The side bar rows' commands (pure, for the manifest test). */
export const TREE_COMMANDS = {
  routeKey: 'keyRouting.tree.routeKey',
  openInPanel: 'keyRouting.tree.openInPanel',
  whatIfRemove: 'keyRouting.tree.whatIfRemove',
  revealSetting: 'keyRouting.tree.revealSetting',
  copy: 'keyRouting.tree.copy',
} as const;

export const TREE_COMMAND_IDS: readonly string[] = Object.values(TREE_COMMANDS);
