import { workspaceError } from '../errors'
import type { HistoryAccess, RestoreReceipt, WriteReceipt } from '../types'
import type { GitHistory, HistoryEntry } from './gitHistory'

export interface RestoreHooks {
  /** Agent path of the real location (symlinks inside the workspace resolved). */
  readonly locate: (agentPath: string) => Promise<string>
  /** The workspace's safe write door (atomic, backed up, recorded). */
  readonly write: (agentPath: string, bytes: Uint8Array, message: string) => Promise<WriteReceipt>
}

/** `history list/read/restore` on top of GitHistory; restores go through the workspace's writeFile. */
export class HistoryRestorer implements HistoryAccess {
  constructor(
    private readonly history: GitHistory | undefined,
    private readonly hooks: RestoreHooks,
  ) {}

  get enabled(): boolean {
    return this.history !== undefined
  }

  async list(agentPath: string, limit = 50): Promise<HistoryEntry[]> {
    return this.required().list(await this.hooks.locate(agentPath), limit)
  }

  async read(agentPath: string, version: string): Promise<Uint8Array> {
    return this.required().read(await this.hooks.locate(agentPath), version)
  }

  async restore(agentPath: string, version?: string): Promise<RestoreReceipt> {
    const history = this.required()
    const located = await this.hooks.locate(agentPath)
    const chosen = version ?? (await this.newestWithContent(history, located))
    const bytes = await history.read(located, chosen)
    const receipt = await this.hooks.write(agentPath, bytes, `restore ${located} from version ${chosen}`)
    return { ...receipt, restoredFrom: chosen }
  }

  private async newestWithContent(history: GitHistory, agentPath: string): Promise<string> {
    const entries = await history.list(agentPath, 1000)
    const found = entries.find((entry) => entry.change !== 'deleted')
    if (!found) throw workspaceError('NOT_FOUND', `${agentPath} has no recorded versions in the history.`)
    return found.version
  }

  private required(): GitHistory {
    if (!this.history) throw workspaceError('UNAVAILABLE', 'History is turned off for this workspace.')
    return this.history
  }
}
