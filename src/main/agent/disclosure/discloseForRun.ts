import type { LlmSession, ToolSpec } from '../../llm'
import type { ToolRegistry, Toolset } from '../../tools'
import type { RunAgentOptions } from '../types'
import { initiallyOpen } from './openSignals'
import { openToolsetSpec } from './openToolsetTool'
import { ToolDisclosure } from './toolDisclosure'

/**
 * API mode: the toolsets open from the start (see `initiallyOpen`); `open_toolset` is offered only
 * when some toolset is still closed.
 */
export function disclose(
  llm: LlmSession,
  agentSpecs: readonly ToolSpec[],
  toolsets: readonly Toolset[],
  registry: ToolRegistry,
  options: RunAgentOptions,
): ToolDisclosure {
  const initial = initiallyOpen(toolsets, {
    used: (options.history ?? []).flatMap((turn) => turn.toolsets ?? []),
    attachmentNames: (options.attachments ?? []).map((a) => a.name),
    prompt: options.prompt,
  })
  const closed = toolsets.filter((t) => !initial.includes(t.name))
  return new ToolDisclosure({
    llm,
    fixed: [...agentSpecs, ...(closed.length > 0 ? [openToolsetSpec(toolsets.map((t) => t.name))] : [])],
    registry,
    initial,
    ...(options.logger ? { logger: options.logger } : {}),
  })
}
