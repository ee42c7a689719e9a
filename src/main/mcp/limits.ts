import type { Tool } from '@modelcontextprotocol/sdk/types.js'

/**
 * What one server may cost Bureau. Every tool definition goes into every model request, so a server
 * offering thousands of tools or huge schemas would make each request megabytes long; a result or a
 * tool listing without an end would never let a call or a chat start.
 */
export const MCP_LIMITS = {
  /** Tools kept per server (the rest are left out, with a notice). */
  toolsPerServer: 128,
  /** One tool's input schema as JSON. */
  schemaChars: 32_000,
  /** All kept schemas of one server together. */
  serverSchemaChars: 256_000,
  /** Values of one `enum`. */
  enumValues: 256,
  /** Nesting of objects and arrays in one schema. */
  schemaDepth: 32,
  /** `tools/list` pages read while connecting. */
  listPages: 100,
  /** Content parts of one result read; the rest are left out with a note. */
  resultParts: 200,
  /** Images, audio and binary resources saved in the workspace per result. */
  savedPerResult: 20,
} as const

/** How deep a JSON value nests, and the largest `enum` in it; stops counting past the limits. */
function shape(value: unknown, depth: number, out: { depth: number; enum: number }): void {
  if (depth > out.depth) out.depth = depth
  if (depth > MCP_LIMITS.schemaDepth || typeof value !== 'object' || value === null) return
  if (Array.isArray(value)) {
    for (const item of value) shape(item, depth + 1, out)
    return
  }
  for (const [key, child] of Object.entries(value)) {
    if (key === 'enum' && Array.isArray(child) && child.length > out.enum) out.enum = child.length
    shape(child, depth + 1, out)
  }
}

/** Why a tool's schema is refused, or undefined when it is within the limits. */
export function schemaProblem(tool: Tool): string | undefined {
  // Depth first: a schema nested thousands deep would overflow the stack of JSON.stringify.
  const found = { depth: 0, enum: 0 }
  shape(tool.inputSchema, 0, found)
  if (found.depth > MCP_LIMITS.schemaDepth)
    return `its schema nests deeper than ${MCP_LIMITS.schemaDepth} levels`
  if (found.enum > MCP_LIMITS.enumValues)
    return `its schema has an enum of ${found.enum.toLocaleString('en-US')} values (at most ${MCP_LIMITS.enumValues})`
  const chars = schemaChars(tool)
  if (chars > MCP_LIMITS.schemaChars)
    return `its schema is ${chars.toLocaleString('en-US')} characters (at most ${MCP_LIMITS.schemaChars.toLocaleString('en-US')})`
  return undefined
}

function schemaChars(tool: Tool): number {
  return JSON.stringify(tool.inputSchema ?? {}).length
}

export interface KeptTools {
  tools: Tool[]
  /** One line per reason something was left out, for the user's notice. */
  leftOut: string[]
}

/** The tools of one server within the limits, in the server's order, and what was left out. */
export function keepWithinLimits(tools: readonly Tool[]): KeptTools {
  const kept: Tool[] = []
  const refused: string[] = []
  let total = 0
  let overBudget = 0
  let overCount = 0
  for (const tool of tools) {
    const problem = schemaProblem(tool)
    if (problem) {
      refused.push(`"${String(tool.name).slice(0, 60)}": ${problem}`)
      continue
    }
    if (kept.length >= MCP_LIMITS.toolsPerServer) {
      overCount++
      continue
    }
    const chars = schemaChars(tool)
    if (total + chars > MCP_LIMITS.serverSchemaChars) {
      overBudget++
      continue
    }
    total += chars
    kept.push(tool)
  }
  const leftOut: string[] = []
  if (overCount > 0)
    leftOut.push(
      `left out ${overCount.toLocaleString('en-US')} tool${overCount === 1 ? '' : 's'} past the first ${MCP_LIMITS.toolsPerServer} (a server may offer at most ${MCP_LIMITS.toolsPerServer})`,
    )
  if (overBudget > 0)
    leftOut.push(
      `left out ${overBudget.toLocaleString('en-US')} tool${overBudget === 1 ? '' : 's'} past ${MCP_LIMITS.serverSchemaChars.toLocaleString('en-US')} characters of schemas`,
    )
  if (refused.length > 0) {
    const shown = refused.slice(0, 3).join('; ')
    leftOut.push(
      `left out ${refused.length.toLocaleString('en-US')} tool${refused.length === 1 ? '' : 's'} with oversized schemas (${shown}${refused.length > 3 ? '; …' : ''})`,
    )
  }
  return { tools: kept, leftOut }
}
