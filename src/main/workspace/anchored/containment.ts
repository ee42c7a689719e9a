import type { Stats } from 'node:fs'
import { lstat, realpath } from 'node:fs/promises'
import path from 'node:path'
import { errnoOf, refuse } from '../errors'
import { isInternalName } from '../internalPaths'

/** True when `candidate` is `root` or lies under it (both real, absolute host paths). */
export function isInside(root: string, candidate: string): boolean {
  const relative = path.relative(root, candidate)
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative))
}

export interface RealLocation {
  /** Host path with every existing symlink resolved; missing trailing segments appended as given. */
  readonly hostPath: string
  readonly exists: boolean
}

/**
 * Walks the segments from the real root with lstat, resolving each symlink it meets (chains included) and
 * refusing any that lands outside the root or in the internal folder. The result is the real path of the
 * deepest existing ancestor plus the missing rest, so callers open exactly what was checked.
 */
export async function locateInside(
  rootReal: string,
  segments: readonly string[],
  allowInternal = false,
): Promise<RealLocation> {
  let current = rootReal
  for (let index = 0; index < segments.length; index++) {
    const name = segments[index]!
    // Also catches `.bureau` reached through a symlink to the root (`/loop/.bureau`).
    if (!allowInternal && current === rootReal && isInternalName(name)) refuseInternal()
    const next = path.join(current, name)
    const stats = await lstatOrUndefined(next)
    if (!stats) return { hostPath: path.join(current, ...segments.slice(index)), exists: false }
    current = stats.isSymbolicLink() ? await followLink(rootReal, next, allowInternal) : next
  }
  return { hostPath: current, exists: true }
}

export function refuseInternal(): never {
  refuse('internal-folder', 'the .bureau folder is internal to Bureau; use another folder.')
}

export async function followLink(
  rootReal: string,
  linkPath: string,
  allowInternal: boolean,
): Promise<string> {
  let target: string
  try {
    target = await realpath(linkPath)
  } catch {
    refuse('symlink-dangling', 'the path goes through a symbolic link whose target is missing or loops.')
  }
  if (!isInside(rootReal, target)) {
    refuse('symlink-escape', 'the path goes through a symbolic link that points outside the workspace.')
  }
  const first = path.relative(rootReal, target).split(path.sep)[0]
  if (!allowInternal && first !== undefined && isInternalName(first)) refuseInternal()
  return target
}

export async function lstatOrUndefined(hostPath: string): Promise<Stats | undefined> {
  try {
    return await lstat(hostPath)
  } catch (error) {
    const errno = errnoOf(error)
    if (errno === 'ENOENT' || errno === 'ENOTDIR') return undefined
    throw error
  }
}
