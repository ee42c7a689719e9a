import { randomBytes } from 'node:crypto'
import { constants } from 'node:fs'
import { copyFile, readdir, rename, stat, unlink } from 'node:fs/promises'
import path from 'node:path'
import { BackupManifest } from './backupManifest'
import { ensureInternalFolder } from './internalFolder'
import { TEMP_PREFIX } from './internalPaths'

export interface BackupInfo {
  /** Agent path of the backup file, e.g. `/reports/report.003.bak`. */
  readonly path: string
  readonly number: number
  readonly size: number
  readonly modified: string
}

interface BackupDeps {
  readonly internalDir: string
  readonly keep: number
  readonly toAgent: (hostPath: string) => string
  readonly toHost: (agentPath: string) => string
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

  /** Copies the current content of `hostPath` to the next numbered backup; returns its agent path. */
  async backup(hostPath: string): Promise<string> {
    const folder = path.dirname(hostPath)
    const stem = stemOf(path.basename(hostPath))
    const numbers = (await siblingsOf(folder, stem)).map((entry) => entry.number)
    const target = path.join(folder, backupName(stem, Math.max(0, ...numbers) + 1))
    const temp = path.join(folder, `${TEMP_PREFIX}${randomBytes(8).toString('hex')}.tmp`)
    await copyFile(hostPath, temp, constants.COPYFILE_EXCL | constants.COPYFILE_FICLONE)
    await rename(temp, target).catch(async (error: unknown) => {
      await unlink(temp).catch(() => undefined)
      throw error
    })
    const agentBackup = this.deps.toAgent(target)
    const origin = this.deps.toAgent(hostPath)
    await ensureInternalFolder(this.deps.internalDir)
    await this.manifest.update((origins) => {
      origins[agentBackup] = origin
    })
    await this.prune(hostPath)
    return agentBackup
  }

  /** Backups of the file at `hostPath`, newest first. */
  async list(hostPath: string): Promise<BackupInfo[]> {
    const origin = this.deps.toAgent(hostPath)
    const folder = path.dirname(hostPath)
    const siblings = await siblingsOf(folder, stemOf(path.basename(hostPath)))
    const { origins } = await this.manifest.read()
    const agentOf = (name: string) => this.deps.toAgent(path.join(folder, name))
    const recorded = siblings.filter((entry) => origins[agentOf(entry.name)] === origin)
    // Without a record (a user's own .bak, or a lost manifest), same-stem backups are the best guess.
    const chosen = recorded.length > 0 ? recorded : siblings.filter((entry) => !origins[agentOf(entry.name)])
    const infos = await Promise.all(chosen.map((entry) => this.info(folder, entry)))
    return infos.sort((a, b) => b.number - a.number)
  }

  private async prune(hostPath: string): Promise<void> {
    const origin = this.deps.toAgent(hostPath)
    const { origins } = await this.manifest.read()
    const mine = (await this.list(hostPath)).filter((backup) => origins[backup.path] === origin)
    const surplus = mine.slice(this.deps.keep)
    if (surplus.length === 0) return
    for (const backup of surplus) await unlink(this.deps.toHost(backup.path)).catch(() => undefined)
    await this.manifest.update((record) => {
      for (const backup of surplus) delete record[backup.path]
    })
  }

  private async info(folder: string, entry: Sibling): Promise<BackupInfo> {
    const hostPath = path.join(folder, entry.name)
    const stats = await stat(hostPath)
    return {
      path: this.deps.toAgent(hostPath),
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

async function siblingsOf(folder: string, stem: string): Promise<Sibling[]> {
  const pattern = new RegExp(`^${escapeRegExp(stem)}\\.(\\d{3,})\\.bak$`)
  const names = await readdir(folder).catch(() => [] as string[])
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
