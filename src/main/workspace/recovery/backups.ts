import { randomBytes } from 'node:crypto'
import { lstat, readdir, rename, unlink } from 'node:fs/promises'
import path from 'node:path'
import type { AnchoredDir } from '../anchored/anchoredDir'
import { readAnchored } from '../anchored/anchoredIo'
import type { Anchored } from '../anchored/anchoredWalk'
import type { WriteFs } from '../anchored/fsSeam'
import { ensureInternalFolder } from '../internalFolder'
import { TEMP_PREFIX } from '../internalPaths'
import { BackupManifest } from './backupManifest'

export interface BackupInfo {
  /** Agent path of the backup file, e.g. `/reports/report.003.bak`. */
  readonly path: string
  readonly number: number
  readonly size: number
  readonly modified: string
}

interface BackupDeps {
  readonly internalDir: string
  readonly rootReal: string
  readonly keep: number
  readonly toAgent: (hostPath: string) => string
  readonly writeFs: WriteFs
}

/** A file in an anchored folder: backups are read, made and pruned through that same folder. */
type FileInDir = Pick<Anchored, 'dir' | 'hostPath' | 'agentPath' | 'kind' | 'stats' | 'blockedByFile'> & {
  readonly name: string
}

/** Numbered backups beside the file: `report.xlsx` -> `report.001.bak`, `report.002.bak`, ... (highest = newest). */
export class BackupStore {
  private readonly manifest: BackupManifest

  constructor(private readonly deps: BackupDeps) {
    this.manifest = BackupManifest.at(deps.internalDir)
  }

  get enabled(): boolean {
    return this.deps.keep > 0
  }

  /** Copies the current content of the file to the next numbered backup; returns its agent path. */
  async backup(target: FileInDir): Promise<string> {
    const { dir } = target
    const stem = stemOf(target.name)
    const numbers = (await siblingsOf(dir, stem)).map((entry) => entry.number)
    const name = backupName(stem, Math.max(0, ...numbers) + 1)
    const bytes = await readAnchored(this.deps.rootReal, target)
    const temp = `${TEMP_PREFIX}${randomBytes(8).toString('hex')}.tmp`
    const handle = await this.deps.writeFs.open(dir.child(temp), 'wx', (target.stats?.mode ?? 0o666) & 0o777)
    try {
      await handle.writeFile(bytes)
      await handle.sync()
      await handle.close()
      await dir.verify()
      await rename(dir.child(temp), dir.child(name))
    } catch (error) {
      await handle.close().catch(() => undefined)
      await unlink(dir.child(temp)).catch(() => undefined)
      throw error
    }
    const agentBackup = this.deps.toAgent(path.join(dir.real, name))
    await ensureInternalFolder(this.deps.internalDir)
    await this.manifest.update((origins) => {
      origins[agentBackup] = target.agentPath
    })
    await this.prune(target)
    return agentBackup
  }

  /** Backups of the file, newest first. */
  async list(target: FileInDir): Promise<BackupInfo[]> {
    const origin = target.agentPath
    const { dir } = target
    const siblings = await siblingsOf(dir, stemOf(target.name))
    const { origins } = await this.manifest.read()
    const agentOf = (name: string) => this.deps.toAgent(path.join(dir.real, name))
    const recorded = siblings.filter((entry) => origins[agentOf(entry.name)] === origin)
    // Without a record (a user's own .bak, or a lost manifest), same-stem backups are the best guess.
    const chosen = recorded.length > 0 ? recorded : siblings.filter((entry) => !origins[agentOf(entry.name)])
    const infos = await Promise.all(chosen.map((entry) => this.info(dir, entry)))
    return infos.flatMap((info) => (info ? [info] : [])).sort((a, b) => b.number - a.number)
  }

  private async prune(target: FileInDir): Promise<void> {
    const { origins } = await this.manifest.read()
    const mine = (await this.list(target)).filter((backup) => origins[backup.path] === target.agentPath)
    const surplus = mine.slice(this.deps.keep)
    if (surplus.length === 0) return
    await target.dir.verify()
    for (const backup of surplus)
      await unlink(target.dir.child(backup.path.slice(backup.path.lastIndexOf('/') + 1))).catch(
        () => undefined,
      )
    await this.manifest.update((record) => {
      for (const backup of surplus) delete record[backup.path]
    })
  }

  private async info(dir: AnchoredDir, entry: Sibling): Promise<BackupInfo | undefined> {
    const stats = await lstat(dir.child(entry.name)).catch(() => undefined)
    if (!stats?.isFile()) return undefined
    return {
      path: this.deps.toAgent(path.join(dir.real, entry.name)),
      number: entry.number,
      size: stats.size,
      modified: stats.mtime.toISOString(),
    }
  }
}

interface Sibling {
  readonly name: string
  readonly number: number
}

async function siblingsOf(dir: AnchoredDir, stem: string): Promise<Sibling[]> {
  const pattern = new RegExp(`^${escapeRegExp(stem)}\\.(\\d{3,})\\.bak$`)
  const names = await readdir(dir.child()).catch(() => [] as string[])
  return names.flatMap((name) => {
    const match = pattern.exec(name)
    return match ? [{ name, number: Number(match[1]) }] : []
  })
}

/** `report.xlsx` -> `report`; `archive.tar.gz` -> `archive.tar`; `.env` and `Makefile` stay whole. */
export function stemOf(name: string): string {
  return path.parse(name).name || name
}

export function backupName(stem: string, number: number): string {
  return `${stem}.${String(number).padStart(3, '0')}.bak`
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}
