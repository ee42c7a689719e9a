import type { Toolset } from './defineToolset'
import { pluginApi } from './pluginApi'

/**
 * The one list of toolsets the host provides itself (plugins come on top and cannot replace them).
 * Each service's toolsets are imported lazily so `bureau` starts fast; add new built-ins here.
 */
export async function loadBuiltinToolsets(): Promise<Toolset[]> {
  const { loadWorkspaceToolsets } = await import('../workspace')
  // Services get the framework's functions passed in, so they need not import this index (no cycle).
  return [...(await loadWorkspaceToolsets(pluginApi))]
}
