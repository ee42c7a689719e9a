import type { Toolset } from './defineToolset'

/**
 * The one list of toolsets the host provides itself (plugins come on top and cannot replace them).
 * Each entry is imported lazily so `bureau` starts fast; add a service's toolset here.
 */
export async function loadBuiltinToolsets(): Promise<Toolset[]> {
  const toolsets: Toolset[] = []
  return toolsets
}
