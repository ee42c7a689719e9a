import { mkdir, readdir } from 'node:fs/promises'
import path from 'node:path'
import { joinAgent } from './agentPath'
import type { AnchoredDir } from './anchored/anchoredDir'
import { readAnchored } from './anchored/anchoredIo'
import { type Anchored, lstatOrUndefined } from './anchored/anchoredWalk'
import { errnoOf, fromFsError } from './errors'
import { isTempName } from './internalPaths'

/** A source or destination entry: a name inside an anchored (open, contained) folder. */
export type CopyTarget = Anchored & { readonly name: string }

export interface CopyDeps {
  readonly rootReal: string
  readonly writeFile: (target: CopyTarget, bytes: Uint8Array) => Promise<unknown>
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
 * Copies a file, or a folder tree file by file through the atomic writer; every folder on both sides is
 * opened through its (checked) parent. Symbolic links inside a copied folder are skipped: a relative link
 * would point somewhere else from its new place. Named pipes and devices are skipped too.
 */
export async function copyEntry(
  source: CopyTarget,
  destination: CopyTarget,
  deps: CopyDeps,
): Promise<CopyCounts> {
  const tally: Tally = { files: 0, skippedLinks: 0 }
  await copyAny(source, destination, deps, tally)
  return tally.skippedLinks > 0 ? tally : { files: tally.files }
}

async function copyAny(source: CopyTarget, destination: CopyTarget, deps: CopyDeps, tally: Tally) {
  const stats = source.stats
  if (stats?.isSymbolicLink()) tally.skippedLinks++
  else if (stats?.isDirectory()) await copyFolder(source, destination, deps, tally)
  else if (stats?.isFile()) {
    const bytes = await readAnchored(deps.rootReal, source)
    await deps.writeFile(destination, bytes)
    tally.files++
  }
}

async function copyFolder(source: CopyTarget, destination: CopyTarget, deps: CopyDeps, tally: Tally) {
  await destination.dir.verify()
  await mkdir(destination.dir.child(destination.name)).catch((error: unknown) => {
    if (errnoOf(error) !== 'EEXIST') throw fromFsError(error, destination.agentPath)
  })
  const from = await source.dir.openChild(source.name)
  try {
    const to = await destination.dir.openChild(destination.name).catch((error: unknown) => {
      throw fromFsError(error, destination.agentPath)
    })
    try {
      const names = (await readdir(from.child())).filter((name) => !isTempName(name)).sort()
      for (const name of names) {
        const child = await childOf(from, source.agentPath, name)
        await copyAny(
          child,
          { ...(await childOf(to, destination.agentPath, name)), kind: 'missing' },
          deps,
          tally,
        )
      }
    } finally {
      await to.close()
    }
  } finally {
    await from.close()
  }
}

async function childOf(dir: AnchoredDir, parentAgent: string, name: string): Promise<CopyTarget> {
  const stats = await lstatOrUndefined(dir.child(name))
  const kind = !stats ? 'missing' : stats.isDirectory() ? 'directory' : stats.isFile() ? 'file' : 'other'
  return {
    agentPath: joinAgent(parentAgent, name),
    dir,
    name,
    kind,
    stats,
    blockedByFile: false,
    hostPath: path.join(dir.real, name),
  }
}
