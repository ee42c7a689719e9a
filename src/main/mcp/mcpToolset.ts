import type { Tool } from '@modelcontextprotocol/sdk/types.js'
import { z } from 'zod'
import { AppError } from '../../shared/errors'
import { defineToolset, defuseMarkers, method, type ToolContext, type Toolset } from '../tools'
import { framedResult, resultText } from './callResult'
import { patternIssues, withoutPatterns } from './schemaPatterns'
import { methodKeysOf } from './toolNames'

/** What a toolset needs from its server's connection. */
export interface McpCaller {
  callTool(
    tool: string,
    args: Record<string, unknown>,
    ctx: ToolContext,
  ): Promise<Parameters<typeof resultText>[0]>
}

const MAX_DESCRIPTION = 600

/**
 * The server's JSON Schema as zod (so the pipeline repairs, coerces and validates before the call).
 * Its patterns are checked by RE2 in linear time, never by zod's backtracking RegExp.
 */
export function inputSchemaOf(schema: Tool['inputSchema']): z.ZodObject {
  const { $schema: _ignored, ...rest } = schema as Record<string, unknown>
  const full = { type: 'object', ...rest }
  try {
    const converted = z.fromJSONSchema(withoutPatterns(full) as Parameters<typeof z.fromJSONSchema>[0])
    if (converted instanceof z.ZodObject)
      return converted.superRefine((value, ctx) => {
        for (const issue of patternIssues(full, value))
          ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message })
      })
  } catch {
    // A schema zod cannot read: the server still validates; pass the object through.
  }
  return z.looseObject({})
}

/** `read` when the server marks the tool read-only, else `external`. */
export function riskOf(tool: Tool): 'read' | 'external' {
  return tool.annotations?.readOnlyHint === true ? 'read' : 'external'
}

function descriptionOf(tool: Tool): string {
  const text = (tool.description ?? tool.annotations?.title ?? tool.title ?? tool.name).trim()
  const clipped = text.length > MAX_DESCRIPTION ? `${text.slice(0, MAX_DESCRIPTION - 1)}…` : text
  // Descriptions come from the server: they must not open or close an untrusted-content frame.
  return defuseMarkers(clipped || tool.name)
}

function summaryOf(server: string, count: number): string {
  const summary = `Tools of the MCP server "${server}" (${count} tool${count === 1 ? '' : 's'}).`
  return summary.length <= 90 ? summary : `Tools of the MCP server "${server.slice(0, 50)}…".`
}

/**
 * One server's tools as a toolset. Tools are `external` risk unless the server says `readOnlyHint`;
 * results come back framed as untrusted content, and `isError` results are tool failures.
 */
export function mcpToolset(
  toolsetName: string,
  server: string,
  tools: readonly Tool[],
  caller: McpCaller,
): Toolset {
  const keys = methodKeysOf(
    toolsetName,
    tools.map((t) => t.name),
  )
  const byName = new Map(tools.map((t) => [t.name, t]))
  const methods = Object.fromEntries(
    [...keys].map(([key, toolName]) => {
      const tool = byName.get(toolName) as Tool
      return [
        key,
        method({
          description: descriptionOf(tool),
          input: inputSchemaOf(tool.inputSchema),
          output: z.string(),
          risk: riskOf(tool),
          approvalTarget: () => [
            { label: 'MCP server', value: server },
            { label: 'Tool', value: toolName },
          ],
          async run(args, ctx) {
            const result = await caller.callTool(toolName, args as Record<string, unknown>, ctx)
            const text = framedResult(server, toolName, await resultText(result, ctx, toolsetName))
            if (result.isError) throw new AppError('HANDLER_FAILED', `the server reported an error:\n${text}`)
            return text
          },
        }),
      ]
    }),
  )
  return defineToolset({ name: toolsetName, summary: summaryOf(server, tools.length), methods })
}
