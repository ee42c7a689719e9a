import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js'
import { buildApiTools, invoke, type ToolSession, type Toolset } from '../../tools'

/** Bureau's methods as MCP tools: API-mode names and JSON Schemas, risk as annotations. */
export function mcpToolList(toolsets: readonly Toolset[]): Tool[] {
  return toolsets.flatMap((toolset) => {
    // buildApiTools lists a toolset's methods in declaration order.
    const risks = Object.values(toolset.methods).map((m) => m.risk)
    return buildApiTools([toolset]).map(({ function: fn }, index) => {
      const risk = risks[index] ?? 'external'
      return {
        name: fn.name,
        description: fn.description,
        inputSchema: { type: 'object', ...(fn.parameters as Record<string, unknown>) } as Tool['inputSchema'],
        annotations: {
          readOnlyHint: risk === 'read',
          destructiveHint: false,
          openWorldHint: risk === 'external',
        },
      }
    })
  })
}

/**
 * One MCP call through the same pipeline as the agent: repaired, validated, run in the session's
 * sandbox; the session is flushed after each call so a workbook edit is saved before the receipt.
 */
export async function callBureauTool(
  session: ToolSession,
  name: string,
  args: unknown,
  signal: AbortSignal,
): Promise<CallToolResult> {
  const result = await invoke(session, name, args ?? {}, { signal })
  if (!result.ok) return { content: [{ type: 'text', text: result.error }], isError: true }
  const unsaved = await session.flush()
  if (unsaved.length > 0) {
    const text = unsaved.map((f) => `Not saved${f.path ? ` ${f.path}` : ''}: ${f.error}`).join('\n')
    return { content: [{ type: 'text', text }], isError: true }
  }
  const value = result.value
  const text = typeof value === 'string' ? value : JSON.stringify(value)
  return {
    content: [{ type: 'text', text }],
    ...(value && typeof value === 'object' && !Array.isArray(value)
      ? { structuredContent: value as Record<string, unknown> }
      : {}),
  }
}
