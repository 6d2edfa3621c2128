/** The options of the map entries (not part of the package's surface). */

/** A message that changes nothing (RpcContract.readOnly). */
export const READ = { readOnly: true };
/** A read whose cost grows with the workspace: a list or a search (RpcContract.heavy). */
export const LIST = { readOnly: true, heavy: true };
