import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { frameUntrusted, type ToolContext } from '../tools'

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

async function partText(part: Content, ctx: ToolContext, folder: string, index: number): Promise<string> {
  switch (part.type) {
    case 'text':
      return part.text
    case 'image':
    case 'audio':
      return saveBinary(ctx, folder, part.data, part.mimeType, index)
    case 'resource': {
      const resource = part.resource
      if ('text' in resource && typeof resource.text === 'string')
        return `[resource ${resource.uri}]\n${resource.text}`
      const blob = 'blob' in resource && typeof resource.blob === 'string' ? resource.blob : ''
      const saved = await saveBinary(
        ctx,
        folder,
        blob,
        resource.mimeType ?? 'application/octet-stream',
        index,
      )
      return `[resource ${resource.uri}] ${saved}`
    }
    case 'resource_link':
      return `[resource link ${part.uri}${part.name ? ` (${part.name})` : ''}${part.description ? `: ${part.description}` : ''}]`
    default:
      return `[${String((part as { type?: unknown }).type)} content not shown]`
  }
}

/** The text of a result: every part in order, binaries as saved paths, structured content as JSON. */
export async function resultText(result: CallToolResult, ctx: ToolContext, folder: string): Promise<string> {
  const parts = await Promise.all((result.content ?? []).map((part, i) => partText(part, ctx, folder, i)))
  if (result.structuredContent !== undefined && !parts.some((p) => p.trim() !== ''))
    parts.push(JSON.stringify(result.structuredContent))
  return parts.join('\n')
}

/** The result as the model reads it: framed as untrusted output of the named server's tool. */
export function framedResult(server: string, tool: string, text: string): string {
  return frameUntrusted('MCP', `MCP server "${server}", tool "${tool}"`, text || '(no content)')
}
