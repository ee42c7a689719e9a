import { joinAgent } from './agentPath'
import type { AnchoredDir } from './anchored/anchoredDir'
import { workspaceError } from './errors'
import { compileGlob } from './globMatch'
import type { EntryInfo, FindOptions, FindResult, ListOptions, ListResult } from './types'
import { walkFolder } from './walk'

const MAX_WALK = 50_000

export interface FolderTarget {
  readonly agentPath: string
  /** The folder, open and checked (see AnchoredDir). */
  readonly dir: AnchoredDir
}

export async function listFolder(
  rootReal: string,
  folder: FolderTarget,
  options: ListOptions = {},
): Promise<ListResult> {
  const walked = await walkFolder(folder.dir, folder.agentPath, {
    rootReal,
    recursive: options.recursive ?? false,
    maxEntries: MAX_WALK,
  })
  const matches = options.glob
    ? walked.entries.filter(globFilter(options.glob, folder.agentPath))
    : walked.entries
  const offset = Math.max(0, options.offset ?? 0)
  const limit = Math.max(1, options.limit ?? 200)
  const page = matches.slice(offset, offset + limit)
  const next = offset + page.length
  return {
    path: folder.agentPath,
    entries: page,
    total: matches.length,
    ...(next < matches.length ? { nextOffset: next } : {}),
    truncated: walked.truncated,
  }
}

export async function findByName(
  rootReal: string,
  folder: FolderTarget,
  pattern: string,
  options: FindOptions = {},
): Promise<FindResult> {
  if (pattern.trim() === '')
    throw workspaceError('VALIDATION_FAILED', 'Give a name pattern such as "*.xlsx".')
  const walked = await walkFolder(folder.dir, folder.agentPath, {
    rootReal,
    recursive: true,
    maxEntries: MAX_WALK,
  })
  const limit = Math.max(1, options.limit ?? 100)
  const all = walked.entries.filter(globFilter(pattern, folder.agentPath))
  return { matches: all.slice(0, limit), truncated: walked.truncated || all.length > limit }
}

/** A pattern without `/` matches entry names; with `/`, the path relative to the searched folder. */
function globFilter(pattern: string, base: string): (entry: EntryInfo) => boolean {
  const matcher = compileGlob(pattern.replace(/^\/+/, ''), { nocase: true })
  const prefix = joinAgent(base, '')
  return pattern.includes('/')
    ? (entry) => matcher(entry.path.slice(prefix.length))
    : (entry) => matcher(entry.name)
}
