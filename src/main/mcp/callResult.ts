import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { frameUntrusted, type ToolContext } from '../tools'
import { MCP_LIMITS } from './limits'

const EXTENSIONS: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'image/svg+xml': 'svg',
  'audio/wav': 'wav',
  'audio/mpeg': 'mp3',
  'application/pdf': 'pdf',
  'application/json': 'json',
  'text/plain': 'txt',
}

type Content = CallToolResult['content'][number]

/** Images and binary resources are saved in the workspace (`/mcp/<server>/…`); the model gets the path. */
async function saveBinary(
  ctx: ToolContext,
  folder: string,
  base64: string,
  mimeType: string,
  index: number,
): Promise<string> {
  const ext = EXTENSIONS[mimeType] ?? 'bin'
  try {
    const receipt = await ctx.workspace.writeFile(
      `/mcp/${folder}/${Date.now()}-${index}.${ext}`,
      Buffer.from(base64, 'base64'),
      { overwrite: false },
    )
    return `[${mimeType} saved to ${receipt.path}]`
  } catch (error) {
    return `[${mimeType}, ${Math.round((base64.length * 3) / 4)} bytes, not saved: ${(error as Error).message}]`
  }
}

/** Counts what one result saved, so a flood of images stops at the limit. */
interface Budget {
  saved: number
  skipped: number
}

async function binary(
  ctx: ToolContext,
  folder: string,
  base64: string,
  mimeType: string,
  index: number,
  budget: Budget,
): Promise<string> {
  if (budget.saved >= MCP_LIMITS.savedPerResult) {
    budget.skipped++
    return `[${mimeType}, ${Math.round((base64.length * 3) / 4)} bytes, not saved: at most ${MCP_LIMITS.savedPerResult} files are saved per result]`
  }
  budget.saved++
  return saveBinary(ctx, folder, base64, mimeType, index)
}

async function partText(
  part: Content,
  ctx: ToolContext,
  folder: string,
  index: number,
  budget: Budget,
): Promise<string> {
  switch (part.type) {
    case 'text':
      return part.text
    case 'image':
    case 'audio':
      return binary(ctx, folder, part.data, part.mimeType, index, budget)
    case 'resource': {
      const resource = part.resource
      if ('text' in resource && typeof resource.text === 'string')
        return `[resource ${resource.uri}]\n${resource.text}`
      const blob = 'blob' in resource && typeof resource.blob === 'string' ? resource.blob : ''
      const saved = await binary(
        ctx,
        folder,
        blob,
        resource.mimeType ?? 'application/octet-stream',
        index,
        budget,
      )
      return `[resource ${resource.uri}] ${saved}`
    }
    case 'resource_link':
      return `[resource link ${part.uri}${part.name ? ` (${part.name})` : ''}${part.description ? `: ${part.description}` : ''}]`
    default:
      return `[${String((part as { type?: unknown }).type)} content not shown]`
  }
}

/**
 * The text of a result: its parts in order (at most `resultParts` of them), binaries as saved paths
 * (at most `savedPerResult` files), structured content as JSON; a note says what was left out.
 */
export async function resultText(result: CallToolResult, ctx: ToolContext, folder: string): Promise<string> {
  const all = result.content ?? []
  const content = all.slice(0, MCP_LIMITS.resultParts)
  const budget: Budget = { saved: 0, skipped: 0 }
  // One part after another: the budget must count saves in order, and a flood must not open thousands of files at once.
  const parts: string[] = []
  for (const [i, part] of content.entries()) parts.push(await partText(part, ctx, folder, i, budget))
  if (result.structuredContent !== undefined && !parts.some((p) => p.trim() !== ''))
    parts.push(JSON.stringify(result.structuredContent))
  const notes: string[] = []
  if (all.length > content.length)
    notes.push(
      `${(all.length - content.length).toLocaleString('en-US')} more content parts were left out (at most ${MCP_LIMITS.resultParts} are read per result)`,
    )
  if (budget.skipped > 0)
    notes.push(
      `${budget.skipped.toLocaleString('en-US')} files were not saved (at most ${MCP_LIMITS.savedPerResult} per result)`,
    )
  if (notes.length > 0) parts.push(`[Bureau: ${notes.join('; ')}.]`)
  return parts.join('\n')
}

/** The result as the model reads it: framed as untrusted output of the named server's tool. */
export function framedResult(server: string, tool: string, text: string): string {
  return frameUntrusted('MCP', `MCP server "${server}", tool "${tool}"`, text || '(no content)')
}
