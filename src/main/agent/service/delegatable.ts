import type { Toolset } from '../../tools'

/**
 * The sub-agents a run may launch: only among its own toolsets, and none when it has only one (a run
 * limited to `files`, like the bridge's `bureau-files` model, is already the specialist).
 */
export function delegatable(
  subagents: readonly Toolset[] | undefined,
  toolsets: readonly Toolset[],
): Toolset[] {
  if (toolsets.length <= 1) return []
  return (subagents ?? []).filter((subagent) => toolsets.some((toolset) => toolset.name === subagent.name))
}
