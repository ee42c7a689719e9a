import * as fs from 'node:fs'
import { lstat, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { workspaceError } from '../errors'
import { ensureInternalFolder } from '../internalFolder'
import { INTERNAL_DIR } from '../internalPaths'
import { anchoredGitFs } from './anchoredGitFs'

type Git = typeof import('isomorphic-git')
type StatusRow = [string, number, number, number]

export interface HistoryEntry {
  /** Short commit id; pass it to `restore`. */
  readonly version: string
  readonly date: string
  readonly message: string
  /** What this version did to the file. A `deleted` version has no content to restore. */
  readonly change: 'added' | 'modified' | 'deleted'
}

export interface GitHistoryOptions {
  /** Real host path of the workspace root (the git work tree). */
  readonly root: string
  /** Files larger than this are left out of the history (the numbered backups still cover them). */
  readonly maxFileBytes: number
  readonly onWarning?: (message: string) => void
}

const AUTHOR = { name: 'Bureau', email: 'bureau@localhost' }
const SCAN_LIMIT = 2000

/**
 * History of the files Bureau changed, as a git repository in `<root>/.bureau/history` whose work tree is
 * the workspace. Only paths passed to `record` are ever staged, so the user's other files never enter it;
 * `core.worktree` and `info/exclude` make `git --git-dir=.bureau/history log` work in any git client.
 */
export class GitHistory {
  readonly gitdir: string
  private gitModule: Promise<Git> | undefined
  private ready: Promise<void> | undefined
  private queue: Promise<unknown> = Promise.resolve()
  private readonly cache = {}

  /** Node's fs for the history's own folder; the workspace's files only through anchored lookups. */
  private readonly gitFs: { promises: typeof fs.promises }

  constructor(private readonly options: GitHistoryOptions) {
    this.gitdir = path.join(options.root, INTERNAL_DIR, 'history')
    this.gitFs = anchoredGitFs(options.root, this.gitdir)
  }

  /** Commits the current disk state of the given agent paths (files or folders) if it changed. */
  record(agentPaths: readonly string[], message: string): Promise<string | undefined> {
    return this.serial(async () => {
      const git = await this.open()
      const filepaths = agentPaths.map(toGitPath).filter((p) => p !== '')
      if (filepaths.length === 0) return undefined
      const rows = (await git.statusMatrix({ ...this.repo(), filepaths, ignored: true })) as StatusRow[]
      const changed = await this.stage(git, rows)
      if (!changed) return undefined
      return git.commit({ ...this.repo(), message, author: AUTHOR })
    })
  }

  /** Versions that changed the file, newest first. */
  list(agentPath: string, limit = 50): Promise<HistoryEntry[]> {
    return this.serial(async () => {
      const git = await this.open()
      const filepath = toGitPath(agentPath)
      const commits = await this.commits(git)
      const entries: HistoryEntry[] = []
      let newer = commits[0] ? await this.blobAt(git, commits[0].oid, filepath) : undefined
      for (let index = 0; index < commits.length && entries.length < limit; index++) {
        const commit = commits[index]!
        const older = commits[index + 1]
          ? await this.blobAt(git, commits[index + 1]!.oid, filepath)
          : undefined
        if (newer !== older) entries.push(entryFor(commit, newer, older))
        newer = older
      }
      return entries
    })
  }

  /** The content the file had in `version`. */
  read(agentPath: string, version: string): Promise<Uint8Array> {
    return this.serial(async () => {
      const git = await this.open()
      const oid = await this.expand(git, version)
      try {
        return (await git.readBlob({ ...this.repo(), oid, filepath: toGitPath(agentPath) })).blob
      } catch {
        throw workspaceError(
          'NOT_FOUND',
          `${agentPath} has no content in version ${version} (deleted there, or never recorded); pick another version from history list.`,
        )
      }
    })
  }

  private async stage(git: Git, rows: StatusRow[]): Promise<boolean> {
    let changed = false
    for (const [filepath, head, workdir, stage] of rows) {
      if (workdir === 0) {
        if (stage !== 0) await git.remove({ ...this.repo(), filepath })
        changed ||= head !== 0
      } else if (workdir === 2 || stage !== 1) {
        if (!(await this.fitsHistory(filepath))) continue
        await git.add({ ...this.repo(), filepath, force: true })
        changed ||= head === 0 || workdir === 2
      }
    }
    return changed
  }

  private async fitsHistory(filepath: string): Promise<boolean> {
    const size = (await lstat(path.join(this.options.root, filepath))).size
    if (size <= this.options.maxFileBytes) return true
    this.options.onWarning?.(`/${filepath} is too large for the history; only its backups are kept.`)
    return false
  }

  private async commits(git: Git) {
    try {
      return await git.log({ ...this.repo(), depth: SCAN_LIMIT })
    } catch {
      return [] // no commit yet
    }
  }

  private async blobAt(git: Git, commit: string, filepath: string): Promise<string | undefined> {
    const slash = filepath.lastIndexOf('/')
    try {
      const tree = await git.readTree({
        ...this.repo(),
        oid: commit,
        ...(slash > 0 ? { filepath: filepath.slice(0, slash) } : {}),
      })
      const name = filepath.slice(slash + 1)
      return tree.tree.find((entry) => entry.path === name && entry.type === 'blob')?.oid
    } catch {
      return undefined
    }
  }

  private async expand(git: Git, version: string): Promise<string> {
    if (!/^[0-9a-f]{4,40}$/i.test(version)) {
      throw workspaceError(
        'VALIDATION_FAILED',
        `"${version}" is not a version id; use one from history list.`,
      )
    }
    try {
      return await git.expandOid({ ...this.repo(), oid: version.toLowerCase() })
    } catch {
      throw workspaceError('NOT_FOUND', `No version "${version}" in the history; use one from history list.`)
    }
  }

  private repo() {
    return { fs: this.gitFs, dir: this.options.root, gitdir: this.gitdir, cache: this.cache }
  }

  private open(): Promise<Git> {
    this.gitModule ??= import('isomorphic-git')
    this.ready ??= this.gitModule.then((git) => this.initialise(git))
    return this.ready.then(() => this.gitModule!)
  }

  private async initialise(git: Git): Promise<void> {
    if (fs.existsSync(path.join(this.gitdir, 'config'))) return
    await ensureInternalFolder(path.dirname(this.gitdir), path.basename(this.gitdir))
    await git.init({ fs, dir: this.options.root, gitdir: this.gitdir, defaultBranch: 'main' })
    const config = { fs, gitdir: this.gitdir }
    await git.setConfig({ ...config, path: 'core.worktree', value: '../..' })
    await git.setConfig({ ...config, path: 'core.ignorecase', value: process.platform !== 'linux' })
    await git.setConfig({ ...config, path: 'status.showUntrackedFiles', value: 'no' })
    await git.setConfig({ ...config, path: 'user.name', value: AUTHOR.name })
    await git.setConfig({ ...config, path: 'user.email', value: AUTHOR.email })
    await writeFile(path.join(this.gitdir, 'info', 'exclude'), `/${INTERNAL_DIR}/\n`)
  }

  private serial<T>(task: () => Promise<T>): Promise<T> {
    const result = this.queue.then(task, task)
    this.queue = result.catch(() => undefined)
    return result
  }
}

function toGitPath(agentPath: string): string {
  return agentPath.replace(/^\/+/, '')
}

function entryFor(
  commit: { oid: string; commit: { message: string; author: { timestamp: number } } },
  newer: string | undefined,
  older: string | undefined,
): HistoryEntry {
  return {
    version: commit.oid.slice(0, 10),
    date: new Date(commit.commit.author.timestamp * 1000).toISOString(),
    message: commit.commit.message.trim(),
    change: newer === undefined ? 'deleted' : older === undefined ? 'added' : 'modified',
  }
}
