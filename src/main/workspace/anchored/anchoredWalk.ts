import type { Stats } from 'node:fs'
import { mkdir, readdir } from 'node:fs/promises'
import path from 'node:path'
import { errnoOf, refuse, workspaceError } from '../errors'
import { isInternalName } from '../internalPaths'
import { AnchoredDir } from './anchoredDir'
import { followLink, lstatOrUndefined, refuseInternal } from './containment'

export { lstatOrUndefined }

export type AnchoredKind = 'file' | 'directory' | 'other' | 'missing'

/**
 * Where an agent path leads, held by an open parent folder: `dir` is the contained folder the final name
 * lives in (the root itself for `/`, with no name). Nothing was followed that was not checked in that step.
 */
export interface Anchored {
  readonly agentPath: string
  readonly dir: AnchoredDir
  /** Final name inside `dir`; undefined for the root. */
  readonly name: string | undefined
  readonly kind: AnchoredKind
  readonly stats: Stats | undefined
  /** A missing path whose parent is a file (writes there conflict, reads find nothing). */
  readonly blockedByFile: boolean
  /** Real host path at lookup time (bookkeeping only: history, agent paths; never opened as such). */
  readonly hostPath: string
}

export interface WalkOptions {
  readonly allowInternal?: boolean
  /** Create missing folders on the way (for writes): every one is made inside an anchored parent. */
  readonly createParents?: boolean
  /** Create the final segment as a folder too (mkdir). */
  readonly createSelf?: boolean
}

// Symbolic links followed in one lookup (chains, and retries when a folder keeps being swapped).
const MAX_HOPS = 40

/**
 * Walks `segments` from the real root one name at a time, each opened with O_NOFOLLOW through the folder
 * before it. A symbolic link on the way is resolved, checked, and the walk restarts from the root with the
 * real path, so a link swapped in later is met again as a link instead of being followed.
 */
export async function walkAnchored(
  rootReal: string,
  agentPath: string,
  segments: readonly string[],
  options: WalkOptions = {},
): Promise<Anchored> {
  let current = [...segments]
  for (let hop = 0; hop <= MAX_HOPS; hop++) {
    const step = await walkOnce(rootReal, agentPath, current, options)
    if (!('restart' in step)) return step
    current = step.restart
  }
  refuse('symlink-dangling', 'the path goes through symbolic links that loop (or keep changing).')
}

type Step = Anchored | { restart: string[] }

async function walkOnce(
  rootReal: string,
  agentPath: string,
  segments: readonly string[],
  options: WalkOptions,
): Promise<Step> {
  let dir = await AnchoredDir.openRoot(rootReal)
  try {
    for (let index = 0; index < segments.length; index++) {
      const given = segments[index]!
      if (!options.allowInternal && dir.isRoot && isInternalName(given)) refuseInternal()
      const last = index === segments.length - 1
      const name = await onDiskName(dir, given)
      let stats = await lstatOrUndefined(dir.child(name))
      if (!stats && (last ? options.createSelf : options.createParents)) {
        await dir.verify()
        await mkdir(dir.child(name)).catch((error: unknown) => {
          if (errnoOf(error) !== 'EEXIST') throw error
        })
        stats = await lstatOrUndefined(dir.child(name))
      }
      if (!stats) return anchored(agentPath, dir, name, undefined, false)
      if (stats.isSymbolicLink()) {
        const resolved = await resolveLink(rootReal, dir.child(name), options.allowInternal === true)
        await dir.close()
        return { restart: [...resolved, ...segments.slice(index + 1)] }
      }
      if (last) return anchored(agentPath, dir, name, stats, false)
      if (!stats.isDirectory()) return anchored(agentPath, dir, name, undefined, true)
      const next = await dir.openChild(name).catch((error: unknown) => {
        // Swapped for a link (ELOOP) or a file (ENOTDIR) since the lstat: look again from the root.
        if (['ELOOP', 'ENOTDIR', 'ENOENT'].includes(errnoOf(error) ?? '')) return undefined
        throw error
      })
      if (!next) {
        await dir.close()
        return { restart: [...segments] }
      }
      await dir.close()
      dir = next
    }
    return anchored(agentPath, dir, undefined, await dir.stat(), false)
  } catch (error) {
    await dir.close()
    throw error
  }
}

function anchored(
  agentPath: string,
  dir: AnchoredDir,
  name: string | undefined,
  stats: Stats | undefined,
  blockedByFile: boolean,
): Anchored {
  const kind: AnchoredKind = !stats
    ? 'missing'
    : stats.isDirectory()
      ? 'directory'
      : stats.isFile()
        ? 'file'
        : 'other'
  const hostPath = name === undefined ? dir.real : path.join(dir.real, name)
  return { agentPath, dir, name, kind, stats, blockedByFile, hostPath }
}

/** The link's real target as segments below the root; refused when it dangles, loops or leaves. */
async function resolveLink(rootReal: string, link: string, allowInternal: boolean): Promise<string[]> {
  const relative = path.relative(rootReal, await followLink(rootReal, link, allowInternal))
  return relative === '' ? [] : relative.split(path.sep)
}

/**
 * Names are NFC; a file another program created in decomposed form (NFD, as macOS writes them) is still
 * found under its NFC spelling.
 */
async function onDiskName(dir: AnchoredDir, name: string): Promise<string> {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: ASCII-only names cannot differ in normalisation
  if (/^[\x00-\x7f]*$/.test(name)) return name
  if (await lstatOrUndefined(dir.child(name))) return name
  const names = await readdir(dir.child()).catch(() => [] as string[])
  return names.find((entry) => entry !== name && entry.normalize('NFC') === name) ?? name
}

/** Closes the anchor whatever `use` does. */
export async function withAnchored<A extends Anchored, T>(
  located: Promise<A>,
  use: (target: A) => Promise<T>,
): Promise<T> {
  const target = await located
  try {
    return await use(target)
  } finally {
    await target.dir.close()
  }
}

export function notRegular(agentPath: string): Error {
  return workspaceError(
    'UNSUPPORTED',
    `${agentPath} is not a regular file or folder (a named pipe, device or socket); Bureau only reads and writes files and folders.`,
  )
}
