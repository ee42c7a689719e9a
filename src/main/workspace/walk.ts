import type { Stats } from 'node:fs'
import { readdir, realpath, stat } from 'node:fs/promises'
import { joinAgent } from './agentPath'
import type { AnchoredDir } from './anchored/anchoredDir'
import { lstatOrUndefined } from './anchored/anchoredWalk'
import { isInside } from './anchored/containment'
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
 * that leave the workspace or dangle, and never descends through a symlink (no loops, no double counting):
 * subfolders are opened through the folder above them, so a folder swapped for a link is not followed.
 */
export async function walkFolder(
  start: AnchoredDir,
  agentDir: string,
  options: WalkOptions,
): Promise<WalkResult> {
  const entries: EntryInfo[] = []
  const queue: Array<[AnchoredDir, string, boolean]> = [[start, agentDir, false]]
  try {
    while (queue.length > 0) {
      const [dir, agent, owned] = queue.shift()!
      try {
        const full = await walkOne(dir, agent, options, entries, queue)
        if (full) return { entries: byPath(entries), truncated: true }
      } finally {
        if (owned) await dir.close()
      }
    }
    return { entries: byPath(entries), truncated: false }
  } finally {
    for (const [dir, , owned] of queue) if (owned) await dir.close()
  }
}

/** Lists one folder into `entries`; returns true when the cap was reached. */
async function walkOne(
  dir: AnchoredDir,
  agent: string,
  options: WalkOptions,
  entries: EntryInfo[],
  queue: Array<[AnchoredDir, string, boolean]>,
): Promise<boolean> {
  await dir.verify()
  const names = await readdir(dir.child()).catch(() => [] as string[])
  for (const name of names) {
    if (isTempName(name) || (dir.isRoot && isInternalName(name))) continue
    const stats = await statInside(dir, name, options.rootReal)
    if (!stats || !(stats.info.isFile() || stats.info.isDirectory())) continue
    const childAgent = joinAgent(agent, name)
    entries.push(toEntry(childAgent, name, stats.info))
    if (entries.length >= options.maxEntries) return true
    if (options.recursive && stats.info.isDirectory() && !stats.link) {
      const child = await dir.openChild(name).catch(() => undefined)
      if (child) queue.push([child, childAgent, true])
    }
  }
  return false
}

function byPath(entries: EntryInfo[]): EntryInfo[] {
  return entries.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
}

async function statInside(
  dir: AnchoredDir,
  name: string,
  rootReal: string,
): Promise<{ info: Stats; link: boolean } | undefined> {
  try {
    const own = await lstatOrUndefined(dir.child(name))
    if (!own?.isSymbolicLink()) return own ? { info: own, link: false } : undefined
    const target = await realpath(dir.child(name))
    if (!isInside(rootReal, target)) return undefined
    return { info: await stat(target), link: true }
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
