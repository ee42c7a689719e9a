import type { Dirent, Stats } from 'node:fs'
import { readdir, realpath, stat } from 'node:fs/promises'
import path from 'node:path'
import { joinAgent } from './agentPath'
import { isInside } from './containment'
import { isInternalName, isTempName } from './internalPaths'
import type { EntryInfo } from './types'

export interface WalkOptions {
  readonly rootReal: string
  readonly recursive: boolean
  /** Stop after visiting this many entries (a safety cap for huge trees). */
  readonly maxEntries: number
}

export interface WalkResult {
  readonly entries: EntryInfo[]
  readonly truncated: boolean
}

/**
 * Lists a folder (optionally its subfolders) by agent path. Hides `.bureau` and temp files, drops symlinks
 * that leave the workspace or dangle, and never descends through a symlink (no loops, no double counting).
 */
export async function walkFolder(
  hostDir: string,
  agentDir: string,
  options: WalkOptions,
): Promise<WalkResult> {
  const entries: EntryInfo[] = []
  const queue: Array<[string, string]> = [[hostDir, agentDir]]
  while (queue.length > 0) {
    const [host, agent] = queue.shift()!
    const children = await readdir(host, { withFileTypes: true }).catch(() => [] as Dirent[])
    for (const child of children) {
      if (isHidden(child.name, host, options.rootReal)) continue
      const childHost = path.join(host, child.name)
      const stats = await statInside(childHost, child.isSymbolicLink(), options.rootReal)
      if (!stats || !(stats.isFile() || stats.isDirectory())) continue
      const childAgent = joinAgent(agent, child.name)
      entries.push(toEntry(childAgent, child.name, stats))
      if (entries.length >= options.maxEntries) return { entries: byPath(entries), truncated: true }
      if (options.recursive && stats.isDirectory() && !child.isSymbolicLink())
        queue.push([childHost, childAgent])
    }
  }
  return { entries: byPath(entries), truncated: false }
}

function byPath(entries: EntryInfo[]): EntryInfo[] {
  return entries.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
}

function isHidden(name: string, parentHost: string, rootReal: string): boolean {
  return isTempName(name) || (parentHost === rootReal && isInternalName(name))
}

async function statInside(hostPath: string, isLink: boolean, rootReal: string): Promise<Stats | undefined> {
  try {
    if (isLink && !isInside(rootReal, await realpath(hostPath))) return undefined
    return await stat(hostPath)
  } catch {
    return undefined
  }
}

export function toEntry(agentPath: string, name: string, stats: Stats): EntryInfo {
  const type = stats.isDirectory() ? 'directory' : 'file'
  return {
    path: agentPath,
    name,
    type,
    ...(type === 'file' ? { size: stats.size } : {}),
    modified: stats.mtime.toISOString(),
  }
}
