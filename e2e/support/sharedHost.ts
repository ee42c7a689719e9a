import { type ScriptedLlm, startScriptedLlm } from '../../test/support/scriptedLlm'
import { scriptedProviderEnv } from '../../test/support/scriptedProviderEnv'
import { type BureauServer, startBureau } from './bureauServer'

/** The key the shared host's scripted model expects. */
export const SHARED_HOST_KEY = 'sk-scripted-shared-e2e-0000'

/** Where the shared host's provider points: the scripted model, tools through the API. */
export const SHARED_HOST_ENV = { BUREAU_INTERACTION_MODE: 'api' } as const

export interface SharedHost {
  readonly llm: ScriptedLlm
  readonly bureau: BureauServer
  /** Calls a contract route with the host's token; throws on an error status. */
  ipc(route: string, body?: unknown): Promise<unknown>
  /**
   * Puts the host back to how it started, for the next spec file: no conversation, default settings
   * (a provider worked before), no stored secret, memory, automation or MCP server in Settings, an empty workspace,
   * and a scripted model with nothing queued.
   */
  reset(): Promise<void>
  stop(): Promise<void>
}

// Sections the reset leaves alone: the workspace folder is the one given on the command line.
const KEPT_SECTIONS = new Set(['schemaVersion', 'secrets', 'secretStorage', 'workspace'])

/** One scripted model and one `bureau serve` that the spec files of a Playwright worker take turns on. */
export async function startSharedHost(): Promise<SharedHost> {
  const llm = await startScriptedLlm({ models: ['scripted-model'] })
  const bureau = await startBureau([], scriptedProviderEnv(llm, SHARED_HOST_KEY, SHARED_HOST_ENV))
  async function ipc(route: string, body?: unknown): Promise<unknown> {
    const response = await fetch(`${bureau.url}/ipc/${route}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${bureau.token}`, 'content-type': 'application/json' },
      body: body === undefined ? '{}' : JSON.stringify(body),
    })
    if (!response.ok) throw new Error(`${route}: ${response.status} ${await response.text()}`)
    return response.json()
  }
  const list = async <T>(route: string, body?: unknown) => (await ipc(route, body)) as T[]
  return {
    llm,
    bureau,
    ipc,
    async reset() {
      llm.reset()
      for (const { id } of await list<{ id: string }>('conversations.list', {}))
        await ipc('conversations.delete', { id })
      for (const { name, origin } of await list<{ name: string; origin: string }>('mcp.servers'))
        if (origin === 'settings') await ipc('mcp.remove', { name })
      const settings = (await ipc('settings.get')) as Record<string, unknown> & {
        secrets?: Record<string, { set?: boolean }>
      }
      for (const [name, secret] of Object.entries(settings.secrets ?? {}))
        if (secret.set) await ipc('settings.clearSecret', { name })
      const defaults = Object.keys(settings).filter((key) => !KEPT_SECTIONS.has(key))
      await ipc('settings.update', Object.fromEntries(defaults.map((key) => [key, null])))
      await ipc('settings.update', { ui: { providerWorked: true } })
      await ipc('memory.forgetAll', {})
      for (const { automation } of await list<{ automation: { id: string } }>('automations.list', {}))
        await ipc('automations.delete', { id: automation.id })
      for (const { path } of await list<{ path: string }>('workspace.list', { path: '/' }))
        await ipc('workspace.delete', { path })
    },
    async stop() {
      await bureau.stop()
      await llm.close()
    },
  }
}
