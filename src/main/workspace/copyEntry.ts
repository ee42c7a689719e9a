import { lstat, readdir } from 'node:fs/promises'
import path from 'node:path'
import { joinAgent } from './agentPath'
import { fromFsError } from './errors'
import { isTempName } from './internalPaths'
import type { ResolvedPath } from './resolvePath'
import { readChecked } from './safeOpen'

export interface CopyDeps {
  readonly rootReal: string
  readonly writeFile: (target: ResolvedPath, bytes: Uint8Array) => Promise<unknown>
  readonly makeFolder: (target: ResolvedPath) => Promise<void>
}

export interface CopyCounts {
  readonly files: number
  readonly skippedLinks?: number
}

interface Tally {
  files: number
  skippedLinks: number
}

/**
 * Copies a file, or a folder tree file by file through the atomic writer. Symbolic links inside a copied
 * folder are skipped: a relative link would point somewhere else from its new place.
 */
export async function copyEntry(
  source: ResolvedPath,
  destination: ResolvedPath,
  deps: CopyDeps,
): Promise<CopyCounts> {
  const tally: Tally = { files: 0, skippedLinks: 0 }
  await copyAny(source, destination, deps, tally)
  return tally.skippedLinks > 0 ? tally : { files: tally.files }
}

async function copyAny(source: ResolvedPath, destination: ResolvedPath, deps: CopyDeps, tally: Tally) {
  const stats = await lstat(source.hostPath)
  if (stats.isSymbolicLink()) tally.skippedLinks++
  else if (stats.isDirectory()) await copyFolder(source, destination, deps, tally)
  else if (stats.isFile()) {
    const bytes = await readChecked(deps.rootReal, source.hostPath, source.agentPath).catch(
      (error: unknown) => {
        throw fromFsError(error, source.agentPath)
      },
    )
    await deps.writeFile(destination, bytes)
    tally.files++
  }
}

async function copyFolder(source: ResolvedPath, destination: ResolvedPath, deps: CopyDeps, tally: Tally) {
  await deps.makeFolder(destination)
  const names = (await readdir(source.hostPath)).filter((name) => !isTempName(name)).sort()
  for (const name of names) await copyAny(childOf(source, name), childOf(destination, name), deps, tally)
}

function childOf(parent: ResolvedPath, name: string): ResolvedPath {
  return {
    agentPath: joinAgent(parent.agentPath, name),
    hostPath: path.join(parent.hostPath, name),
    exists: false,
  }
}
